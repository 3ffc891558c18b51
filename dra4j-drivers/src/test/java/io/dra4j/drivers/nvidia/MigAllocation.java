package io.dra4j.drivers.nvidia;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;

/**
 * Claims allocated one after the other by dra4j's allocator (Kubernetes 1.37 defaults) on a node publishing an
 * NVIDIA driver's slices, with the DeviceClasses NVIDIA's Helm chart installs ({@code gpu.nvidia.com},
 * {@code mig.nvidia.com}).
 */
final class MigAllocation {
    static final String NODE = "node-1";
    private static final FeatureGates GATES = FeatureGates.defaults(KubernetesVersion.V1_37);
    private final List<ResourceSlice> slices;
    private final List<ResourceClaim> allocated = new ArrayList<>();
    private final Node node =
            new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build();

    MigAllocation(NvidiaDevices.Published published) {
        this.slices = MigFixtures.slices(published, NODE);
    }

    static DeviceClass deviceClass(String name, String type) {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == 'gpu.nvidia.com' && "
                        + "device.attributes['gpu.nvidia.com'].type == '" + type + "'")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }

    /** A claim for one MIG device of {@code profile}, or for a full GPU when {@code profile} is null. */
    static ResourceClaim claim(String name, String profile) {
        var request = new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withUid("uid-" + name)
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpu")
                .withNewExactly()
                .withDeviceClassName(profile == null ? "gpu.nvidia.com" : "mig.nvidia.com")
                .withCount(1L);
        if (profile != null) {
            request = request.addNewSelector()
                    .withNewCel()
                    .withExpression("device.attributes['gpu.nvidia.com'].profile == '" + profile + "'")
                    .endCel()
                    .endSelector();
        }
        return request.endExactly().endRequest().endDevices().endSpec().build();
    }

    /** Allocates {@code claim}; on success it counts as allocated for the claims that follow. */
    AllocationOutcome allocate(ResourceClaim claim) {
        Allocator allocator = Allocator.builder()
                .featureGates(GATES)
                .deviceClasses(List.of(deviceClass("gpu.nvidia.com", "gpu"), deviceClass("mig.nvidia.com", "mig")))
                .resourceSlices(slices)
                .allocatedState(AllocatedState.fromClaims(allocated, GATES))
                .build();
        AllocationOutcome outcome = allocator.allocate(node, List.of(claim));
        if (outcome instanceof AllocationOutcome.Allocated a) {
            allocated.add(new ResourceClaimBuilder(claim)
                    .withNewStatus()
                    .withAllocation(a.results().get(0))
                    .endStatus()
                    .build());
        }
        return outcome;
    }

    /** The device the allocated claim got. */
    static String device(AllocationOutcome outcome) {
        return ((AllocationOutcome.Allocated) outcome)
                .results()
                .get(0)
                .getDevices()
                .getResults()
                .get(0)
                .getDevice();
    }

    List<ResourceClaim> allocated() {
        return List.copyOf(allocated);
    }
}
