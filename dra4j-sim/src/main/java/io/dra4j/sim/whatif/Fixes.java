package io.dra4j.sim.whatif;

import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.Explanation;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies a {@link Fix} to a copy of a cluster state (the final state of the simulation it was found in), so that
 * it can be simulated again: a claim changed, a pod given tolerations, claims holding devices released, or a node
 * added. The state's objects are never modified.
 */
public final class Fixes {
    private Fixes() {}

    /**
     * The state with the fix applied to the pod {@code namespace/pod} (or, for claim changes, to the fix's claim).
     *
     * @throws IllegalArgumentException for a change to the cluster's objects (classes, pools, gates, node labels),
     *                                  which is described but not applied here
     */
    public static ClusterSnapshot apply(Fix fix, ClusterSnapshot state, String namespace, String pod) {
        List<Pod> pods = new ArrayList<>(state.pods());
        List<ResourceClaim> claims = new ArrayList<>(state.resourceClaims());
        ClusterSnapshot base = state;
        switch (fix.kind()) {
            case TOLERATION ->
                pods.replaceAll(p -> Manifests.namespaceOf(p).equals(namespace)
                                && p.getMetadata().getName().equals(pod)
                        ? new PodBuilder(p)
                                .editSpec()
                                .addAllToTolerations(fix.tolerations())
                                .endSpec()
                                .build()
                        : p);
            case WHAT_IF_NODE ->
                base = NodeTemplate.addTo(
                        state, List.of(new NodeTemplate(fix.whatIfNode().orElseThrow(), fix.whatIfSlices())));
            case RELEASE -> {
                Set<String> devices = new HashSet<>();
                for (DeviceId d : ((Explanation.Change.Release) fix.change().orElseThrow()).devices()) {
                    devices.add(d.toString());
                }
                claims.replaceAll(c -> holds(c, devices)
                        ? new ResourceClaimBuilder(c).withStatus(null).build()
                        : c);
            }
            case CLAIM_CHANGE -> {
                String target = fix.claim().orElseThrow();
                claims.replaceAll(
                        c -> (Manifests.namespaceOf(c) + "/" + c.getMetadata().getName()).equals(target)
                                ? changed(c, fix.change().orElseThrow())
                                : c);
            }
            default ->
                throw new IllegalArgumentException("a " + fix.kind() + " fix changes cluster objects; apply it "
                        + "by hand: " + fix.description());
        }
        return base.with(base.nodes(), pods, base.resourceSlices(), claims);
    }

    private static boolean holds(ResourceClaim c, Set<String> devices) {
        if (c.getStatus() == null || c.getStatus().getAllocation() == null) {
            return false;
        }
        for (DeviceRequestAllocationResult r :
                c.getStatus().getAllocation().getDevices().getResults()) {
            if (devices.contains(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice())) {
                return true;
            }
        }
        return false;
    }

    /** A copy of the claim with one change to its spec, as the allocator's what-if applied it. */
    static ResourceClaim changed(ResourceClaim claim, Explanation.Change change) {
        ResourceClaim c = new ResourceClaimBuilder(claim).build();
        var devices = c.getSpec().getDevices();
        if (change instanceof Explanation.Change.SetCount s) {
            exact(devices.getRequests(), s.request(), r -> r.setCount(s.count()), sub -> sub.setCount(s.count()));
        } else if (change instanceof Explanation.Change.Tolerate t) {
            exact(
                    devices.getRequests(),
                    t.request(),
                    r -> r.setTolerations(plus(r.getTolerations(), t.tolerations())),
                    sub -> sub.setTolerations(plus(sub.getTolerations(), t.tolerations())));
        } else if (change instanceof Explanation.Change.DropConstraint d) {
            List<io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint> cs =
                    new ArrayList<>(devices.getConstraints());
            cs.remove(d.index());
            devices.setConstraints(cs);
        } else if (change instanceof Explanation.Change.DropSelector d) {
            exact(
                    devices.getRequests(),
                    d.request(),
                    r -> r.setSelectors(without(r.getSelectors(), d.index())),
                    sub -> sub.setSelectors(without(sub.getSelectors(), d.index())));
        } else if (change instanceof Explanation.Change.GuardSelector g) {
            exact(
                    devices.getRequests(),
                    g.request(),
                    r -> r.setSelectors(replaced(r.getSelectors(), g.index(), g.expression())),
                    sub -> sub.setSelectors(replaced(sub.getSelectors(), g.index(), g.expression())));
        } else if (change instanceof Explanation.Change.DropCapacityRequests d) {
            exact(devices.getRequests(), d.request(), r -> r.setCapacity(null), sub -> sub.setCapacity(null));
        } else if (change instanceof Explanation.Change.DropRequest d) {
            List<DeviceRequest> rs = new ArrayList<>(devices.getRequests());
            rs.removeIf(r -> r.getName().equals(d.request()));
            devices.setRequests(rs);
        } else {
            throw new IllegalArgumentException(
                    "change " + change.getClass().getSimpleName() + " is not a change to one claim");
        }
        return c;
    }

    private static void exact(
            List<DeviceRequest> requests,
            String name,
            java.util.function.Consumer<ExactDeviceRequest> onExact,
            java.util.function.Consumer<DeviceSubRequest> onSub) {
        String main = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
        for (DeviceRequest r : requests) {
            if (!r.getName().equals(main)) {
                continue;
            }
            if (!name.contains("/")) {
                onExact.accept(r.getExactly());
                return;
            }
            for (DeviceSubRequest sub : r.getFirstAvailable()) {
                if (sub.getName().equals(name.substring(name.indexOf('/') + 1))) {
                    onSub.accept(sub);
                    return;
                }
            }
        }
        throw new IllegalArgumentException("request " + name + " not found");
    }

    private static <T> List<T> plus(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a == null ? List.of() : a);
        out.addAll(b);
        return out;
    }

    private static <T> List<T> without(List<T> a, int index) {
        List<T> out = new ArrayList<>(a);
        out.remove(index);
        return out;
    }

    private static List<DeviceSelector> replaced(List<DeviceSelector> a, int index, String expression) {
        List<DeviceSelector> out = new ArrayList<>(a);
        out.set(
                index,
                new DeviceSelectorBuilder()
                        .withNewCel()
                        .withExpression(expression)
                        .endCel()
                        .build());
        return out;
    }
}
