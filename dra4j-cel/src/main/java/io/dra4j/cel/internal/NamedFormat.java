package io.dra4j.cel.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A named string format of the Kubernetes CEL format library ({@code kubernetes.NamedFormat}): its upstream name,
 * its validator and the regex size upstream's cost estimator charges for it. Equal when the names are equal.
 */
public final class NamedFormat {

    /** The formats by their CEL function suffix ({@code format.<key>()}, {@code format.named("<key>")}). */
    static final Map<String, NamedFormat> CONSTANTS = constants();

    private final String name;
    private final Function<String, List<String>> validator;
    private final int maxRegexSize;

    private NamedFormat(String name, Function<String, List<String>> validator, int maxRegexSize) {
        this.name = name;
        this.validator = validator;
        this.maxRegexSize = maxRegexSize;
    }

    private static Map<String, NamedFormat> constants() {
        Map<String, NamedFormat> m = new LinkedHashMap<>();
        m.put("dns1123Label", new NamedFormat("DNS1123Label", NameValidation::dns1123Label, 30));
        m.put("dns1123Subdomain", new NamedFormat("DNS1123Subdomain", NameValidation::dns1123Subdomain, 60));
        m.put("dns1035Label", new NamedFormat("DNS1035Label", NameValidation::dns1035Label, 30));
        m.put("qualifiedName", new NamedFormat("QualifiedName", NameValidation::qualifiedName, 60));
        m.put(
                "dns1123LabelPrefix",
                new NamedFormat(
                        "DNS1123LabelPrefix",
                        s -> NameValidation.dns1123Label(NameValidation.maskTrailingDash(s)),
                        30));
        m.put(
                "dns1123SubdomainPrefix",
                new NamedFormat(
                        "DNS1123SubdomainPrefix",
                        s -> NameValidation.dns1123Subdomain(NameValidation.maskTrailingDash(s)),
                        60));
        m.put(
                "dns1035LabelPrefix",
                new NamedFormat(
                        "DNS1035LabelPrefix",
                        s -> NameValidation.dns1035Label(NameValidation.maskTrailingDash(s)),
                        30));
        m.put("labelValue", new NamedFormat("LabelValue", NameValidation::labelValue, 40));
        m.put("uri", new NamedFormat("URI", NameValidation::uri, 1103));
        m.put("uuid", new NamedFormat("uuid", NameValidation::uuid, NameValidation.UUID_PATTERN.length()));
        m.put("byte", new NamedFormat("byte", NameValidation::base64, 84));
        m.put("date", new NamedFormat("date", NameValidation::date, NameValidation.DATE_TIME_PATTERN.length()));
        m.put(
                "datetime",
                new NamedFormat("datetime", NameValidation::dateTime, NameValidation.DATE_TIME_PATTERN.length()));
        return m;
    }

    /** Upstream's format name, e.g. {@code DNS1123Label}. */
    public String name() {
        return name;
    }

    /** The problems with {@code value}; empty when it conforms. */
    public List<String> validate(String value) {
        return validator.apply(value);
    }

    int maxRegexSize() {
        return maxRegexSize;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamedFormat other && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
