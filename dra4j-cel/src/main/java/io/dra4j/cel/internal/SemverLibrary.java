package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.SEMVER;

import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.dra4j.cel.Semver;
import java.util.List;

/** Upstream's {@code kubernetes.Semver} library at version 1 (apiserver pkg/cel/library/semverlib.go). */
public final class SemverLibrary extends LibrarySupport {

    public SemverLibrary() {
        super(
                "kubernetes.Semver",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "semver",
                                        newGlobalOverload("string_to_semver", SEMVER, SimpleType.STRING),
                                        newGlobalOverload(
                                                "string_bool_to_semver", SEMVER, SimpleType.STRING, SimpleType.BOOL)),
                                CelFunctionBinding.from("string_to_semver", String.class, s -> parse(s, false)),
                                CelFunctionBinding.from(
                                        "string_bool_to_semver", String.class, Boolean.class, SemverLibrary::parse)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isSemver",
                                        newGlobalOverload("is_semver_string", SimpleType.BOOL, SimpleType.STRING),
                                        newGlobalOverload(
                                                "is_semver_string_bool",
                                                SimpleType.BOOL,
                                                SimpleType.STRING,
                                                SimpleType.BOOL)),
                                CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
                                CelFunctionBinding.from(
                                        "is_semver_string_bool", String.class, Boolean.class, SemverLibrary::isSemver)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isGreaterThan",
                                        newMemberOverload("semver_is_greater_than", SimpleType.BOOL, SEMVER, SEMVER)),
                                CelFunctionBinding.from(
                                        "semver_is_greater_than",
                                        Semver.class,
                                        Semver.class,
                                        (a, b) -> a.compareTo(b) > 0)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isLessThan",
                                        newMemberOverload("semver_is_less_than", SimpleType.BOOL, SEMVER, SEMVER)),
                                CelFunctionBinding.from(
                                        "semver_is_less_than",
                                        Semver.class,
                                        Semver.class,
                                        (a, b) -> a.compareTo(b) < 0)),
                        Function.of(
                                newFunctionDeclaration(
                                        "compareTo",
                                        newMemberOverload("semver_compare_to", SimpleType.INT, SEMVER, SEMVER)),
                                CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class, (a, b) ->
                                        (long) a.compareTo(b))),
                        // Upstream converts the unsigned numbers with int64(), so values above 2^63-1 wrap negative.
                        Function.of(
                                newFunctionDeclaration(
                                        "major", newMemberOverload("semver_major", SimpleType.INT, SEMVER)),
                                CelFunctionBinding.from("semver_major", Semver.class, Semver::major)),
                        Function.of(
                                newFunctionDeclaration(
                                        "minor", newMemberOverload("semver_minor", SimpleType.INT, SEMVER)),
                                CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor)),
                        Function.of(
                                newFunctionDeclaration(
                                        "patch", newMemberOverload("semver_patch", SimpleType.INT, SEMVER)),
                                CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch))));
    }

    private static Semver parse(String s, boolean normalize) throws CelEvaluationException {
        try {
            return normalize ? Semver.parseNormalized(s) : Semver.parse(s);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    private static boolean isSemver(String s, boolean normalize) {
        try {
            parse(s, normalize);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
