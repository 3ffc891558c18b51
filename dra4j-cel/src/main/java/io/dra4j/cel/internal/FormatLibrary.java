package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.NAMED_FORMAT;

import dev.cel.common.types.ListType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Upstream's {@code kubernetes.format} library (format.go): named formats and {@code validate}. */
public final class FormatLibrary extends LibrarySupport {

    public FormatLibrary() {
        super("kubernetes.format", functions());
    }

    private static List<Function> functions() {
        List<Function> fns = new ArrayList<>();
        fns.add(Function.of(
                newFunctionDeclaration(
                        "validate",
                        newMemberOverload(
                                "format-validate",
                                OptionalType.create(ListType.create(SimpleType.STRING)),
                                NAMED_FORMAT,
                                SimpleType.STRING)),
                CelFunctionBinding.from("format-validate", NamedFormat.class, String.class, FormatLibrary::validate)));
        fns.add(Function.of(
                newFunctionDeclaration(
                        "format.named",
                        newGlobalOverload("format-named", OptionalType.create(NAMED_FORMAT), SimpleType.STRING)),
                CelFunctionBinding.from(
                        "format-named", String.class, name -> Optional.ofNullable(NamedFormat.CONSTANTS.get(name)))));
        NamedFormat.CONSTANTS.forEach((key, format) -> {
            String fn = "format." + key;
            fns.add(Function.of(
                    newFunctionDeclaration(fn, newGlobalOverload(fn, NAMED_FORMAT, List.of())),
                    CelFunctionBinding.from(fn, List.of(), args -> format)));
        });
        return fns;
    }

    private static Optional<List<String>> validate(NamedFormat format, String value) {
        List<String> problems = format.validate(value);
        return problems.isEmpty() ? Optional.empty() : Optional.of(problems);
    }
}
