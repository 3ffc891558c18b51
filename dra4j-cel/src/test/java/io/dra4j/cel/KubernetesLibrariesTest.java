package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cel.common.CelOptions;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubernetesLibrariesTest {

    private static final CelOptions OPTIONS =
            CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

    @Test
    void librariesCarryUpstreamNames() {
        assertThat(KubernetesLibraries.all())
                .extracting(KubernetesCelLibrary::libraryName)
                .contains(
                        "kubernetes.quantity",
                        "kubernetes.Semver",
                        "kubernetes.lists",
                        "kubernetes.regex",
                        "kubernetes.urls",
                        "kubernetes.net.ip",
                        "kubernetes.net.cidr",
                        "kubernetes.format");
        assertThat(KubernetesLibraries.opaqueTypes())
                .extracting(t -> t.name())
                .containsExactly(
                        "kubernetes.Quantity",
                        "kubernetes.Semver",
                        "net.IP",
                        "net.CIDR",
                        "kubernetes.URL",
                        "kubernetes.NamedFormat");
    }

    @Test
    void evaluatesADraStyleSelectorOverDeviceValues() throws Exception {
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(OPTIONS)
                .addVar("device", MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addLibraries(KubernetesLibraries.all())
                .build();
        CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(OPTIONS)
                .addLibraries(KubernetesLibraries.all())
                .build();
        String selector = "device.attributes['dra.example.com'].driverVersion.major() >= 1 && "
                + "device.capacity['dra.example.com'].memory.isGreaterThan(quantity('1Mi'))";
        var program = runtime.createProgram(compiler.compile(selector).getAst());
        Map<String, Object> device = Map.of(
                "attributes", Map.of("dra.example.com", Map.of("driverVersion", Semver.parse("1.2.3"))),
                "capacity", Map.of("dra.example.com", Map.of("memory", KubeQuantity.parse("1Gi"))));
        assertThat(program.eval(Map.of("device", device))).isEqualTo(true);
        Map<String, Object> small = Map.of(
                "attributes", Map.of("dra.example.com", Map.of("driverVersion", Semver.parse("1.2.3"))),
                "capacity", Map.of("dra.example.com", Map.of("memory", KubeQuantity.parse("512Ki"))));
        assertThat(program.eval(Map.of("device", small))).isEqualTo(false);
    }

    @Test
    void listFunctionsOnDynValuesNeedTheDynamicResolution() throws Exception {
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(OPTIONS)
                .addVar("device", MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addLibraries(KubernetesLibraries.all())
                .build();
        CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(OPTIONS)
                .addLibraries(KubernetesLibraries.all())
                .build();
        var ast = compiler.compile("device.attributes['dra.example.com'].sizes.max() == 8")
                .getAst();
        Map<String, Object> vars =
                Map.of("device", Map.of("attributes", Map.of("dra.example.com", Map.of("sizes", List.of(2L, 8L, 4L)))));
        assertThatThrownBy(() -> runtime.createProgram(ast).eval(vars)).hasMessageContaining("Ambiguous overloads");
        var resolved = KubernetesLibraries.resolveDynamicOverloads(ast);
        assertThat(runtime.createProgram(resolved).eval(vars)).isEqualTo(true);
    }

    @Test
    void libraryErrorsSurfaceWithUpstreamText() throws Exception {
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(OPTIONS)
                .addLibraries(KubernetesLibraries.all())
                .build();
        CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(OPTIONS)
                .addLibraries(KubernetesLibraries.all())
                .build();
        var program = runtime.createProgram(
                compiler.compile("semver('1.2') == semver('1.2.0')").getAst());
        assertThatThrownBy(() -> program.eval(Map.of()))
                .isInstanceOf(CelEvaluationException.class)
                .hasMessage("No Major.Minor.Patch elements found");
    }

    @Test
    void celJavaStringExtensionMustNotBeAddedAsWell() {
        // Documented constraint: the cel-go string extension here declares the same overloads.
        CelCompiler both = CelCompilerFactory.standardCelCompilerBuilder()
                .addLibraries(CelExtensions.strings())
                .addLibraries(KubernetesLibraries.all())
                .build();
        assertThatThrownBy(() -> both.compile("'abc'.trim()").getAst()).hasMessageContaining("overlapping overload");
    }

    @Test
    void runtimeCostFollowsUpstreamRules() {
        // quantity(s): ceil(len(s) * 0.1); "1.5Gi" has 5 characters.
        assertThat(KubernetesLibraries.runtimeCost("string_to_quantity", List.of("1.5Gi")))
                .isEqualTo(1);
        assertThat(KubernetesLibraries.runtimeCost(
                        "quantity_is_greater_than", List.of(KubeQuantity.parse("1"), KubeQuantity.parse("2"))))
                .isEqualTo(1);
        // The dynamic list binding is priced like the typed overloads: one traversal.
        assertThat(KubernetesLibraries.runtimeCost("list_dyn_sum", List.of(List.of("a".repeat(20)))))
                .isEqualTo(2);
        assertThat(KubernetesLibraries.runtimeCost("string_to_string", List.of("x")))
                .isEqualTo(KubernetesLibraries.NO_COST_RULE);
    }
}
