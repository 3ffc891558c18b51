package io.dra4j.allocator.internal;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Selector shapes the allocator decides in plain Java instead of the CEL interpreter, because nearly every device
 * class has one: {@code device.driver == "name"} (either operand order, either quote style, no escapes). For these
 * shapes CEL's answer is exactly a string comparison: the expression always compiles, cannot fail at run time and
 * costs far below the limit. Conjunctions of attribute and capacity comparisons are decided by {@link FastSelector}
 * where CEL's answer is certain. Everything else goes to CEL.
 */
final class SelectorShortcuts {
    private static final Pattern DRIVER_EQUALS =
            Pattern.compile("\\s*(?:device\\.driver\\s*==\\s*(?<q1>[\"'])(?<a>[^\"'\\\\]*)\\k<q1>"
                    + "|(?<q2>[\"'])(?<b>[^\"'\\\\]*)\\k<q2>\\s*==\\s*device\\.driver)\\s*");
    private final Map<String, Optional<String>> driverLiterals = new ConcurrentHashMap<>();
    private final Map<String, Optional<FastSelector>> fastSelectors = new ConcurrentHashMap<>();

    /** The expression's {@link FastSelector} form, or null when it has none. */
    FastSelector fast(String expression) {
        return fastSelectors
                .computeIfAbsent(expression, e -> Optional.ofNullable(FastSelector.parse(e)))
                .orElse(null);
    }

    /** The driver name when the expression is a plain driver equality, else null. */
    String driverEquality(String expression) {
        return driverLiterals
                .computeIfAbsent(expression, e -> {
                    Matcher m = DRIVER_EQUALS.matcher(e);
                    if (!m.matches()) {
                        return Optional.empty();
                    }
                    return Optional.of(m.group("a") != null ? m.group("a") : m.group("b"));
                })
                .orElse(null);
    }
}
