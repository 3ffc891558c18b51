package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link FastSelector} against cel-java's interpreter in the DRA environment: on random devices (attributes of every
 * type under short and qualified names of several domains, list forms, invalid versions, capacities) and random
 * conjunctions of the supported shapes, a fast decision, when there is one, equals the interpreter's boolean, and
 * there is none whenever the interpreter fails; every generated expression has a fast form.
 */
class FastSelectorProperties {
    private static final List<String> DRIVERS = List.of("gpu.example.com", "nic.example.com");
    /** Weighted towards the first driver, whose short names the devices carry most often. */
    private static final List<String> DOMAINS =
            List.of("gpu.example.com", "gpu.example.com", "gpu.example.com", "nic.example.com", "other.example.com");

    private static final List<String> NAMES = List.of("model", "numa", "flag", "driverVersion");
    private static final List<String> OPS = List.of("==", "!=", "<", "<=", ">", ">=");

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, false));

    /** A device with its driver. */
    record Case(String driver, Device device, String expression) {}

    private static Gen<DeviceAttribute> attribute() {
        return Generate.pick(List.of(0, 1, 2, 3, 4, 5, 6)).zip(integers().between(0, 3), (kind, v) -> switch (kind) {
            case 0 ->
                new DeviceAttributeBuilder()
                        .withString(List.of("A100", "H100", "x", "").get(v))
                        .build();
            case 1 ->
                new DeviceAttributeBuilder()
                        .withInt((long) List.of(0, 1, 2, 990).get(v))
                        .build();
            case 2 -> new DeviceAttributeBuilder().withBool(v % 2 == 0).build();
            case 3 ->
                new DeviceAttributeBuilder()
                        .withVersion(
                                List.of("1.2.3", "2.0.0", "0.9.1-rc.1", "v1").get(v))
                        .build();
            case 4 ->
                new DeviceAttributeBuilder()
                        .withStrings(List.of("A100", "H100").subList(0, 1 + v % 2))
                        .build();
            case 5 -> new DeviceAttributeBuilder().withInts(List.of(1L, 2L)).build();
            default ->
                new DeviceAttributeBuilder().withVersions(List.of("1.2.3")).build();
        });
    }

    private static Gen<String> attributeName() {
        return Generate.pick(NAMES)
                .zip(
                        Generate.pick(
                                List.of("", "", "", "gpu.example.com/", "nic.example.com/", "other.example.com/")),
                        (n, prefix) -> prefix + n);
    }

    private static Gen<Map<String, DeviceAttribute>> attributes() {
        return lists().of(attributeName().zip(attribute(), Map::entry))
                .ofSizeBetween(0, 8)
                .map(entries -> {
                    Map<String, DeviceAttribute> m = new LinkedHashMap<>();
                    entries.forEach(e -> m.put(e.getKey(), e.getValue()));
                    return m;
                });
    }

    private static Gen<Map<String, DeviceCapacity>> capacities() {
        Gen<Map.Entry<String, DeviceCapacity>> one = Generate.pick(
                        List.of("memory", "gpu.example.com/memory", "other.example.com/memory", "cores"))
                .zip(
                        Generate.pick(List.of("1Gi", "40Gi", "512Mi", "1Mi", "80G", "0")),
                        (n, q) -> Map.entry(
                                n,
                                new DeviceCapacityBuilder()
                                        .withValue(new Quantity(q))
                                        .build()));
        return lists().of(one).ofSizeBetween(0, 3).map(entries -> {
            Map<String, DeviceCapacity> m = new LinkedHashMap<>();
            entries.forEach(e -> m.put(e.getKey(), e.getValue()));
            return m;
        });
    }

    private static Gen<String> literal() {
        return Generate.pick(List.of("\"A100\"", "'H100'", "\"\"", "0", "1", "2", "990", "true", "false"));
    }

    private static Gen<String> term() {
        Gen<String> domain = Generate.pick(DOMAINS);
        Gen<String> name = Generate.pick(NAMES);
        Gen<String> driverEq = Generate.pick(DRIVERS)
                .zip(
                        Generate.booleans(),
                        (d, flip) -> flip ? "\"" + d + "\" == device.driver" : "device.driver == \"" + d + "\"");
        Gen<String> attrEq = domain.zip(
                name,
                Generate.pick(List.of("==", "!=")),
                literal(),
                (d, n, op, lit) -> "device.attributes[\"" + d + "\"]." + n + " " + op + " " + lit);
        Gen<String> version = domain.zip(
                name,
                Generate.pick(List.of("major", "minor", "patch")),
                Generate.pick(OPS),
                (d, n, part, op) -> "device.attributes[\"" + d + "\"]." + n + "." + part + "() " + op + " 1");
        Gen<String> quantity = Generate.pick(List.of("1Gi", "40Gi", "1Mi", "80G", "0"));
        Gen<String> capacity = domain.zip(
                Generate.pick(List.of("memory", "cores")),
                quantity,
                Generate.pick(List.of("compareTo>=", "compareTo==", "compareTo<", "isGreaterThan", "isLessThan")),
                (d, n, q, form) -> {
                    String base = "device.capacity[\"" + d + "\"]." + n + ".";
                    return form.startsWith("compareTo")
                            ? base + "compareTo(quantity(\"" + q + "\")) " + form.substring("compareTo".length())
                                    + (form.endsWith("<") ? " 1" : " 0")
                            : base + form + "(quantity(\"" + q + "\"))";
                });
        return Generate.frequency(List.of(
                org.quicktheories.api.Pair.of(1, driverEq), org.quicktheories.api.Pair.of(3, attrEq),
                org.quicktheories.api.Pair.of(2, version), org.quicktheories.api.Pair.of(3, capacity)));
    }

    private static Gen<Case> cases() {
        Gen<String> expression = lists().of(term()).ofSizeBetween(1, 2).map(ts -> String.join(" && ", ts));
        Gen<Device> device = attributes()
                .zip(
                        capacities(),
                        (a, c) -> new DeviceBuilder()
                                .withName("dev")
                                .withAttributes(a)
                                .withCapacity(c)
                                .build());
        return Generate.pick(List.of(DRIVERS.get(0), DRIVERS.get(0), DRIVERS.get(1)))
                .zip(device, expression, Case::new);
    }

    @Test
    void aFastDecisionIsTheInterpretersAnswerAndFailuresAreLeftToTheInterpreter() {
        AtomicInteger decided = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        qt().withExamples(1000).forAll(cases()).checkAssert(c -> {
            FastSelector fast = FastSelector.parse(c.expression());
            assertThat(fast).as("fast form of %s", c.expression()).isNotNull();
            ResourceSlice slice = new ResourceSliceBuilder()
                    .withNewMetadata()
                    .withName("s")
                    .endMetadata()
                    .withNewSpec()
                    .withDriver(c.driver())
                    .withNodeName("n")
                    .withNewPool()
                    .withName("p")
                    .withGeneration(1L)
                    .withResourceSliceCount(1L)
                    .endPool()
                    .withDevices(c.device())
                    .endSpec()
                    .build();
            DeviceInfo d = new SliceInfo(slice, TaintRules.NONE).devices().get(0);
            var compiled = env.compile(c.expression());
            assertThat(compiled.compileError())
                    .as("compiles: %s", c.expression())
                    .isEmpty();
            EvalResult interpreted = compiled.evaluate(env.device(c.driver(), c.device()));
            Boolean mine = d.celViewBuildable() ? fast.decide(d) : null;
            if (interpreted instanceof EvalResult.Failed) {
                failed.incrementAndGet();
                assertThat(mine)
                        .as("%s on %s: interpreter failed with %s", c.expression(), c.device(), interpreted)
                        .isNull();
            } else if (mine != null) {
                decided.incrementAndGet();
                assertThat(new EvalResult.Matched(mine))
                        .as("%s on %s", c.expression(), c.device())
                        .isEqualTo(interpreted);
            }
        });
        // Coverage floors, far below what a random seed yields (over 60 seeds: 98-136 fast decisions, 706-778
        // interpreter failures in 1,000 cases), so that they catch a generator that stopped reaching a path.
        assertThat(decided.get()).as("fast decisions").isGreaterThan(40);
        assertThat(failed.get()).as("interpreter failures").isGreaterThan(400);
    }

    @Test
    void otherShapesHaveNoFastForm() {
        for (String e : List.of(
                "device.attributes[\"a\"].model == \"x\" || device.driver == \"d\"",
                "device.attributes[\"a\"][\"model\"] == \"x\"",
                "device.attributes[\"a/b\"].model == \"x\"",
                "device.attributes[\"a\"].model == \"x\\\"y\"",
                "device.attributes[\"a\"].model == -1",
                "device.attributes[\"a\"].model == 1u",
                "device.attributes[\"a\"].model == 1.0",
                "device.attributes[\"a\"].in == 1",
                "(device.driver == \"d\")",
                "device.capacity[\"a\"].memory.compareTo(quantity(\"1Gi\")) >= 0 == true",
                "device.capacity[\"a\"].memory.compareTo(quantity(\"bogus\")) >= 0",
                "device.attributes[\"a\"].model.startsWith(\"x\")",
                "device.driver == r\"d\"")) {
            assertThat(FastSelector.parse(e)).as(e).isNull();
        }
        assertThat(FastSelector.parse("device.driver == \"d\" && device.capacity[\"d\"].memory"
                        + ".compareTo(quantity(\"40Gi\")) >= 0 && device.attributes[\"d\"].driverVersion.major() >= 1"))
                .isNotNull();
    }
}
