package io.dra4j.kubelet.slices;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SliceLayoutTest {
    static Device plain(int i) {
        return new DeviceBuilder().withName("dev-" + i).build();
    }

    static Device tainted(int i) {
        return new DeviceBuilder()
                .withName("dev-" + i)
                .addNewTaint()
                .withKey("k")
                .withEffect("NoSchedule")
                .endTaint()
                .build();
    }

    @Test
    void plainDevicesGo128ToASlice() {
        List<Device> devices =
                IntStream.range(0, 300).mapToObj(SliceLayoutTest::plain).toList();
        assertThat(SliceLayout.split(devices, List.of()))
                .extracting(s -> s.devices().size())
                .containsExactly(128, 128, 44);
    }

    @Test
    void aSliceWithTaintedOrCounterConsumingDevicesHoldsAt64() {
        List<Device> devices = new ArrayList<>();
        IntStream.range(0, 10).mapToObj(SliceLayoutTest::plain).forEach(devices::add);
        IntStream.range(10, 100).mapToObj(SliceLayoutTest::tainted).forEach(devices::add);
        assertThat(SliceLayout.split(devices, List.of()))
                .extracting(s -> s.devices().size())
                .containsExactly(64, 36);
    }

    @Test
    void sharedCountersGetSlicesOfTheirOwnFirstAndAnEmptyNodeOneEmptySlice() {
        List<CounterSet> sets = IntStream.range(0, 9)
                .mapToObj(i -> new CounterSetBuilder()
                        .withName("gpu-" + i)
                        .addToCounters(
                                "memory",
                                new CounterBuilder()
                                        .withValue(new Quantity("80Gi"))
                                        .build())
                        .build())
                .toList();
        List<SliceLayout.Slice> slices = SliceLayout.split(List.of(plain(0)), sets);
        assertThat(slices).extracting(s -> s.sharedCounters().size()).containsExactly(8, 1, 0);
        assertThat(slices.get(2).devices()).hasSize(1);
        assertThat(SliceLayout.split(List.of(), List.of()))
                .singleElement()
                .satisfies(s -> assertThat(s.devices()).isEmpty());
    }

    @Test
    void validationNamesDuplicatesAndDanglingCounterReferences() {
        Device consumer = new DeviceBuilder()
                .withName("p0")
                .addNewConsumesCounter()
                .withCounterSet("gpu-0")
                .addToCounters(
                        "cores",
                        new CounterBuilder().withValue(new Quantity("1")).build())
                .endConsumesCounter()
                .build();
        Device orphan = new DeviceBuilder()
                .withName("p1")
                .addNewConsumesCounter()
                .withCounterSet("gpu-9")
                .addToCounters(
                        "memory",
                        new CounterBuilder().withValue(new Quantity("1")).build())
                .endConsumesCounter()
                .build();
        CounterSet set = new CounterSetBuilder()
                .withName("gpu-0")
                .addToCounters(
                        "memory",
                        new CounterBuilder().withValue(new Quantity("80Gi")).build())
                .build();
        assertThat(SliceLayout.validate(List.of(consumer, orphan, plain(0), plain(0)), List.of(set)))
                .containsExactly(
                        "device p0 consumes counter cores of counter set gpu-0, which has no such counter",
                        "device p1 consumes counters of counter set gpu-9, which the pool does not define",
                        "device dev-0 is defined twice in the pool");
    }

    @Test
    void sliceNamesCarryTheirIndex() {
        assertThat(ResourceSlicePublisher.indexOf("0000a-gpu.example.com-node-a-x7k2p"))
                .isEqualTo(10);
        assertThat(ResourceSlicePublisher.indexOf("node-a-gpu.example.com-x7k2p"))
                .isEqualTo(-1);
    }
}
