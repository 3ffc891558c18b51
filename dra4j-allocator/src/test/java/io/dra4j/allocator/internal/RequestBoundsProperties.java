package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The pigeonhole and distinct-values bounds over the remaining requests ({@link PruningBounds#cannotFitRemainingRequests},
 * {@link PruningBounds#cannotMeetDistinctValues}) decide nothing, also where the 32-results limit is near: on random
 * claims whose requests are exact counts or firstAvailable alternatives with counts up to past 32 (so that some
 * alternatives exceed the limit and others do not), a distinctAttribute constraint or none, and a selector that fails
 * with a runtime error on some devices, the search finds the same devices or the same error with and without the
 * bounds, and never takes more steps with them (a bound that answered "not found" where upstream signals "max size
 * exceeded" would let earlier device loops go on, which takes more steps even where the outcome stays the same). The
 * devices come in at most three blocks of identical devices, so that the search without the bounds (where only its
 * twin skip keeps it small) finishes.
 */
class RequestBoundsProperties {
    private static final String DRIVER = "dra.example.com";
    /**
     * Device counts a request or subrequest may ask for: small ones (listed twice, so drawn more often), and ones that
     * reach the 32-results limit alone or together.
     */
    private static final List<Integer> COUNTS = List.of(1, 2, 3, 4, 1, 2, 3, 4, 5, 12, 13, 16, 20, 30, 31, 32, 33);

    /** Identical devices: their numa value (3: none), whether they have the attribute the failing selector reads. */
    record Block(int numa, boolean extra, int size) {}

    /** One request: indexes into COUNTS, one for an exact count, two or three for firstAvailable alternatives. */
    record RequestSpec(List<Integer> counts) {}

    /**
     * A case: device blocks, requests, the request whose first alternative has the failing selector (none when past
     * the last), whether a distinctAttribute constraint covers the claim, and the allocator variant (0: stable, 1:
     * incubating, 2: experimental, where DRAListTypeAttributes gives distinctAttribute set semantics).
     */
    record Case(List<Block> blocks, List<RequestSpec> requests, int failingSelector, boolean distinct, int variant) {
        FeatureGates gates() {
            return switch (variant) {
                case 0 -> FeatureGates.of(DraFeature.DRAPrioritizedList);
                case 1 -> FeatureGates.of(DraFeature.DRAPrioritizedList, DraFeature.DRAConsumableCapacity);
                default -> FeatureGates.of(DraFeature.DRAPrioritizedList, DraFeature.DRAListTypeAttributes);
            };
        }
    }

    private static Gen<Case> cases() {
        Gen<Block> block = integers()
                .between(0, 3)
                .zip(
                        integers().between(0, 2),
                        integers().between(1, 22),
                        (numa, extra, size) -> new Block(numa, extra != 0, size));
        Gen<RequestSpec> request = lists().of(integers().between(0, COUNTS.size() - 1))
                .ofSizeBetween(1, 3)
                .map(RequestSpec::new);
        // The stable variant starts every device loop at the first candidate, so with devices of two kinds its
        // search without the bounds tries both kinds at every slot; one block keeps it linear.
        return lists().of(block)
                .ofSizeBetween(1, 3)
                .zip(
                        lists().of(request).ofSizeBetween(1, 4),
                        integers().between(0, 5),
                        integers().between(0, 5),
                        (blocks, requests, failing, options) -> new Case(
                                options / 2 == 0 ? blocks.subList(0, 1) : blocks,
                                requests,
                                failing,
                                options % 2 == 1,
                                options / 2));
    }

    @Test
    void theBoundsChangeNoDecisionNearTheResultsLimit() {
        AtomicInteger pruned = new AtomicInteger();
        AtomicInteger nearLimit = new AtomicInteger();
        qt().withExamples(1500).withShrinkCycles(200).forAll(cases()).checkAssert(c -> {
            ClusterView view = ClusterView.build(
                    c.gates(),
                    null,
                    List.of(BoundsRuns.deviceClass(DRIVER)),
                    List.of(slice(c)),
                    List.of(),
                    AllocatedState.EMPTY,
                    List.of());
            Node node = new NodeBuilder()
                    .withNewMetadata()
                    .withName("node")
                    .endMetadata()
                    .build();
            List<ResourceClaim> claims = List.of(claim(c));
            ResourceClaim before = claim(c);
            BoundsRuns.Run with = BoundsRuns.run(view, node, claims, null);
            BoundsRuns.Run without = BoundsRuns.run(view, node, claims, Search::withoutRequestBounds);
            assertThat(with.outcome()).isEqualTo(without.outcome());
            assertThat(with.steps()).isLessThanOrEqualTo(without.steps());
            assertThat(claims.get(0)).isEqualTo(before);
            if (with.steps() < without.steps()) {
                pruned.incrementAndGet();
            }
            if (mostResults(c) > Search.MAX_RESULTS && fewestResults(c) <= Search.MAX_RESULTS) {
                nearLimit.incrementAndGet();
            }
        });
        // The cases must exercise the bounds and the limit, or the property says nothing.
        assertThat(pruned.get()).isGreaterThan(50);
        assertThat(nearLimit.get()).isGreaterThan(200);
    }

    /** The most results the claim may need: each request with its largest alternative. */
    private static int mostResults(Case c) {
        return c.requests.stream()
                .mapToInt(r -> r.counts.stream().mapToInt(COUNTS::get).max().orElseThrow())
                .sum();
    }

    /** The fewest results the claim may need: each request with its smallest alternative. */
    private static int fewestResults(Case c) {
        return c.requests.stream()
                .mapToInt(r -> r.counts.stream().mapToInt(COUNTS::get).min().orElseThrow())
                .sum();
    }

    private static ResourceSlice slice(Case c) {
        List<Device> devices = new ArrayList<>();
        for (Block block : c.blocks) {
            for (int i = 0; i < block.size; i++) {
                Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
                if (block.numa < 3) {
                    attributes.put(
                            "numa",
                            new DeviceAttributeBuilder()
                                    .withInt((long) block.numa)
                                    .build());
                }
                if (block.extra) {
                    attributes.put(
                            "extra",
                            new DeviceAttributeBuilder().withString("x").build());
                }
                devices.add(new DeviceBuilder()
                        .withName("device-" + devices.size())
                        .withAttributes(attributes)
                        .build());
            }
        }
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName("slice")
                .endMetadata()
                .withNewSpec()
                .withDriver(DRIVER)
                .withNodeName("node")
                .withNewPool()
                .withName("pool")
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(devices)
                .endSpec()
                .build();
    }

    private static ResourceClaim claim(Case c) {
        List<DeviceRequest> requests = new ArrayList<>();
        for (int r = 0; r < c.requests.size(); r++) {
            List<Integer> counts = c.requests.get(r).counts;
            // Fails with a runtime error on devices without the attribute.
            List<DeviceSelector> failing = r == c.failingSelector
                    ? List.of(new DeviceSelectorBuilder()
                            .withNewCel()
                            .withExpression("device.attributes[\"" + DRIVER + "\"].extra == \"x\"")
                            .endCel()
                            .build())
                    : List.of();
            DeviceRequestBuilder b = new DeviceRequestBuilder().withName("req-" + r);
            if (counts.size() == 1) {
                b.withNewExactly()
                        .withDeviceClassName("cls")
                        .withAllocationMode("ExactCount")
                        .withCount((long) COUNTS.get(counts.get(0)))
                        .withSelectors(failing)
                        .endExactly();
            } else {
                for (int s = 0; s < counts.size(); s++) {
                    b.addToFirstAvailable(new DeviceSubRequestBuilder()
                            .withName("sub-" + s)
                            .withDeviceClassName("cls")
                            .withAllocationMode("ExactCount")
                            .withCount((long) COUNTS.get(counts.get(s)))
                            .withSelectors(s == 0 ? failing : List.of())
                            .build());
                }
            }
            requests.add(b.build());
        }
        List<DeviceConstraint> constraints = c.distinct
                ? List.of(new DeviceConstraintBuilder()
                        .withDistinctAttribute(DRIVER + "/numa")
                        .build())
                : List.of();
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withName("claim")
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .withRequests(requests)
                .withConstraints(constraints)
                .endDevices()
                .endSpec()
                .build();
    }
}
