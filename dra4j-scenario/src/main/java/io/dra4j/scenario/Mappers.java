package io.dra4j.scenario;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.module.SimpleModule;
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
            .addModule(new GoStructs())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    /**
     * Decodes manifests' trees as kube-apiserver decodes what kubectl sends: kubectl converts YAML to JSON without
     * the target types (so {@code name: 5} and {@code string: Y} arrive as a number and a boolean), and the API
     * server's JSON decoder refuses a number or boolean for a string field. Otherwise as {@link #READER}.
     */
    static final YAMLMapper API_READER = READER.rebuild()
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

    /**
     * A Go struct decodes only from a JSON object (or null), while Jackson would build a fabric8 model class with one
     * field from a scalar through its one-argument constructor ({@code cel: "x"} as a CELDeviceSelector): the model
     * classes' instantiators create from no scalar, so Jackson reports the mismatch (GoDecodeErrors words it).
     */
    private static final class GoStructs extends SimpleModule {
        private static final long serialVersionUID = 1L;

        GoStructs() {
            super("go-structs");
        }

        @Override
        public void setupModule(SetupContext context) {
            super.setupModule(context);
            context.addValueInstantiators(new ValueInstantiators.Base() {
                @Override
                public ValueInstantiator modifyValueInstantiator(
                        DeserializationConfig config, BeanDescription.Supplier bean, ValueInstantiator instantiator) {
                    return instantiator.getValueClass().getName().startsWith("io.fabric8.kubernetes.api.model.")
                            ? new FromObjectsOnly(instantiator)
                            : instantiator;
                }
            });
        }
    }

    private static final class FromObjectsOnly extends ValueInstantiator.Delegating {
        private static final long serialVersionUID = 1L;

        FromObjectsOnly(ValueInstantiator delegate) {
            super(delegate);
        }

        @Override
        public ValueInstantiator createContextual(DeserializationContext context, BeanDescription.Supplier bean) {
            ValueInstantiator contextual = delegate().createContextual(context, bean);
            return contextual == delegate() ? this : new FromObjectsOnly(contextual);
        }

        @Override
        public boolean canCreateFromString() {
            return false;
        }

        @Override
        public boolean canCreateFromInt() {
            return false;
        }

        @Override
        public boolean canCreateFromLong() {
            return false;
        }

        @Override
        public boolean canCreateFromDouble() {
            return false;
        }

        @Override
        public boolean canCreateFromBoolean() {
            return false;
        }
    }
}
