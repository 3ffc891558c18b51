package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.QUANTITY;

import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.dra4j.cel.KubeQuantity;
import java.util.List;
import java.util.OptionalLong;

/** Upstream's {@code kubernetes.quantity} library (apiserver pkg/cel/library/quantity.go). */
public final class QuantityLibrary extends LibrarySupport {

    public QuantityLibrary() {
        super(
                "kubernetes.quantity",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "quantity",
                                        newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                                CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::parse)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isQuantity",
                                        newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                                CelFunctionBinding.from(
                                        "is_quantity_string", String.class, QuantityLibrary::isQuantity)),
                        Function.of(
                                newFunctionDeclaration(
                                        "sign", newGlobalOverload("quantity_sign", SimpleType.INT, QUANTITY)),
                                CelFunctionBinding.from("quantity_sign", KubeQuantity.class, q -> (long) q.signum())),
                        Function.of(
                                newFunctionDeclaration(
                                        "isGreaterThan",
                                        newMemberOverload(
                                                "quantity_is_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_is_greater_than",
                                        KubeQuantity.class,
                                        KubeQuantity.class,
                                        (a, b) -> a.compareTo(b) > 0)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isLessThan",
                                        newMemberOverload(
                                                "quantity_is_less_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_is_less_than",
                                        KubeQuantity.class,
                                        KubeQuantity.class,
                                        (a, b) -> a.compareTo(b) < 0)),
                        Function.of(
                                newFunctionDeclaration(
                                        "compareTo",
                                        newMemberOverload("quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_compare_to", KubeQuantity.class, KubeQuantity.class, (a, b) ->
                                                (long) Integer.signum(a.compareTo(b)))),
                        Function.of(
                                newFunctionDeclaration(
                                        "asApproximateFloat",
                                        newMemberOverload("quantity_get_float", SimpleType.DOUBLE, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_get_float", KubeQuantity.class, KubeQuantity::asApproximateFloat64)),
                        Function.of(
                                newFunctionDeclaration(
                                        "asInteger", newMemberOverload("quantity_get_int", SimpleType.INT, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_get_int", KubeQuantity.class, QuantityLibrary::asInteger)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isInteger",
                                        newMemberOverload("quantity_is_integer", SimpleType.BOOL, QUANTITY)),
                                CelFunctionBinding.from(
                                        "quantity_is_integer",
                                        KubeQuantity.class,
                                        q -> q.asInt64().isPresent())),
                        Function.of(
                                newFunctionDeclaration(
                                        "add",
                                        newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                                        newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "quantity_add",
                                        KubeQuantity.class,
                                        KubeQuantity.class,
                                        (q, y) -> q.add(y).asGoPointer()),
                                CelFunctionBinding.from(
                                        "quantity_add_int",
                                        KubeQuantity.class,
                                        Long.class,
                                        (q, i) -> q.add(KubeQuantity.ofInt64(i, KubeQuantity.Format.DECIMAL_EXPONENT))
                                                .asGoPointer())),
                        Function.of(
                                newFunctionDeclaration(
                                        "sub",
                                        newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                                        newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "quantity_sub",
                                        KubeQuantity.class,
                                        KubeQuantity.class,
                                        (q, y) -> q.sub(y).asGoPointer()),
                                CelFunctionBinding.from(
                                        "quantity_sub_int",
                                        KubeQuantity.class,
                                        Long.class,
                                        (q, i) -> q.sub(KubeQuantity.ofInt64(i, KubeQuantity.Format.DECIMAL_EXPONENT))
                                                .asGoPointer()))));
    }

    private static KubeQuantity parse(String s) throws CelEvaluationException {
        try {
            return KubeQuantity.parse(s);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    private static boolean isQuantity(String s) {
        try {
            KubeQuantity.parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static long asInteger(KubeQuantity q) throws CelEvaluationException {
        OptionalLong v = q.asInt64();
        if (v.isEmpty()) {
            throw error("cannot convert value to integer");
        }
        return v.getAsLong();
    }
}
