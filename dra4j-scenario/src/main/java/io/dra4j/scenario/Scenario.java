package io.dra4j.scenario;

import io.dra4j.allocator.DraFeature;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One allocation scenario as read from a scenario file (see docs/scenario-format.md).
 *
 * <p>The lists are immutable; the fabric8 objects inside them are mutable model classes that nothing in dra4j
 * modifies, and callers must not modify them either.
 *
 * @param name             the scenario id
 * @param source           where the expected outcome comes from; empty string when not given
 * @param features         the DRA feature gates that are on; empty when the file has no {@code features} key (then
 *                         a Kubernetes release's defaults apply)
 * @param confidence       {@code high} or {@code medium}; empty string when not given
 * @param notes            free text; empty string when not given
 * @param node             the node the allocation is computed for (name and labels only)
 * @param deviceClasses    DeviceClasses, looked up by name
 * @param resourceSlices   every ResourceSlice of the cluster, in file order
 * @param deviceTaintRules DeviceTaintRules
 * @param allocatedDevices devices in use by earlier allocations
 * @param claims           the claims to allocate together, in file order
 * @param expectation      the expected outcome; empty when the file has no {@code expect} key
 * @param sourcePath       the file the scenario was read from
 */
public record Scenario(
        String name,
        String source,
        Optional<List<DraFeature>> features,
        String confidence,
        String notes,
        Node node,
        List<DeviceClass> deviceClasses,
        List<ResourceSlice> resourceSlices,
        List<DeviceTaintRule> deviceTaintRules,
        List<AllocatedDevice> allocatedDevices,
        List<ResourceClaim> claims,
        Optional<Expectation> expectation,
        Path sourcePath) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        features = features.map(List::copyOf);
        Objects.requireNonNull(confidence, "confidence");
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(node, "node");
        deviceClasses = List.copyOf(deviceClasses);
        resourceSlices = List.copyOf(resourceSlices);
        deviceTaintRules = List.copyOf(deviceTaintRules);
        allocatedDevices = List.copyOf(allocatedDevices);
        claims = List.copyOf(claims);
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(sourcePath, "sourcePath");
    }
}
