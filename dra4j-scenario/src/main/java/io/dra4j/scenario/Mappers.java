package io.dra4j.scenario;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/** The Jackson mappers the module shares; Jackson mappers are thread-safe once built. */
final class Mappers {
    /** Reads scenario files; duplicate keys are errors, as in Kubernetes' strict decoding. */
    static final YAMLMapper READER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Reads JSON manifests (one object, or several one after another), strictly as {@link #READER}. */
    static final JsonMapper JSON_READER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Writes outcomes as YAML without needless quotes (but strings that look like numbers, e.g. quantities, stay strings). */
    static final YAMLMapper WRITER = YAMLMapper.builder()
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .build();

    private Mappers() {
    }
}
