package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.KubernetesLibraries;
import io.dra4j.cel.Semver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Optional;

/**
 * A small cel-java compiler and runtime with the Kubernetes libraries plus the cel-java extensions that stand in
 * for the rest of upstream's base environment, and a printer that renders results like the Go fact generator.
 */
final class CelTestEnv {

    static final CelOptions OPTIONS =
            CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(
                    CelExtensions.sets(OPTIONS),
                    CelExtensions.optional(),
                    CelExtensions.bindings(),
                    CelExtensions.lists(),
                    CelExtensions.comprehensions())
            .addLibraries(KubernetesLibraries.all())
            .build();

    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(OPTIONS)
            .addLibraries(
                    CelExtensions.sets(OPTIONS),
                    CelExtensions.optional(),
                    CelExtensions.lists(),
                    CelExtensions.comprehensions())
            .addLibraries(KubernetesLibraries.all())
            .build();

    private static final CelValidator VALIDATOR = CelValidatorFactory.standardCelValidatorBuilder(COMPILER, RUNTIME)
            .addAstValidators(KubernetesLibraries.astValidators())
            .build();

    private CelTestEnv() {}

    /** Outcome of compiling and evaluating one expression. */
    record Outcome(String kind, String text) {}

    static CelAbstractSyntaxTree compile(String expr) throws CelValidationException {
        return KubernetesLibraries.resolveDynamicOverloads(
                VALIDATOR.validate(COMPILER.compile(expr).getAst()).getAst());
    }

    static Object eval(String expr) throws CelValidationException, CelEvaluationException {
        return RUNTIME.createProgram(compile(expr)).eval(Map.of());
    }

    static Outcome run(String expr) {
        CelAbstractSyntaxTree ast;
        try {
            ast = compile(expr);
        } catch (CelValidationException e) {
            return new Outcome("COMPILE", e.getMessage());
        }
        try {
            return new Outcome("OK", show(RUNTIME.createProgram(ast).eval(Map.of())));
        } catch (CelEvaluationException e) {
            return new Outcome("ERR", e.getMessage());
        }
    }

    /** Renders a value as the Go generator does. */
    static String show(Object v) {
        if (v instanceof String s) {
            return "string:" + s;
        }
        if (v instanceof Long l) {
            return "int:" + l;
        }
        if (v instanceof UnsignedLong u) {
            return "uint:" + u;
        }
        if (v instanceof Double d) {
            // Go's NaN has a different payload bit than Java's; any NaN prints as Go's.
            return "double:" + (d.isNaN() ? "7ff8000000000001" : Long.toHexString(Double.doubleToRawLongBits(d)));
        }
        if (v instanceof Boolean b) {
            return "bool:" + b;
        }
        if (v instanceof java.time.Duration d) {
            return "duration:" + d.toNanos();
        }
        if (v instanceof java.time.Instant t) {
            return "timestamp:" + (t.getEpochSecond() * 1_000_000_000L + t.getNano());
        }
        if (v instanceof dev.cel.common.values.CelByteString b) {
            StringBuilder hex = new StringBuilder("bytes:");
            for (byte x : b.toByteArray()) {
                hex.append(String.format("%02x", x & 0xff));
            }
            return hex.toString();
        }
        if (v instanceof KubeQuantity q) {
            return "quantity:" + q.canonical();
        }
        if (v instanceof Semver s) {
            return "semver:" + s;
        }
        if (v instanceof IpAddress ip) {
            return "ip:" + ip;
        }
        if (v instanceof GoUrl u) {
            return "url:" + u;
        }
        if (v instanceof IpPrefix p) {
            return "cidr:" + p;
        }
        if (v instanceof Optional<?> o) {
            return o.isEmpty() ? "optional.none" : "optional:" + show(o.get());
        }
        if (v instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object o : list) {
                parts.add(show(o));
            }
            return "[" + String.join(", ", parts) + "]";
        }
        if (v instanceof Map<?, ?> map) {
            List<String> parts = new ArrayList<>();
            for (Entry<?, ?> e : map.entrySet()) {
                parts.add(show(e.getKey()) + ": " + show(e.getValue()));
            }
            Collections.sort(parts);
            return "{" + String.join(", ", parts) + "}";
        }
        return v.getClass().getSimpleName() + ":" + v;
    }
}
