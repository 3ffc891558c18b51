package io.dra4j.allocator;

import static io.dra4j.allocator.TestObjects.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A CEL runtime error in a request selector is an error of the whole allocation upstream; the explanation suggests
 * the guard upstream's error text advises, written out on the user's expression and verified by allocating with it.
 */
class SelectorGuardSuggestionTest {
    private static final String SELECTOR = "device.attributes[\"gpu.example.com\"].model == \"h100\"";
    private static final String GUARDED = "has(device.attributes[\"gpu.example.com\"].model) && (" + SELECTOR + ")";

    private final Allocator allocator = Allocator.builder()
            .deviceClasses(List.of(gpuClass()))
            .resourceSlices(List.of(slice(
                    "node-1",
                    List.of(
                            device("gpu-0", Map.of("model", string("h100"))),
                            device("gpu-1", Map.of()),
                            device("gpu-2", Map.of("model", string("h100")))))))
            .build();

    @Test
    void anErrorReachedDuringTheSearchGetsTheGuardAndTheGuardedClaimIsAllocated() {
        ResourceClaim claim = claim("c", selecting(request("gpu", 2)));

        Explanation x = allocator.explain(node("node-1"), List.of(claim));

        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        assertThat(x.decisive()).contains("no such key: model");
        Explanation.Change.GuardSelector guard = onlyGuard(x);
        assertThat(guard).isEqualTo(new Explanation.Change.GuardSelector(0, "gpu", 0, GUARDED));
        assertThat(devices(allocator.allocateWith(guard, node("node-1"), List.of(claim))))
                .containsExactly("gpu-0", "gpu-2");
        assertThat(x.suggestions()).noneMatch(s -> s.change() instanceof Explanation.Change.DropSelector);
    }

    @Test
    void allocationModeAllFailsBeforeTheSearchAndStillGetsTheGuard() {
        DeviceRequest all = new DeviceRequestBuilder(selecting(request("gpu", 1)))
                .editExactly()
                .withAllocationMode("All")
                .withCount(null)
                .endExactly()
                .build();
        ResourceClaim claim = claim("c", all);

        Explanation x = allocator.explain(node("node-1"), List.of(claim));

        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        Explanation.Change.GuardSelector guard = onlyGuard(x);
        assertThat(guard.expression()).isEqualTo(GUARDED);
        assertThat(devices(allocator.allocateWith(guard, node("node-1"), List.of(claim))))
                .containsExactly("gpu-0", "gpu-2");
    }

    @Test
    void aFailingClassSelectorIsNotRewritten() {
        Allocator withFailingClass = Allocator.builder()
                .deviceClasses(List.of(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder(gpuClass())
                        .editSpec()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression(SELECTOR)
                        .endCel()
                        .endSelector()
                        .endSpec()
                        .build()))
                .resourceSlices(List.of(slice("node-1", List.of(device("gpu-1", Map.of())))))
                .build();

        Explanation x = withFailingClass.explain(node("node-1"), List.of(claim("c", request("gpu", 1))));

        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        assertThat(x.suggestions()).noneMatch(s -> s.change() instanceof Explanation.Change.GuardSelector);
    }

    @Test
    void aGuardThatLeavesTooFewDevicesIsStillTheFixForTheError() {
        // Three devices, one without the attribute: guarded, two match, and the claim asks for three.
        ResourceClaim claim = claim("c", selecting(request("gpu", 3)));

        Explanation x = allocator.explain(node("node-1"), List.of(claim));

        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        Explanation.Suggestion guard = x.suggestions().stream()
                .filter(s -> s.change() instanceof Explanation.Change.GuardSelector)
                .findFirst()
                .orElseThrow();
        assertThat(guard.change()).isEqualTo(new Explanation.Change.GuardSelector(0, "gpu", 0, GUARDED));
        assertThat(guard.fits()).isFalse();
        AllocationOutcome guarded = allocator.allocateWith(guard.change(), node("node-1"), List.of(claim));
        assertThat(guarded).isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(guard.remains()).isEqualTo(((AllocationOutcome.Unschedulable) guarded).reason());
        // Dropping the failing selector would also fit, by taking the device it was meant to exclude: not offered.
        Explanation.Change drop = new Explanation.Change.DropSelector(0, "gpu", 0);
        assertThat(allocator.allocateWith(drop, node("node-1"), List.of(claim)))
                .isInstanceOf(AllocationOutcome.Allocated.class);
        assertThat(x.suggestions()).noneMatch(s -> s.change().equals(drop));
        // Every other suggestion makes the claim fit.
        for (Explanation.Suggestion s : x.suggestions()) {
            if (s != guard) {
                assertThat(s.fits()).isTrue();
                assertThat(allocator.allocateWith(s.change(), node("node-1"), List.of(claim)))
                        .isInstanceOf(AllocationOutcome.Allocated.class);
            }
        }
    }

    private static DeviceRequest selecting(DeviceRequest request) {
        return new DeviceRequestBuilder(request)
                .editExactly()
                .addNewSelector()
                .withNewCel()
                .withExpression(SELECTOR)
                .endCel()
                .endSelector()
                .endExactly()
                .build();
    }

    private static Explanation.Change.GuardSelector onlyGuard(Explanation x) {
        List<Explanation.Change> guards = x.suggestions().stream()
                .map(Explanation.Suggestion::change)
                .filter(c -> c instanceof Explanation.Change.GuardSelector)
                .toList();
        assertThat(guards).hasSize(1);
        return (Explanation.Change.GuardSelector) guards.get(0);
    }

    private static List<String> devices(AllocationOutcome outcome) {
        assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
        return ((AllocationOutcome.Allocated) outcome)
                .results().get(0).getDevices().getResults().stream()
                        .map(DeviceRequestAllocationResult::getDevice)
                        .toList();
    }
}
