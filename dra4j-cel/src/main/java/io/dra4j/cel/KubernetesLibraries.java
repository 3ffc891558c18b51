package io.dra4j.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.CelType;
import dev.cel.validator.CelAstValidator;
import io.dra4j.cel.internal.CidrLibrary;
import io.dra4j.cel.internal.FormatCallValidator;
import io.dra4j.cel.internal.FormatLibrary;
import io.dra4j.cel.internal.IpLibrary;
import io.dra4j.cel.internal.KubeTypes;
import io.dra4j.cel.internal.LibraryCosts;
import io.dra4j.cel.internal.ListsLibrary;
import io.dra4j.cel.internal.QuantityLibrary;
import io.dra4j.cel.internal.RegexLibrary;
import io.dra4j.cel.internal.SemverLibrary;
import io.dra4j.cel.internal.StringFormatLibrary;
import io.dra4j.cel.internal.StringsLibrary;
import io.dra4j.cel.internal.UrlsLibrary;
import java.util.List;

/**
 * The Kubernetes CEL libraries of the DRA device-selector environment (Kubernetes 1.37 base environment,
 * k8s.io/apiserver v0.37.2 pkg/cel/library), ready to add to a cel-java compiler and runtime.
 *
 * <p>Use: add every library of {@link #all()} to both the {@code CelCompilerBuilder} and the
 * {@code CelRuntimeBuilder}; pass each checked AST through {@link #resolveDynamicOverloads} before building the
 * program; run {@link #astValidators()} with a cel-java {@code CelValidator} to get upstream's compile-time checks;
 * use {@link #runtimeCost} for cost tracking.
 *
 * <p>The list includes cel-go's string extension at version 2 (the upstream semantics and error texts, plus
 * {@code format}); do <em>not</em> also add cel-java's {@code CelExtensions.strings()}: it declares the same
 * overloads and every compilation then fails with "overlapping overload". The other upstream extensions (sets,
 * optional values, lists version 2+, two-variable comprehensions, {@code cel.bind}) come from cel-java's
 * {@code CelExtensions}.
 * Runtime values: {@code kubernetes.Quantity} is {@link KubeQuantity}, {@code kubernetes.Semver} is
 * {@link Semver}; {@code net.IP}, {@code net.CIDR}, {@code kubernetes.URL} and {@code kubernetes.NamedFormat} are
 * produced only by the libraries themselves. Library errors surface as {@code CelEvaluationException}s whose
 * message is upstream's error text.
 */
public final class KubernetesLibraries {

    /** {@code kubernetes.Quantity}. */
    public static final CelType QUANTITY_TYPE = KubeTypes.QUANTITY;
    /** {@code kubernetes.Semver}. */
    public static final CelType SEMVER_TYPE = KubeTypes.SEMVER;
    /** {@code net.IP}. */
    public static final CelType IP_TYPE = KubeTypes.IP;
    /** {@code net.CIDR}. */
    public static final CelType CIDR_TYPE = KubeTypes.CIDR;
    /** {@code kubernetes.URL}. */
    public static final CelType URL_TYPE = KubeTypes.URL;
    /** {@code kubernetes.NamedFormat}. */
    public static final CelType NAMED_FORMAT_TYPE = KubeTypes.NAMED_FORMAT;

    private static final List<KubernetesCelLibrary> ALL = List.of(
            new QuantityLibrary(),
            new SemverLibrary(),
            new ListsLibrary(),
            new RegexLibrary(),
            new IpLibrary(),
            new CidrLibrary(),
            new UrlsLibrary(),
            new FormatLibrary(),
            new StringsLibrary(),
            new StringFormatLibrary());

    private static final LibraryCosts COSTS = new LibraryCosts(ALL);

    /** Returned by {@link #runtimeCost} when upstream has no specific rule (cel-go then charges 1 per call). */
    public static final long NO_COST_RULE = LibraryCosts.NO_RULE;

    private KubernetesLibraries() {}

    /**
     * The runtime cost upstream's library cost estimator ({@code CallCost} in apiserver pkg/cel/library/cost.go)
     * charges for one call, for runtime cost tracking against the per-expression limit. The rules depend on the
     * function and on argument sizes (string length, list size); see {@link LibraryCosts}. Covers the functions of
     * these libraries (including the runtime-only {@code list_dyn_*} bindings), the string extension functions
     * upstream prices ({@code lowerAscii}, {@code upperAscii},
     * {@code substring}, {@code trim}, {@code replace}, {@code split}, {@code join}, string {@code indexOf} and
     * {@code lastIndexOf}) and {@code ==} on the Kubernetes types (overload id {@code equals}).
     *
     * @param overloadId the cel-java overload id of the call
     * @param args the evaluated arguments, receiver first
     * @return the cost, or {@link #NO_COST_RULE} when upstream has no rule (including {@code join}, which is
     *     priced by its result: use {@link #runtimeCost(String, List, Object)})
     */
    public static long runtimeCost(String overloadId, List<Object> args) {
        return COSTS.cost(overloadId, args, null);
    }

    /** As {@link #runtimeCost(String, List)}, with the call's result (needed for {@code join}). */
    public static long runtimeCost(String overloadId, List<Object> args, Object result) {
        return COSTS.cost(overloadId, args, result);
    }

    /** All libraries; the instances are immutable and may be shared by any number of environments. */
    public static List<KubernetesCelLibrary> all() {
        return ALL;
    }

    /**
     * The compile-time checks upstream runs with these libraries, for a cel-java {@code CelValidator}
     * ({@code CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime).addAstValidators(...)}): today
     * the check of literal {@code string.format} calls. Upstream also exempts {@code format} from the
     * homogeneous-literal rule: pass {@code "format"} to {@code HomogeneousLiteralValidator.newInstance}.
     */
    public static List<CelAstValidator> astValidators() {
        return List.of(new FormatCallValidator());
    }

    /**
     * Call on every checked AST before building a program: selects the runtime binding for {@code isSorted},
     * {@code sum}, {@code max} and {@code min} on lists whose element type the checker cannot know (a
     * {@code dyn} value such as a list-typed device attribute, or an empty list literal). Without it cel-java
     * reports "Ambiguous overloads" where upstream dispatches on the elements. Returns the AST itself when
     * nothing needs changing.
     */
    public static CelAbstractSyntaxTree resolveDynamicOverloads(CelAbstractSyntaxTree ast) {
        return ListsLibrary.resolveDynamicOverloads(ast);
    }

    /** The opaque types the libraries introduce (declare them if the environment needs type names). */
    public static List<CelType> opaqueTypes() {
        return List.of(QUANTITY_TYPE, SEMVER_TYPE, IP_TYPE, CIDR_TYPE, URL_TYPE, NAMED_FORMAT_TYPE);
    }
}
