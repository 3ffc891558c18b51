package io.dra4j.cel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import io.dra4j.cel.KubernetesLibraries;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every overload of every library is exercised by at least one upstream-recorded expression. */
class UpstreamFactsCoverageTest {

    private static final String[] FACT_FILES = {
        "quantity-upstream.tsv",
        "semver-upstream.tsv",
        "lists-upstream.tsv",
        "regex-upstream.tsv",
        "ip-upstream.tsv",
        "cidr-upstream.tsv",
        "urls-upstream.tsv",
        "format-upstream.tsv",
        "strings-upstream.tsv",
        "strformat-upstream.tsv"
    };

    @Test
    void everyOverloadHasUpstreamFacts() {
        Set<String> exercised = new HashSet<>();
        for (String file : FACT_FILES) {
            UpstreamFacts.load(file).forEach(args -> {
                String expr = (String) args.get()[0];
                try {
                    CelAbstractSyntaxTree ast = CelTestEnv.compile(expr);
                    ast.getReferenceMap().values().forEach(r -> exercised.addAll(r.overloadIds()));
                } catch (CelValidationException e) {
                    // compile-failure facts exercise no overload
                }
            });
        }
        Set<String> missing = new TreeSet<>();
        for (var lib : KubernetesLibraries.all()) {
            ((LibrarySupport) lib)
                    .declarations()
                    .forEach(d -> d.overloads().forEach(o -> {
                        if (!exercised.contains(o.overloadId())) {
                            missing.add(o.overloadId());
                        }
                    }));
        }
        assertThat(missing).isEmpty();
    }
}
