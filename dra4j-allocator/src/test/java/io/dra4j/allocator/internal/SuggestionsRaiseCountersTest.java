package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.Explanation.Change;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The what-if copy that raises a pool's shared counters by what one device consumes writes Kubernetes quantities in the
 * format the driver wrote (Go's {@code Quantity.Add} keeps the receiver's format), never a plain byte count.
 */
class SuggestionsRaiseCountersTest {

    @Test
    void raisedCountersKeepTheDriversFormat() {
        ResourceSlice slice = new ResourceSliceBuilder()
                .withNewMetadata()
                .withName("s")
                .endMetadata()
                .withNewSpec()
                .withDriver("gpu.example.com")
                .withNodeName("node-a")
                .withNewPool()
                .withName("p")
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .addNewSharedCounter()
                .withName("mem")
                .addToCounters("memory", new Counter(new Quantity("40Gi")))
                .addToCounters("power", new Counter(new Quantity("3k")))
                .endSharedCounter()
                .addNewDevice()
                .withName("d0")
                .addNewConsumesCounter()
                .withCounterSet("mem")
                .addToCounters("memory", new Counter(new Quantity("1536Mi")))
                .addToCounters("power", new Counter(new Quantity("500")))
                .endConsumesCounter()
                .endDevice()
                .endSpec()
                .build();
        AllocatorInputs in = new AllocatorInputs(
                FeatureGates.defaults(KubernetesVersion.V1_37),
                AllocatedState.EMPTY,
                List.of(),
                List.of(slice),
                List.of(),
                null,
                List.of());

        AllocatorInputs raised =
                Suggestions.apply(new Change.RaiseCounters(new DeviceId("gpu.example.com", "p", "d0")), in);

        var counters =
                raised.slices().get(0).getSpec().getSharedCounters().get(0).getCounters();
        assertThat(Map.of(
                        "memory", counters.get("memory").getValue().toString(),
                        "power", counters.get("power").getValue().toString()))
                .isEqualTo(Map.of("memory", "42496Mi", "power", "3500"));
        assertThat(slice.getSpec()
                        .getSharedCounters()
                        .get(0)
                        .getCounters()
                        .get("memory")
                        .getValue())
                .as("the input slice is unchanged")
                .isEqualTo(new Quantity("40Gi"));
    }
}
