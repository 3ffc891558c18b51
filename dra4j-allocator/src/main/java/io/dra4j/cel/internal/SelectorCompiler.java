package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
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
import dev.cel.runtime.standard.InOperator;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import dev.cel.validator.validators.DurationLiteralValidator;
import dev.cel.validator.validators.RegexLiteralValidator;
import dev.cel.validator.validators.TimestampLiteralValidator;
import io.dra4j.cel.KubernetesLibraries;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The CEL compiler and runtime for device selectors: the library set of Kubernetes' StoredExpressions environment
 * at 1.37 (apiserver {@code pkg/cel/environment/base.go}) plus DRA's additions (dynamic-resource-allocation
 * {@code cel/compile.go}).
 *
 * <p>Base options: homogeneous aggregate literals, cross-type numeric comparisons, optional types, the literal
 * validators (duration, timestamp, regex, homogeneous literals), ext.Sets, two-variable comprehensions, ext.Lists
 * and cel.bind from cel-java's extensions, and ext.Strings v2 (with format) and the Kubernetes libraries (URLs,
 * regex, quantity, IP, CIDR, format, semver, lists) from {@link KubernetesLibraries}. DRA adds {@code cel.bind}
 * and the {@code device} variable; its {@code includes()} is the lists library's at 1.37. Thread-safe once built.
 */
public final class SelectorCompiler {

  /** Upstream's CELSelectorExpressionMaxCost. */
  public static final long COST_LIMIT = 1_000_000;

  private static final CelOptions OPTIONS = CelOptions.current()
      .enableHeterogeneousNumericComparisons(true)
      .enableHomogeneousLiterals(true)
      .enableOptionalSyntax(true)
      .enableUnsignedLongs(true)
      .build();

  private static final List<String> ANTLR_MESSAGES = List.of(
      "mismatched input", "extraneous input", "missing ", "no viable alternative", "token recognition error");
  private static final Pattern LITERAL_VALIDATION =
      Pattern.compile("(\\w+) validation failed\\. Reason: .*", Pattern.DOTALL);
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
        .addLibraries(
            CelExtensions.sets(OPTIONS),
            CelExtensions.lists(),
            CelExtensions.optional(),
            CelExtensions.bindings(),
            CelExtensions.comprehensions())
        .addLibraries(KubernetesLibraries.all());
    compiler = compilerBuilder.build();

    CelRuntimeBuilder runtimeBuilder = CelRuntimeFactory.legacyCelRuntimeBuilder()
        .setOptions(OPTIONS)
        .setStandardEnvironmentEnabled(false)
        .setStandardFunctions(CelStandardFunctions.newBuilder()
            .filterFunctions((function, overload) -> overload != InOperator.InOverload.IN_MAP)
            .build())
        .addLibraries(
            CelExtensions.sets(OPTIONS),
            CelExtensions.lists(),
            CelExtensions.optional(),
            CelExtensions.comprehensions(),
            new DomainMembership())
        .addLibraries(KubernetesLibraries.all());
    runtime = runtimeBuilder.build();

    validator = CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime)
        .addAstValidators(
            DurationLiteralValidator.INSTANCE,
            TimestampLiteralValidator.INSTANCE,
            RegexLiteralValidator.INSTANCE,
            new HomogeneousLiterals())
        .build();
  }

  /**
   * Compiles a selector. Never throws: a failure comes back as {@link Compiled.Failure} with upstream's detail text
   * ("compilation failed: ERROR: <input>:1:1: ..." or "must evaluate to bool or the unknown type, not ...").
   */
  public Compiled compile(String expression) {
    try {
      CelValidationResult parsed = compiler.parse(expression);
      if (parsed.hasError()) {
        return new Compiled.Failure("compilation failed: " + issues(parsed, SelectorCompiler::parserMessage));
      }
      CelValidationResult checked = compiler.check(parsed.getAst());
      if (checked.hasError()) {
        return new Compiled.Failure("compilation failed: " + issues(checked, SelectorCompiler::checkerMessage));
      }
      CelAbstractSyntaxTree ast = checked.getAst();
      CelValidationResult validated = validator.validate(ast);
      if (validated.hasError()) {
        return new Compiled.Failure("compilation failed: " + issues(validated, SelectorCompiler::validatorMessage));
      }
      CelKind resultKind = ast.getResultType().kind();
      if (resultKind != CelKind.BOOL && resultKind != CelKind.DYN) {
        return new Compiled.Failure("must evaluate to bool or the unknown type, not "
            + CelTypeNames.checked(ast.getResultType()));
      }
      return new Compiled.Success(new SelectorProgram(runtime.createProgram(ast), CostModel.of(ast), COST_LIMIT));
    } catch (CelEvaluationException | RuntimeException e) {
      return new Compiled.Failure("unexpected compilation error: " + e.getMessage());
    } catch (dev.cel.common.CelValidationException e) {
      return new Compiled.Failure("compilation failed: " + e.getMessage());
    }
  }

  /**
   * cel-go's issue listing: errors sorted by position, each as "ERROR: <input>:line:column: message" with its source
   * line and a caret. Messages are reworded where cel-java and cel-go differ.
   */
  private static String issues(CelValidationResult result, UnaryOperator<String> reword) {
    List<CelIssue> errors = result.getErrors().stream()
        .sorted(Comparator.comparing(CelIssue::getSourceLocation))
        .map(issue -> CelIssue.newBuilder()
            .setSeverity(issue.getSeverity())
            .setSourceLocation(issue.getSourceLocation())
            .setExprId(issue.getExprId())
            .setMessage(reword.apply(issue.getMessage()))
            .build())
        .collect(Collectors.toList());
    return errors.stream().map(issue -> display(issue, result))
        .collect(Collectors.joining("\n"));
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

  /** cel-go marks the errors its ANTLR parser reports as syntax errors. */
  private static String parserMessage(String message) {
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

  /** cel-java lists overload candidates after a failed resolution, cel-go does not. */
  private static String checkerMessage(String message) {
    return CANDIDATES.matcher(message).replaceFirst("");
  }

  /** The result of compiling one expression. */
  public sealed interface Compiled {
    /** A compiled, type-checked selector. */
    record Success(SelectorProgram program) implements Compiled {
    }

    /** Upstream's detail text for an expression that does not compile. */
    record Failure(String detail) implements Compiled {
    }
  }
}
