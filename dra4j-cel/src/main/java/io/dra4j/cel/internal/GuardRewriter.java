package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.parser.CelParser;
import dev.cel.parser.CelParserFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.parser.CelUnparser;
import dev.cel.parser.CelUnparserFactory;
import java.util.Optional;

/**
 * Finds, in a parsed selector, the first access on {@code device} that reads a given key, and writes the guard that
 * keeps a device without that key from failing the evaluation. Works on the parsed (unchecked) tree: the guard is
 * text the user pastes, so it is printed with cel-java's unparser from the user's own subexpressions.
 */
public final class GuardRewriter {

    private static final CelParser PARSER = CelParserFactory.standardCelParserBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .build();
    private static final CelUnparser UNPARSER = CelUnparserFactory.newUnparser();
    private static final String INDEX = "_[_]";
    private static final String NO_SUCH_KEY = "no such key: ";

    private GuardRewriter() {}

    /** The key of a "no such key" runtime error as {@link RuntimeErrors} words it (hint included or not). */
    public static Optional<String> missingKey(String error) {
        int at = error.indexOf(NO_SUCH_KEY);
        if (at < 0) {
            return Optional.empty();
        }
        String key = error.substring(at + NO_SUCH_KEY.length());
        int hint = key.indexOf(RuntimeErrors.NO_SUCH_KEY_HINT);
        return Optional.of(hint < 0 ? key : key.substring(0, hint));
    }

    /** The guard text, or empty when the expression does not parse or reads no such key from {@code device}. */
    public static Optional<String> guardFor(String expression, String key, String deviceDriver) {
        CelAbstractSyntaxTree ast;
        try {
            ast = PARSER.parse(expression).getAst();
        } catch (CelValidationException e) {
            return Optional.empty();
        }
        return find(ast.getExpr(), key).map(access -> guard(ast, access, deviceDriver));
    }

    // Phase: the search. Depth-first in source order, each node before its operands and arguments, so that of nested
    // accesses reading the same key the outermost is guarded.
    private static Optional<CelExpr> find(CelExpr e, String key) {
        if (readsKey(e, key) && rootedAtDevice(operandOf(e))) {
            return Optional.of(e);
        }
        switch (e.getKind()) {
            case SELECT:
                return find(e.select().operand(), key);
            case CALL:
                if (e.call().target().isPresent()) {
                    Optional<CelExpr> found = find(e.call().target().get(), key);
                    if (found.isPresent()) {
                        return found;
                    }
                }
                for (CelExpr arg : e.call().args()) {
                    Optional<CelExpr> found = find(arg, key);
                    if (found.isPresent()) {
                        return found;
                    }
                }
                return Optional.empty();
            case LIST:
                for (CelExpr element : e.list().elements()) {
                    Optional<CelExpr> found = find(element, key);
                    if (found.isPresent()) {
                        return found;
                    }
                }
                return Optional.empty();
            case MAP:
                for (CelExpr.CelMap.Entry entry : e.map().entries()) {
                    Optional<CelExpr> found = find(entry.key(), key).or(() -> find(entry.value(), key));
                    if (found.isPresent()) {
                        return found;
                    }
                }
                return Optional.empty();
            case COMPREHENSION:
                // Only the range can read from device directly; the loop reads through its variables.
                return find(e.comprehension().iterRange(), key);
            default:
                return Optional.empty();
        }
    }

    /** {@code X.key} (not {@code has()}'s test-only form) or {@code X["key"]}. */
    private static boolean readsKey(CelExpr e, String key) {
        if (e.getKind() == CelExpr.ExprKind.Kind.SELECT) {
            return !e.select().testOnly() && e.select().field().equals(key);
        }
        return constantIndex(e).filter(key::equals).isPresent();
    }

    private static Optional<String> constantIndex(CelExpr e) {
        if (e.getKind() != CelExpr.ExprKind.Kind.CALL
                || !e.call().function().equals(INDEX)
                || e.call().args().size() != 2) {
            return Optional.empty();
        }
        CelExpr index = e.call().args().get(1);
        if (index.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || index.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
            return Optional.empty();
        }
        return Optional.of(index.constant().stringValue());
    }

    private static CelExpr operandOf(CelExpr access) {
        return access.getKind() == CelExpr.ExprKind.Kind.SELECT
                ? access.select().operand()
                : access.call().args().get(0);
    }

    /** Whether the chain of field selections and constant indexes starts at the identifier {@code device}. */
    private static boolean rootedAtDevice(CelExpr e) {
        CelExpr at = e;
        while (true) {
            switch (at.getKind()) {
                case IDENT:
                    return at.ident().name().equals("device");
                case SELECT:
                    at = at.select().operand();
                    break;
                case CALL:
                    if (constantIndex(at).isEmpty()) {
                        return false;
                    }
                    at = at.call().args().get(0);
                    break;
                default:
                    return false;
            }
        }
    }

    // Phase: the guard. A device of another driver lacks that driver's attribute domain altogether, and the request
    // most likely did not mean to consider it: say so with a driver check. Otherwise test for the key itself.
    private static String guard(CelAbstractSyntaxTree ast, CelExpr access, String deviceDriver) {
        Optional<String> domain = domainRead(access);
        if (domain.isPresent() && !domain.get().equals(deviceDriver)) {
            return "device.driver == " + UNPARSER.unparse(constant(ast, domain.get()));
        }
        if (access.getKind() == CelExpr.ExprKind.Kind.SELECT) {
            return "has(" + unparse(ast, access) + ")";
        }
        return unparse(ast, access.call().args().get(1)) + " in "
                + unparse(ast, access.call().args().get(0));
    }

    /** {@code D} of the {@code device.attributes["D"]} or {@code device.capacity["D"]} the access goes through. */
    private static Optional<String> domainRead(CelExpr access) {
        CelExpr at = access;
        while (true) {
            Optional<String> index = constantIndex(at);
            if (index.isPresent()) {
                CelExpr map = at.call().args().get(0);
                if (map.getKind() == CelExpr.ExprKind.Kind.SELECT
                        && (map.select().field().equals("attributes")
                                || map.select().field().equals("capacity"))
                        && map.select().operand().getKind() == CelExpr.ExprKind.Kind.IDENT
                        && map.select().operand().ident().name().equals("device")) {
                    return index;
                }
                at = map;
            } else if (at.getKind() == CelExpr.ExprKind.Kind.SELECT) {
                at = at.select().operand();
            } else {
                return Optional.empty();
            }
        }
    }

    private static String unparse(CelAbstractSyntaxTree ast, CelExpr e) {
        return UNPARSER.unparse(CelAbstractSyntaxTree.newParsedAst(e, ast.getSource()));
    }

    private static CelAbstractSyntaxTree constant(CelAbstractSyntaxTree ast, String value) {
        return CelAbstractSyntaxTree.newParsedAst(CelExpr.ofConstant(0, CelConstant.ofValue(value)), ast.getSource());
    }
}
