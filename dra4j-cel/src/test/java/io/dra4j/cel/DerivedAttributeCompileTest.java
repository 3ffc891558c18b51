package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A derived attribute's expression must evaluate to a primitive scalar (string, integer, boolean, semver, or the
 * unknown type), or a list of those where list-type attributes are enabled; selectors keep their bool. The details are
 * what kube-apiserver v1.37.2 (oracle/validate, -feature-gates DRADerivedAttributes=true with and without
 * DRAListTypeAttributes) reported for the same expressions.
 */
class DerivedAttributeCompileTest {
    private static final String SCALAR = "must evaluate to a primitive scalar (string, integer, boolean, semver), not ";
    private static final String OR_LIST =
            "must evaluate to a primitive scalar (string, integer, boolean, semver) or a list of these scalars, not ";

    private static final DeviceSelectorEnvironment SCALARS =
            DeviceSelectorEnvironment.create(new CelFeatures(true, false));
    private static final DeviceSelectorEnvironment LISTS =
            DeviceSelectorEnvironment.create(new CelFeatures(true, true));

    @Test
    void scalarsAndTheUnknownTypeCompile() {
        for (String expression : new String[] {
            "device.driver", "1", "true", "semver(\"1.2.3\")", "device.attributes[\"gpu.example.com\"].model"
        }) {
            assertThat(SCALARS.compileDerivedAttribute(expression).compileError())
                    .as(expression)
                    .isEmpty();
        }
    }

    @Test
    void otherResultTypesAreRefused() {
        assertThat(SCALARS.compileDerivedAttribute("1.5").compileError()).contains(SCALAR + "double");
        assertThat(SCALARS.compileDerivedAttribute("device.capacity[\"gpu.example.com\"].memory")
                        .compileError())
                .contains(SCALAR + "kubernetes.Quantity");
        assertThat(SCALARS.compileDerivedAttribute("{\"a\": 1}").compileError()).contains(SCALAR + "map(string, int)");
        assertThat(SCALARS.compileDerivedAttribute("[\"a\", \"b\"]").compileError())
                .contains(SCALAR + "list(string)");
        assertThat(LISTS.compileDerivedAttribute("1.5").compileError()).contains(OR_LIST + "double");
        assertThat(LISTS.compileDerivedAttribute("[1.5]").compileError()).contains(OR_LIST + "list(double)");
    }

    @Test
    void listsOfScalarsNeedListTypeAttributes() {
        assertThat(LISTS.compileDerivedAttribute("[\"a\", \"b\"]").compileError())
                .isEmpty();
        assertThat(LISTS.compile("[\"a\", \"b\"]").compileError())
                .contains("must evaluate to bool or the unknown type, not list(string)");
    }
}
