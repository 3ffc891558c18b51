package io.dra4j.cel.internal;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.validator.CelAstValidator;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Compile-time check of {@code "<literal>".format([<list literal>])} as cel-go's string extension does it
 * (stringFormatValidator): malformed clauses, missing or surplus arguments and argument types a clause cannot
 * format are reported as compile errors with upstream's messages. Calls that are not literal are checked when
 * evaluated, by {@link StringFormatLibrary}.
 */
public final class FormatCallValidator implements CelAstValidator {

    private static final Set<CelKind> STRING_KINDS = EnumSet.of(
            CelKind.LIST,
            CelKind.MAP,
            CelKind.INT,
            CelKind.UINT,
            CelKind.DOUBLE,
            CelKind.BOOL,
            CelKind.STRING,
            CelKind.TIMESTAMP,
            CelKind.BYTES,
            CelKind.DURATION,
            CelKind.TYPE,
            CelKind.NULL_TYPE);

    /** A problem found in one call: the message and the expression it belongs to. */
    private record Problem(long exprId, String message) {}

    @Override
    public void validate(CelNavigableAst navigableAst, Cel cel, IssuesFactory issuesFactory) {
        CelAbstractSyntaxTree ast = navigableAst.getAst();
        navigableAst
                .getRoot()
                .allNodes()
                .map(n -> n.expr())
                .filter(e -> isLiteralFormatCall(ast, e))
                .forEach(e -> check(ast, e).ifPresent(p -> issuesFactory.addError(p.exprId(), p.message())));
    }

    private static boolean isLiteralFormatCall(CelAbstractSyntaxTree ast, CelExpr e) {
        if (e.getKind() != CelExpr.ExprKind.Kind.CALL) {
            return false;
        }
        CelExpr.CelCall call = e.call();
        if (!call.function().equals("format")
                || call.target().isEmpty()
                || call.args().size() != 1) {
            return false;
        }
        boolean formatOverload = ast.getReference(e.id())
                .map(r -> r.overloadIds().isEmpty() || r.overloadIds().contains("string_format"))
                .orElse(true);
        CelExpr target = call.target().get();
        return formatOverload
                && target.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && target.constant().getKind() == CelConstant.Kind.STRING_VALUE
                && call.args().get(0).getKind() == CelExpr.ExprKind.Kind.LIST;
    }

    /** Walks the format string as upstream's parser does, checking argument types instead of formatting. */
    private static Optional<Problem> check(CelAbstractSyntaxTree ast, CelExpr call) {
        String b = new String(
                call.call().target().get().constant().stringValue().getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1);
        List<CelExpr> args = call.call().args().get(0).list().elements();
        int i = 0;
        int argIndex = 0;
        while (i < b.length()) {
            if (b.charAt(i) != '%') {
                i++;
                continue;
            }
            if (i + 1 < b.length() && b.charAt(i + 1) == '%') {
                i += 2;
                continue;
            }
            if (i + 1 >= b.length()) {
                return problem(call, "unexpected end of string");
            }
            if (argIndex >= args.size()) {
                return problem(call, "index " + argIndex + " out of range");
            }
            int j = i + 1;
            if (b.charAt(j) == '.') {
                j++;
                int start = j;
                while (j < b.length() && b.charAt(j) >= '0' && b.charAt(j) <= '9') {
                    j++;
                }
                if (j >= b.length()) {
                    return problem(
                            call,
                            "could not parse formatting clause: error while parsing precision: could not"
                                    + " find end of precision specifier");
                }
                if (j == start) {
                    return problem(
                            call,
                            "could not parse formatting clause: error while parsing precision: error"
                                    + " while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax");
                }
            }
            char clause = b.charAt(j);
            if ("sdfebxXo".indexOf(clause) < 0) {
                return problem(
                        call, "could not parse formatting clause: unrecognized formatting clause \"" + clause + "\"");
            }
            Optional<Problem> p = checkClause(ast, clause, args.get(argIndex));
            if (p.isPresent()) {
                return p;
            }
            i = j + 1;
            argIndex++;
        }
        if (args.size() > argIndex) {
            return problem(
                    call,
                    "too many arguments supplied to string.format (expected " + argIndex + ", got " + args.size()
                            + ")");
        }
        return Optional.empty();
    }

    private static Optional<Problem> problem(CelExpr at, String message) {
        return Optional.of(new Problem(at.id(), message));
    }

    private static Optional<Problem> checkClause(CelAbstractSyntaxTree ast, char clause, CelExpr arg) {
        String wrongType;
        switch (clause) {
            case 's':
                return checkString(ast, arg);
            case 'd':
                wrongType = "decimal clause can only be used on integers, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.INT, CelKind.UINT);
            case 'f':
                wrongType = "fixed-point clause can only be used on doubles, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.DOUBLE, CelKind.STRING);
            case 'e':
                wrongType = "scientific clause can only be used on doubles, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.DOUBLE, CelKind.STRING);
            case 'b':
                wrongType = "only integers and bools can be formatted as binary, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.INT, CelKind.UINT, CelKind.BOOL);
            case 'x':
            case 'X':
                wrongType = "only integers, byte buffers, and strings can be formatted as hex, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.INT, CelKind.UINT, CelKind.STRING, CelKind.BYTES);
            default:
                wrongType = "octal clause can only be used on integers, was given ";
                return requireKinds(ast, arg, wrongType, CelKind.INT, CelKind.UINT);
        }
    }

    private static Optional<Problem> requireKinds(
            CelAbstractSyntaxTree ast, CelExpr arg, String message, CelKind... kinds) {
        Optional<CelType> type = ast.getType(arg.id());
        if (type.isEmpty()
                || type.get().kind().isDyn()
                || EnumSet.of(kinds[0], kinds).contains(type.get().kind())) {
            return Optional.empty();
        }
        return problem(arg, "error during formatting: " + message + typeName(type.get()));
    }

    /** The %s clause accepts the listed kinds, recursing into list and map literals. */
    private static Optional<Problem> checkString(CelAbstractSyntaxTree ast, CelExpr arg) {
        Optional<CelType> type = ast.getType(arg.id());
        if (type.isPresent()
                && !type.get().kind().isDyn()
                && !STRING_KINDS.contains(type.get().kind())) {
            return problem(
                    arg,
                    "error during formatting: string clause can only be used on strings, bools, bytes,"
                            + " ints, doubles, maps, lists, types, durations, and timestamps, was given "
                            + typeName(type.get()));
        }
        if (arg.getKind() == CelExpr.ExprKind.Kind.LIST) {
            for (CelExpr e : arg.list().elements()) {
                Optional<Problem> p = checkString(ast, e);
                if (p.isPresent()) {
                    return p;
                }
            }
        } else if (arg.getKind() == CelExpr.ExprKind.Kind.MAP) {
            for (CelExpr.CelMap.Entry entry : arg.map().entries()) {
                Optional<Problem> p = checkString(ast, entry.key());
                if (p.isEmpty()) {
                    p = checkString(ast, entry.value());
                }
                if (p.isPresent()) {
                    return p;
                }
            }
        }
        return Optional.empty();
    }

    private static String typeName(CelType type) {
        return switch (type.kind()) {
            case LIST -> "list";
            case MAP -> "map";
            default -> type.name();
        };
    }
}
