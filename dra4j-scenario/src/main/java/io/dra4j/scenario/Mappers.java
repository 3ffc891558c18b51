package io.dra4j.scenario;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/** The Jackson mappers the module shares; Jackson mappers are thread-safe once built. */
final class Mappers {
    /**
     * Decodes trees (read by {@link YamlDocuments}) into model objects as sigs.k8s.io/yaml's typed decoding does: no
     * fraction into an integer field, no string into a number or boolean field, but a number or boolean into a string
     * field becomes its text ({@code string: Y} is "true", as for the Go oracle and client-go). Duplicate keys are
     * errors when it reads text itself.
     */
    static final YAMLMapper READER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    /**
     * Decodes manifests' trees as kube-apiserver decodes what kubectl sends: kubectl converts YAML to JSON without
     * the target types (so {@code name: 5} and {@code string: Y} arrive as a number and a boolean), and the API
     * server's JSON decoder refuses a number or boolean for a string field. Otherwise as {@link #READER}.
     */
    static final YAMLMapper API_READER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(
                    LogicalType.Textual,
                    c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    /** Writes outcomes as YAML without needless quotes (but strings that look like numbers, e.g. quantities, stay strings). */
    static final YAMLMapper WRITER = YAMLMapper.builder()
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .build();

    private Mappers() {}
}
