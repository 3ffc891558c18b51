package io.dra4j.sim.internal;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Object names as controllers and the API server make them, with a deterministic stand-in for randomness: where the
 * API server appends five random characters to a {@code generateName}, dra4j appends five characters of the same
 * alphabet ({@code bcdfghjklmnpqrstvwxz2456789}) taken from an FNV-1a hash of the namespace, the base name and an
 * attempt number, trying the next attempt while the name is taken. Runs over the same input name objects alike.
 */
final class Names {
    static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
    private static final int MAX_GENERATED_BASE = 58;

    private Names() {}

    /** The API server's SimpleNameGenerator: base cut to 58 characters, then five characters. */
    static String generate(String namespace, String base, Predicate<String> taken) {
        String b = base.length() > MAX_GENERATED_BASE ? base.substring(0, MAX_GENERATED_BASE) : base;
        for (int attempt = 0; ; attempt++) {
            String name = b + suffix(namespace + "/" + b + "/" + attempt);
            if (!taken.test(name)) {
                return name;
            }
        }
    }

    static String suffix(String seed) {
        long h = fnv1a64(seed);
        StringBuilder out = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            out.append(ALPHANUMS.charAt((int) Long.remainderUnsigned(h, ALPHANUMS.length())));
            h = Long.divideUnsigned(h, ALPHANUMS.length());
        }
        return out.toString();
    }

    /**
     * The resourceclaim controller's generateName for a claim from a template: {@code <pod>-<claim>-}, and when
     * that exceeds 57 characters both parts cut in proportion to their length (and no trailing hyphen), as upstream.
     */
    static String claimGenerateName(String podName, String podClaimName) {
        String generateName = podName + "-" + podClaimName + "-";
        int maxBaseLen = 57;
        if (generateName.length() > maxBaseLen) {
            int len = generateName.length();
            generateName = podName.substring(0, podName.length() * maxBaseLen / len) + "-"
                    + podClaimName.substring(0, podClaimName.length() * maxBaseLen / len);
        }
        return generateName;
    }

    /**
     * kube-controller-manager's pod-template-hash is FNV-32a over a deep print of the template, written as its
     * decimal digits mapped into {@link #ALPHANUMS} (rand.SafeEncodeString); dra4j hashes the template's canonical
     * JSON instead, so the value differs from the controller's but is stable for the same template.
     */
    static String podTemplateHash(String canonicalTemplate) {
        int h = 0x811c9dc5;
        for (byte b : canonicalTemplate.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x01000193;
        }
        String digits = Integer.toUnsignedString(h);
        StringBuilder out = new StringBuilder();
        for (char c : digits.toCharArray()) {
            out.append(ALPHANUMS.charAt(c % ALPHANUMS.length()));
        }
        return out.toString();
    }

    private static long fnv1a64(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
