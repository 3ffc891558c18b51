package io.dra4j.cel.internal;

import com.google.common.base.Suppliers;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.EqualsOperator;
import dev.cel.runtime.standard.InOperator;
import dev.cel.runtime.standard.IndexOperator;
import dev.cel.runtime.standard.NotEqualsOperator;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import dev.cel.validator.validators.DurationLiteralValidator;
import dev.cel.validator.validators.RegexLiteralValidator;
import dev.cel.validator.validators.TimestampLiteralValidator;
import io.dra4j.cel.KubernetesLibraries;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CEL compiler and runtime for device selectors: the library set of Kubernetes' StoredExpressions environment
 * at 1.37 (apiserver {@code pkg/cel/environment/base.go}) plus DRA's additions (dynamic-resource-allocation
 * {@code cel/compile.go}).
 *
 * <p>Base options: cross-type numeric comparisons, optional types, the literal validators (duration, timestamp,
 * regex) and homogeneous aggregate literals (as cel-go's validator, {@link HomogeneousLiterals}: cel-java's checker
 * option knows no exemptions); ext.Sets, ext.Lists and two-variable comprehensions from cel-java's extensions;
 * ext.Strings v2 (with format) and the Kubernetes libraries (URLs, regex, quantity, IP, CIDR, format, semver,
 * lists with {@code includes()}) from {@link KubernetesLibraries}. DRA adds {@code cel.bind} (cel-java's bindings
 * extension) and the {@code device} variable. Thread-safe once built.
 */
public final class SelectorCompiler {

    /** Upstream's CELSelectorExpressionMaxCost. */
    public static final long COST_LIMIT = 1_000_000;

    private static final CelOptions OPTIONS = CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .enableOptionalSyntax(true)
            .enableUnsignedLongs(true)
            // cel-go builds a map literal into a Go map: a repeated key keeps its last value, without an error.
            .errorOnDuplicateMapKeys(false)
            .build();

    /**
     * Standard bindings {@link GoEquality}, {@link GoIndexing}, {@link GoConversions}, {@link GoNumericOrdering},
     * {@link GoModulo}, {@link GoTimeZones} and {@link GoListConcatenation} replace with cel-go's.
     */
    private static final Set<CelStandardOverload> REPLACED_OVERLOADS = Stream.concat(
                    Stream.of(
                            EqualsOperator.EqualsOverload.EQUALS,
                            NotEqualsOperator.NotEqualsOverload.NOT_EQUALS,
                            InOperator.InOverload.IN_LIST,
                            InOperator.InOverload.IN_MAP,
                            IndexOperator.IndexOverload.INDEX_LIST,
                            IndexOperator.IndexOverload.INDEX_MAP),
                    Stream.of(
                                    GoConversions.REPLACED,
                                    GoNumericOrdering.REPLACED,
                                    GoModulo.REPLACED,
                                    GoTimeZones.REPLACED,
                                    GoListConcatenation.REPLACED)
                            .flatMap(Set::stream))
            .collect(Collectors.toUnmodifiableSet());

    private static final List<String> ANTLR_MESSAGES = List.of(
            "mismatched input", "extraneous input", "missing ", "no viable alternative", "token recognition error");
    private static final Pattern LITERAL_VALIDATION =
            Pattern.compile("(\\w+) validation failed\\. Reason: .*", Pattern.DOTALL);
    /**
     * cel-java's names of free type parameters, such as {@code %elem0}, {@code %T7} or {@code %V0}; a letter follows
     * the {@code %}, so the modulo operator's name {@code _%_} is not one.
     */
    private static final Pattern TYPE_PARAMETER = Pattern.compile("%[A-Za-z][A-Za-z_]*[0-9]*");

    private static final Pattern CANDIDATES = Pattern.compile(" \\(candidates: .*\\)$", Pattern.DOTALL);

    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final CelValidator validator;

    public SelectorCompiler() {
        CelCompilerBuilder compilerBuilder = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(OPTIONS)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setTypeProvider(DeviceType.PROVIDER)
                .addVar(DeviceType.VARIABLE, DeviceType.TYPE)
                .setStandardEnvironmentEnabled(false)
                .setStandardDeclarations(GoOverloadOrder.standardDeclarations())
                .addFunctionDeclarations(GoOverloadOrder.redeclared())
                .addLibraries(
                        CelExtensions.sets(OPTIONS),
                        GoLists.compilerDeclarations(),
                        new GoSort(),
                        CelExtensions.optional(),
                        CelExtensions.bindings(),
                        CelExtensions.comprehensions())
                .addLibraries(KubernetesLibraries.all());
        compiler = compilerBuilder.build();

        CelRuntimeBuilder runtimeBuilder = CelRuntimeFactory.legacyCelRuntimeBuilder()
                .setOptions(OPTIONS)
                .setStandardEnvironmentEnabled(false)
                .setStandardFunctions(CelStandardFunctions.newBuilder()
                        .filterFunctions((function, overload) -> !REPLACED_OVERLOADS.contains(overload))
                        .build())
                .addLibraries(
                        CelExtensions.sets(OPTIONS),
                        GoLists.others(),
                        new GoLists(),
                        new GoSort(),
                        new GoOptionalIndex(),
                        new GoZeroValues(),
                        CelExtensions.optional(),
                        CelExtensions.comprehensions(),
                        new GoEquality(),
                        new GoIndexing(),
                        new GoConversions(),
                        new GoNegation(),
                        new GoModulo(),
                        new GoTimeZones(),
                        new GoListConcatenation(),
                        new GoNumericOrdering(),
                        new GoStrictArguments.Library())
                .addLibraries(KubernetesLibraries.all());
        runtime = runtimeBuilder.build();

        validator = CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime)
                .addAstValidators(
                        DurationLiteralValidator.INSTANCE,
                        TimestampLiteralValidator.INSTANCE,
                        RegexLiteralValidator.INSTANCE,
                        new HomogeneousLiterals())
                .addAstValidators(KubernetesLibraries.astValidators())
                .build();
    }

    /**
     * What an expression must evaluate to (validateOutputType of k8s.io/dynamic-resource-allocation/cel): a selector
     * a bool (or the unknown type); a derived attribute a primitive scalar (string, integer, boolean, semver, or dyn),
     * or, where list-type attributes are allowed, a list of those.
     */
    public enum Output {
        SELECTOR,
        DERIVED_ATTRIBUTE,
        DERIVED_ATTRIBUTE_OR_LIST;

        /** Upstream's detail for a result type that does not fit, or empty when it fits. */
        Optional<String> misfit(dev.cel.common.types.CelType type) {
            String name = CelTypeNames.checked(type);
            return switch (this) {
                case SELECTOR ->
                    type.kind() == CelKind.BOOL || type.kind() == CelKind.DYN
                            ? Optional.empty()
                            : Optional.of("must evaluate to bool or the unknown type, not " + name);
                case DERIVED_ATTRIBUTE ->
                    scalar(type)
                            ? Optional.empty()
                            : Optional.of("must evaluate to a primitive scalar (string, integer, boolean, semver), not "
                                    + name);
                case DERIVED_ATTRIBUTE_OR_LIST ->
                    scalar(type)
                                    || (type.kind() == CelKind.LIST
                                            && type.parameters().size() == 1
                                            && scalar(type.parameters().get(0)))
                            ? Optional.empty()
                            : Optional.of("must evaluate to a primitive scalar (string, integer, boolean, semver) or a "
                                    + "list of these scalars, not " + name);
            };
        }

        private static boolean scalar(dev.cel.common.types.CelType type) {
            return switch (type.kind()) {
                case BOOL, INT, STRING, ANY, DYN -> true;
                default -> type.equals(KubeTypes.SEMVER);
            };
        }
    }

    /** {@link #compile(String, Output)} of a selector. */
    public Compiled compile(String expression) {
        return compile(expression, Output.SELECTOR);
    }

    /**
     * Compiles an expression. Never throws: a failure comes back as {@link Compiled.Failure} with upstream's detail
     * text ("compilation failed: ERROR: &lt;input&gt;:1:1: ..." or "must evaluate to bool or the unknown type, not
     * ...").
     */
    public Compiled compile(String expression, Output output) {
        try {
            CelValidationResult parsed = compiler.parse(expression);
            if (parsed.hasError()) {
                return new Compiled.Failure(
                        "compilation failed: " + issues(parsed, issue -> parserMessage(issue.getMessage())));
            }
            CelAbstractSyntaxTree parsedAst = NegativeLiterals.atSign(parsed.getAst());
            CelValidationResult checked = compiler.check(parsedAst);
            if (checked.hasError()) {
                ErrorTypedRangeVariables errorTyped = ErrorTypedRangeVariables.of(parsedAst, checked.getErrors());
                MacroCopies copies = MacroCopies.of(parsedAst);
                return new Compiled.Failure("compilation failed: "
                        + issues(
                                checked,
                                issue -> errorTyped.retype(issue.getExprId(), checkerMessage(issue.getMessage())),
                                issue -> copies.copies(issue.getExprId())));
            }
            CelAbstractSyntaxTree ast = checked.getAst();
            CelValidationResult validated = validator.validate(ast);
            if (validated.hasError()) {
                // cel-go validates each macro copy of a node, so it reports an invalid literal once per copy.
                MacroCopies copies = MacroCopies.of(parsedAst);
                return new Compiled.Failure("compilation failed: "
                        + issues(
                                validated,
                                issue -> validatorMessage(issue.getMessage()),
                                issue -> copies.copies(issue.getExprId())));
            }
            Optional<String> misfit = output.misfit(ast.getResultType());
            if (misfit.isPresent()) {
                return new Compiled.Failure(misfit.get());
            }
            Optional<String> planning = planningFailure(ast, CostModel.of(ast), FailureSites.of(ast));
            if (planning.isPresent()) {
                return new Compiled.Failure("program instantiation failed: " + planning.get());
            }
            // The static estimate is cel-go's checker's, on the expression as written.
            CelAbstractSyntaxTree checkedAst = ast;
            ast = ConstantSets.foldEmptyMembership(ast);
            CostModel costModel = CostModel.of(ast);
            FailureSites sites = FailureSites.of(ast);
            // The cost model keeps the checker's overload candidates: cel-go prices ambiguous calls by function name.
            CelAbstractSyntaxTree dispatchable = ConstantSets.select(GoNumericOrdering.withAnyNumericOperands(
                    GoNegation.withAnyNegation(GoIndexing.withDynamicIndex(GoListConcatenation.withAccumulators(
                            GoSort.resolve(KubernetesLibraries.resolveDynamicOverloads(ast)))))));
            return new Compiled.Success(
                    new SelectorProgram(
                            runtime.createProgram(dispatchable),
                            costModel,
                            COST_LIMIT,
                            sites,
                            NoSuchOverloads.of(ast),
                            Suppliers.memoize(
                                    () -> GoStrictArguments.of(dispatchable).map(this::program))),
                    checkedAst);
        } catch (CelEvaluationException | RuntimeException e) {
            return new Compiled.Failure("unexpected compilation error: " + e.getMessage());
        } catch (dev.cel.common.CelValidationException e) {
            return new Compiled.Failure("compilation failed: " + e.getMessage());
        }
    }

    private CelRuntime.Program program(CelAbstractSyntaxTree ast) {
        try {
            return runtime.createProgram(ast);
        } catch (CelEvaluationException e) {
            throw new IllegalStateException("cannot plan a rewritten selector: " + e.getMessage(), e);
        }
    }

    /**
     * What cel-go's planner does to constants before evaluation: it folds conversions of constants, makes qualifiers
     * of constant indexes and compiles constant regex patterns. The first failure, in planning order, is what cel-go reports.
     */
    private Optional<String> planningFailure(CelAbstractSyntaxTree ast, CostModel costModel, FailureSites sites)
            throws CelEvaluationException {
        for (CostModel.PlannedCall planned : costModel.plannedCalls()) {
            try {
                if (planned.patternIndex() == CostModel.PlannedCall.FOLDED) {
                    evaluateConstant(ast, planned.call());
                    continue;
                }
                if (planned.patternIndex() == CostModel.PlannedCall.CONSTANT_QUALIFIER) {
                    Optional<String> invalid = GoIndexing.invalidQualifier(
                            evaluateConstant(ast, planned.call().call().args().get(1)));
                    if (invalid.isPresent()) {
                        return invalid;
                    }
                    continue;
                }
                CelExpr call = planned.call();
                CelExpr pattern = call.call().target().isPresent()
                        ? call.call().args().get(planned.patternIndex() - 1)
                        : call.call().args().get(planned.patternIndex());
                if (evaluateConstant(ast, pattern) instanceof String regex) {
                    Optional<String> invalid = RegexLibrary.goSyntaxError(regex);
                    if (invalid.isPresent()) {
                        return invalid;
                    }
                }
            } catch (CelEvaluationException e) {
                return Optional.of(describeConstantCall(ast, e).orElseGet(() -> RuntimeErrors.translate(e, sites)));
            }
        }
        return Optional.empty();
    }

    /** cel-go's text for a folded call of constants that found no overload, from its operands' values. */
    private Optional<String> describeConstantCall(CelAbstractSyntaxTree ast, CelEvaluationException failure) {
        Optional<CelExpr> call = NoSuchOverloads.of(ast).failingCall(failure);
        if (call.isEmpty()) {
            return Optional.empty();
        }
        List<Object> values = new ArrayList<>();
        try {
            for (CelExpr operand : Stream.concat(call.get().call().target().stream(), call.get().call().args().stream())
                    .toList()) {
                values.add(evaluateConstant(ast, operand));
            }
        } catch (CelEvaluationException e) {
            return Optional.empty();
        }
        return Optional.of(NoSuchOverloads.message(call.get(), values));
    }

    private Object evaluateConstant(CelAbstractSyntaxTree ast, CelExpr constant) throws CelEvaluationException {
        return runtime.createProgram(CelAbstractSyntaxTree.newCheckedAst(
                        constant, ast.getSource(), ast.getReferenceMap(), ast.getTypeMap()))
                .eval();
    }

    /**
     * cel-go's issue listing: errors sorted by position, each as "ERROR: <input>:line:column: message" with its source
     * line and a caret. Messages are reworded where cel-java and cel-go differ.
     */
    private static String issues(CelValidationResult result, Function<CelIssue, String> reword) {
        return issues(result, reword, issue -> 1);
    }

    /** The listing with each issue {@code repeats} times (cel-go reports a checker error once per macro copy). */
    private static String issues(
            CelValidationResult result, Function<CelIssue, String> reword, ToIntFunction<CelIssue> repeats) {
        List<CelIssue> errors = result.getErrors().stream()
                .sorted(Comparator.comparing(CelIssue::getSourceLocation))
                .flatMap(issue -> Collections.nCopies(repeats.applyAsInt(issue), issue).stream())
                .map(issue -> CelIssue.newBuilder()
                        .setSeverity(issue.getSeverity())
                        .setSourceLocation(issue.getSourceLocation())
                        .setExprId(issue.getExprId())
                        .setMessage(reword.apply(issue))
                        .build())
                .collect(Collectors.toList());
        return errors.stream().map(issue -> display(issue, result)).collect(Collectors.joining("\n"));
    }

    /**
     * cel-go's display of one issue. For an empty expression cel-go places the end of input at column 0 and has no
     * source line to quote; otherwise its display is cel-java's.
     */
    private static String display(CelIssue issue, CelValidationResult result) {
        if (result.getSource().getContent().isEmpty()) {
            return "ERROR: <input>:1:0: " + issue.getMessage();
        }
        return issue.toDisplayString(result.getSource());
    }

    /**
     * cel-go marks the errors its ANTLR parser reports as syntax errors; an int literal out of range is an "invalid
     * int literal" there (cel-java reports Java's NumberFormatException text).
     */
    private static String parserMessage(String message) {
        if (message.startsWith("For input string: ")) {
            return "invalid int literal";
        }
        for (String prefix : ANTLR_MESSAGES) {
            if (message.startsWith(prefix)) {
                return "Syntax error: " + message;
            }
        }
        return message;
    }

    /** cel-go's literal validators say only which argument is invalid. */
    private static String validatorMessage(String message) {
        if (message.startsWith("Regex validation failed")) {
            return "invalid matches argument";
        }
        Matcher literal = LITERAL_VALIDATION.matcher(message);
        if (literal.matches()) {
            return "invalid " + literal.group(1).toLowerCase(Locale.ROOT) + " argument";
        }
        return message;
    }

    /**
     * cel-java lists overload candidates after a failed resolution, cel-go does not. Types are written as cel-go's
     * checker writes them ({@code checker.FormatCELType}, after free type parameters became {@code dyn}).
     */
    private static String checkerMessage(String message) {
        String text = CANDIDATES.matcher(message).replaceFirst("");
        text = TYPE_PARAMETER.matcher(text).replaceAll("dyn");
        return CelTypeNames.checkerText(text);
    }

    /** The result of compiling one expression. */
    public sealed interface Compiled {
        /**
         * A compiled, type-checked selector and its checked AST, from which {@link #estimatedCost()} computes the static
         * cost estimate on demand: only validation and lint ask for it, so evaluation never depends on the estimator.
         */
        record Success(SelectorProgram program, CelAbstractSyntaxTree checkedAst) implements Compiled {
            /** The static cost estimate ({@link CostEstimator}) that upstream's API validation compares with its limit. */
            public Uint64Range estimatedCost() {
                return CostEstimator.estimate(checkedAst);
            }
        }

        /** Upstream's detail text for an expression that does not compile. */
        record Failure(String detail) implements Compiled {}
    }
}
