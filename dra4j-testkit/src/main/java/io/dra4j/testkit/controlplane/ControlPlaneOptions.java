package io.dra4j.testkit.controlplane;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to start: etcd and kube-apiserver always; kube-scheduler and kube-controller-manager (with only the
 * controllers a scheduling test needs) when asked. Immutable; the {@code with...} methods return a copy.
 *
 * @param scheduler         start kube-scheduler with its default profile
 * @param controllers       the kube-controller-manager controllers to run ({@code resourceclaim-controller}, which
 *                          creates a pod's claims from its templates, ...); none: no controller manager
 * @param featureGates      {@code --feature-gates} for every component, in order
 * @param runtimeConfig     kube-apiserver's {@code --runtime-config} entries, e.g. {@code scheduling.k8s.io/v1beta1=true}
 * @param extraApiServerFlags further kube-apiserver flags, verbatim
 * @param readyTimeout      how long each component may take to become ready
 */
public record ControlPlaneOptions(
        boolean scheduler,
        List<String> controllers,
        Map<String, Boolean> featureGates,
        List<String> runtimeConfig,
        List<String> extraApiServerFlags,
        Duration readyTimeout) {
    /** The controller that creates a pod's ResourceClaims from its ResourceClaimTemplates. */
    public static final String RESOURCE_CLAIM_CONTROLLER = "resourceclaim-controller";

    public ControlPlaneOptions {
        controllers = List.copyOf(controllers);
        featureGates = Collections.unmodifiableMap(new LinkedHashMap<>(featureGates));
        runtimeConfig = List.copyOf(runtimeConfig);
        extraApiServerFlags = List.copyOf(extraApiServerFlags);
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("readyTimeout must be positive, got " + readyTimeout);
        }
    }

    /** etcd and kube-apiserver only, with 1.37's default gates and API versions. */
    public static ControlPlaneOptions apiServerOnly() {
        return new ControlPlaneOptions(false, List.of(), Map.of(), List.of(), List.of(), Duration.ofSeconds(90));
    }

    /** Also kube-scheduler and the claim controller: pods with claims from templates get scheduled and bound. */
    public static ControlPlaneOptions scheduling() {
        return apiServerOnly().withScheduler().withControllers(List.of(RESOURCE_CLAIM_CONTROLLER));
    }

    public ControlPlaneOptions withScheduler() {
        return new ControlPlaneOptions(
                true, controllers, featureGates, runtimeConfig, extraApiServerFlags, readyTimeout);
    }

    public ControlPlaneOptions withControllers(List<String> names) {
        return new ControlPlaneOptions(
                scheduler, names, featureGates, runtimeConfig, extraApiServerFlags, readyTimeout);
    }

    public ControlPlaneOptions withFeatureGate(String name, boolean on) {
        Map<String, Boolean> gates = new LinkedHashMap<>(featureGates);
        gates.put(name, on);
        return new ControlPlaneOptions(scheduler, controllers, gates, runtimeConfig, extraApiServerFlags, readyTimeout);
    }

    public ControlPlaneOptions withRuntimeConfig(String entry) {
        List<String> entries = new ArrayList<>(runtimeConfig);
        entries.add(entry);
        return new ControlPlaneOptions(
                scheduler, controllers, featureGates, entries, extraApiServerFlags, readyTimeout);
    }

    public ControlPlaneOptions withApiServerFlag(String flag) {
        List<String> flags = new ArrayList<>(extraApiServerFlags);
        flags.add(flag);
        return new ControlPlaneOptions(scheduler, controllers, featureGates, runtimeConfig, flags, readyTimeout);
    }

    public ControlPlaneOptions withReadyTimeout(Duration timeout) {
        return new ControlPlaneOptions(
                scheduler, controllers, featureGates, runtimeConfig, extraApiServerFlags, timeout);
    }
}
