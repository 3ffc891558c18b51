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
 * The list-type matchAttribute skips and support bound ({@link PruningBounds#unsupported}) decide nothing: on random
 * list-attribute cases (device-specific and shared values, ints and scalars that never intersect strings, devices
 * without the attribute, one slice or two, constraints over all or some requests, a selector that fails on some
 * devices, a second claim) the search finds the same devices or the same error with and without them, and never
 * takes more steps with them.
 */
class ListAttributeBoundsProperties {
    private static final String DRIVER = "dra.example.com";
    private static final List<String> SHARED = List.of("a", "b", "c", "d");

    /** One device: bit i of mask adds SHARED[i]; kind picks strings, ints, a scalar string or no attribute. */
    record DeviceSpec(int mask, int kind, boolean unique, boolean extra) {}

    /** A case: devices (split into two slices at split), request counts, constrained requests, and options. */
    record Case(
            List<DeviceSpec> devices,
            int split,
            List<Integer> counts,
            int covered,
            int failingSelector,
            int secondClaim) {}

    private static Gen<DeviceSpec> device() {
        return integers()
                .between(0, 15)
                .zip(
                        integers().between(0, 9),
                        integers().between(0, 3),
                        (mask, kind, flags) -> new DeviceSpec(mask, kind, (flags & 1) != 0, (flags & 2) != 0));
    }

    private static Gen<Case> cases() {
        Gen<List<DeviceSpec>> devices = lists().of(device()).ofSizeBetween(1, 14);
        Gen<List<Integer>> counts = lists().of(integers().between(1, 3)).ofSizeBetween(1, 5);
        return devices.zip(
                        integers().between(0, 14),
                        counts,
                        integers().between(0, 31),
                        (d, split, c, covered) -> new Case(d, Math.min(split, d.size()), c, covered, 0, 0))
                .zip(
                        integers().between(0, 5),
                        integers().between(0, 3),
                        (c, failing, second) -> new Case(c.devices, c.split, c.counts, c.covered, failing, second));
    }

    @Test
    void theBoundsChangeNoDecision() {
        AtomicInteger pruned = new AtomicInteger();
        qt().withExamples(1500).withShrinkCycles(200).forAll(cases()).checkAssert(c -> {
            ClusterView view = ClusterView.build(
                    FeatureGates.of(DraFeature.DRAListTypeAttributes),
                    null,
                    List.of(BoundsRuns.deviceClass(DRIVER)),
                    slices(c),
                    List.of(),
                    AllocatedState.EMPTY,
                    List.of());
            Node node = new NodeBuilder()
                    .withNewMetadata()
                    .withName("node")
                    .endMetadata()
                    .build();
            List<ResourceClaim> claims = claims(c);
            BoundsRuns.Run with = BoundsRuns.run(view, node, claims, null);
            BoundsRuns.Run without = BoundsRuns.run(view, node, claims, Search::withoutListBounds);
            assertThat(with.outcome()).isEqualTo(without.outcome());
            assertThat(with.steps()).isLessThanOrEqualTo(without.steps());
            if (with.steps() < without.steps()) {
                pruned.incrementAndGet();
            }
        });
        // The cases must exercise the bounds, or the property says nothing.
        assertThat(pruned.get()).isGreaterThan(50);
    }

    private static List<ResourceSlice> slices(Case c) {
        List<Device> first = new ArrayList<>();
        List<Device> second = new ArrayList<>();
        for (int i = 0; i < c.devices.size(); i++) {
            (i < c.split ? first : second).add(device(i, c.devices.get(i)));
        }
        List<ResourceSlice> out = new ArrayList<>();
        if (!first.isEmpty()) {
            out.add(slice("pool-a", first));
        }
        if (!second.isEmpty()) {
            out.add(slice(c.split % 2 == 0 ? "pool-b" : "pool-a", second));
        }
        if (out.size() == 2 && out.get(1).getSpec().getPool().getName().equals("pool-a")) {
            // Two slices of one pool: the pool counts both.
            out.get(0).getSpec().getPool().setResourceSliceCount(2L);
            out.get(1).getSpec().getPool().setResourceSliceCount(2L);
        }
        return out;
    }

    private static ResourceSlice slice(String pool, List<Device> devices) {
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(pool + "-" + devices.get(0).getName())
                .endMetadata()
                .withNewSpec()
                .withDriver(DRIVER)
                .withNodeName("node")
                .withNewPool()
                .withName(pool)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(devices)
                .endSpec()
                .build();
    }

    private static Device device(int i, DeviceSpec spec) {
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        switch (spec.kind) {
            case 7 ->
                attributes.put(
                        "match",
                        new DeviceAttributeBuilder()
                                .withInts(List.of(1L, (long) i))
                                .build());
            case 8 ->
                attributes.put(
                        "match",
                        new DeviceAttributeBuilder()
                                .withString(SHARED.get(spec.mask % 4))
                                .build());
            case 9 -> {}
            default -> {
                List<String> values = new ArrayList<>();
                for (int b = 0; b < SHARED.size(); b++) {
                    if ((spec.mask & (1 << b)) != 0) {
                        values.add(SHARED.get(b));
                    }
                }
                if (spec.unique || values.isEmpty()) {
                    values.add("device-" + i);
                }
                attributes.put(
                        DRIVER + "/match",
                        new DeviceAttributeBuilder().withStrings(values).build());
            }
        }
        if (spec.extra) {
            attributes.put("extra", new DeviceAttributeBuilder().withString("x").build());
        }
        return new DeviceBuilder()
                .withName("device-" + i)
                .withAttributes(attributes)
                .build();
    }

    private static List<ResourceClaim> claims(Case c) {
        List<DeviceRequest> requests = new ArrayList<>();
        List<String> covered = new ArrayList<>();
        for (int r = 0; r < c.counts.size(); r++) {
            String name = "req-" + r;
            DeviceRequestBuilder b = new DeviceRequestBuilder().withName(name);
            var exactly = b.withNewExactly()
                    .withDeviceClassName("cls")
                    .withAllocationMode("ExactCount")
                    .withCount((long) c.counts.get(r));
            if (r == c.failingSelector) {
                // Fails with a runtime error on devices without the attribute.
                exactly.addNewSelector()
                        .withNewCel()
                        .withExpression("device.attributes[\"" + DRIVER + "\"].extra == \"x\"")
                        .endCel()
                        .endSelector();
            }
            requests.add(exactly.endExactly().build());
            if ((c.covered & (1 << r)) != 0) {
                covered.add(name);
            }
        }
        List<ResourceClaim> out = new ArrayList<>();
        out.add(claim(
                "claim-0",
                requests,
                List.of(new DeviceConstraintBuilder()
                        .withRequests(covered)
                        .withMatchAttribute(DRIVER + "/match")
                        .build())));
        if (c.secondClaim > 0) {
            DeviceRequest one = new DeviceRequestBuilder()
                    .withName("req")
                    .withNewExactly()
                    .withDeviceClassName("cls")
                    .withAllocationMode("ExactCount")
                    .withCount((long) c.secondClaim)
                    .endExactly()
                    .build();
            out.add(
                    c.secondClaim == 1
                            ? claim("claim-1", List.of(one), List.of())
                            : claim(
                                    "claim-1",
                                    List.of(one),
                                    List.of(new DeviceConstraintBuilder()
                                            .withMatchAttribute(DRIVER + "/match")
                                            .build())));
            if (c.secondClaim == 3) {
                out.add(0, out.remove(1));
            }
        }
        return out;
    }

    private static ResourceClaim claim(String name, List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(name)
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
