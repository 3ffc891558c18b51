package io.dra4j.kubelet.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PreferredAllocationTest {
    static final List<PluginDevice> DEVICES = List.of(
            new PluginDevice("a0", true, List.of(0L), "nvl-a"), new PluginDevice("a1", true, List.of(0L), "nvl-a"),
            new PluginDevice("a2", true, List.of(0L), "nvl-a"), new PluginDevice("b0", true, List.of(1L), "nvl-b"),
            new PluginDevice("b1", true, List.of(1L), "nvl-b"), new PluginDevice("n0", true, List.of(1L), null));

    @Test
    void fillsFromTheDomainOfTheDevicesThatMustBeIncluded() {
        assertThat(PreferredAllocation.choose(DEVICES, List.of("a0", "a1", "a2", "b0", "b1"), List.of("b1"), 2))
                .containsExactly("b1", "b0");
    }

    @Test
    void withNothingToIncludeTakesTheSmallestDomainThatHoldsTheRequest() {
        assertThat(PreferredAllocation.choose(DEVICES, List.of("a0", "a1", "a2", "b0", "b1"), List.of(), 2))
                .containsExactly("b0", "b1");
        assertThat(PreferredAllocation.choose(DEVICES, List.of("a0", "a1", "a2", "b0", "b1"), List.of(), 3))
                .containsExactly("a0", "a1", "a2");
    }

    @Test
    void spillsOverWhenNoDomainHoldsTheRequestAndGroupsByNumaWithoutADomain() {
        assertThat(PreferredAllocation.choose(DEVICES, List.of("a0", "a1", "b0", "n0"), List.of(), 3))
                .hasSize(3)
                .startsWith("a0", "a1");
        assertThat(PreferredAllocation.choose(DEVICES, List.of("n0", "a0"), List.of("n0"), 1))
                .containsExactly("n0");
    }
}
