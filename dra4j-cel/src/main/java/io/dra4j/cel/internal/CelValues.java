package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;
import io.dra4j.cel.KubeQuantity;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * CEL runtime equality and ordering on cel-java's Java value representations, following cel-go's semantics
 * (heterogeneous numeric equality and ordering, strings ordered by code point as Go orders UTF-8 bytes).
 */
final class CelValues {

    /** The result of comparing two values that have no order (different kinds, or NaN). */
    static final int UNORDERED = Integer.MIN_VALUE;

    private CelValues() {}

    /**
     * Whether cel-go's {@code receiver.Equal(other)} is true, as the Kubernetes list library's {@code indexOf},
     * {@code lastIndexOf} and {@code includes} test it: {@link #equal}, except that a quantity never equals a result
     * of {@code add} or {@code sub} given as {@code other}, which upstream returns as a {@code *cel.Quantity} that
     * {@code cel.Quantity}'s {@code Equal} does not accept ({@link KubeQuantity#asGoPointer()}).
     */
    static boolean receiverEquals(Object receiver, Object other) {
        if (receiver instanceof KubeQuantity && other instanceof KubeQuantity q && q.isGoPointer()) {
            return false;
        }
        return equal(receiver, other);
    }

    /** CEL {@code ==}. */
    static boolean equal(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            int c = compareNumbers(a, b);
            return c == 0;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!equal(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (ma.size() != mb.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                Object key = findKey(mb, e.getKey());
                if (key == null || !equal(e.getValue(), mb.get(key))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    private static Object findKey(Map<?, ?> map, Object key) {
        if (map.containsKey(key)) {
            return key;
        }
        for (Object k : map.keySet()) {
            if (equal(k, key)) {
                return k;
            }
        }
        return null;
    }

    /** CEL ordering: negative, zero or positive, or {@link #UNORDERED}. */
    static int compare(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            return compareNumbers(a, b);
        }
        if (a instanceof String sa && b instanceof String sb) {
            return Integer.signum(compareCodePoints(sa, sb));
        }
        if (a instanceof Boolean ba && b instanceof Boolean bb) {
            return Boolean.compare(ba, bb);
        }
        if (a instanceof Duration da && b instanceof Duration db) {
            return Integer.signum(da.compareTo(db));
        }
        if (a instanceof Instant ia && b instanceof Instant ib) {
            return Integer.signum(ia.compareTo(ib));
        }
        if (a instanceof CelByteString ba && b instanceof CelByteString bb) {
            return Integer.signum(compareBytes(ba.toByteArray(), bb.toByteArray()));
        }
        return UNORDERED;
    }

    static boolean isNumber(Object o) {
        return o instanceof Long || o instanceof Double || o instanceof UnsignedLong;
    }

    private static int compareNumbers(Object a, Object b) {
        if (a instanceof Double da && Double.isNaN(da) || b instanceof Double db && Double.isNaN(db)) {
            return UNORDERED;
        }
        if (a instanceof Long la && b instanceof Long lb) {
            return Long.compare(la, lb);
        }
        if (a instanceof UnsignedLong ua && b instanceof UnsignedLong ub) {
            return Integer.signum(ua.compareTo(ub));
        }
        return Integer.signum(
                new java.math.BigDecimal(numberText(a)).compareTo(new java.math.BigDecimal(numberText(b))));
    }

    private static String numberText(Object n) {
        if (n instanceof Double d) {
            if (Double.isInfinite(d)) {
                return d > 0 ? "1e400" : "-1e400";
            }
            return new java.math.BigDecimal(d).toString();
        }
        return n.toString();
    }

    /** Code point order, which is the order of the UTF-8 encodings Go compares. */
    static int compareCodePoints(String a, String b) {
        Iterator<Integer> ia = a.codePoints().iterator();
        Iterator<Integer> ib = b.codePoints().iterator();
        while (ia.hasNext() && ib.hasNext()) {
            int c = Integer.compare(ia.next(), ib.next());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(ia.hasNext(), ib.hasNext());
    }

    private static int compareBytes(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length, b.length);
    }
}
