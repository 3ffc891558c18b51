package io.dra4j.testkit.gen;

import java.util.SplittableRandom;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Generates random, valid allocation scenarios in the scenario file format (docs/scenario-format.md), for differential
 * testing against the upstream allocator and for benchmarks.
 *
 * <p>Scenarios are small (one to three nodes' slices, at most {@value #MAX_DEVICES} devices, one to three claims) and
 * cover every feature the allocator supports: typed and list attributes, capacities, CEL selectors, both allocation
 * modes, constraints, firstAvailable, admin access, taints and tolerations, shared counters, consumable capacity,
 * binding conditions, every kind of node selection, incomplete, invalid and outdated pools, devices already in use
 * (all three shapes) and random subsets of the feature gates. Fields guarded by a gate mostly appear only when the
 * gate is on, but sometimes leak into scenarios with the gate off, because that is where implementations differ.
 * The distribution leans toward hard cases: nodes that are nearly full, constraints that force backtracking, and
 * claims that do not fit at all.
 *
 * <p>Generation is deterministic: the same seed and index always give the same scenario. Every request states its
 * {@code allocationMode} (and {@code count} for ExactCount), since no API defaulting happens. {@code expect} is an
 * {@code unschedulable} placeholder: the scenarios are meant to be compared between engines, not against an answer.
 */
public final class ScenarioGenerator {
    /** Upper bound on the devices of one scenario, counted over all slices. */
    public static final int MAX_DEVICES = 12;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(
                    YAMLWriteFeature.MINIMIZE_QUOTES,
                    YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS,
                    YAMLWriteFeature.LITERAL_BLOCK_STYLE)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .build();

    private ScenarioGenerator() {}

    /**
     * The scenario number {@code index} of the stream for {@code seed}, as a fresh JSON tree that the caller owns.
     * Its name is {@code gen-<seed>-<index>}.
     */
    public static ObjectNode generate(long seed, int index) {
        SplittableRandom random = new SplittableRandom(mix(seed, index));
        return new ScenarioBuilder(
                        new Dice(random),
                        "gen-" + seed + "-" + index,
                        "dra4j difftest generator, seed " + seed + ", index " + index)
                .build();
    }

    /** One scenario as a single JSON line (no line breaks), the stream format the oracle reads. */
    public static String toJsonLine(ObjectNode scenario) {
        return JSON.writeValueAsString(scenario);
    }

    /** One scenario as a YAML document, the format of scenario files. */
    public static String toYaml(ObjectNode scenario) {
        return YAML.writeValueAsString(scenario);
    }

    // Independent streams per index: SplittableRandom's own seed mixing is good, but seed + index alone would make
    // neighbouring seeds share scenarios.
    private static long mix(long seed, int index) {
        long z = seed * 0x9E3779B97F4A7C15L + index;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
