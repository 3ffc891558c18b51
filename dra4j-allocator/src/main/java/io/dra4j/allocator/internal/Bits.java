package io.dra4j.allocator.internal;

/**
 * Bit sets as plain {@code long[]} words, for the per-call search state where {@link java.util.BitSet}'s resizing
 * and copies cost more than the operations: all sets of one kind have the same number of words.
 */
final class Bits {
    private Bits() {}

    static int words(int bits) {
        return (bits + 63) >>> 6;
    }

    static void set(long[] b, int i) {
        b[i >>> 6] |= 1L << i;
    }

    static void clear(long[] b, int i) {
        b[i >>> 6] &= ~(1L << i);
    }

    static boolean get(long[] b, int i) {
        return (b[i >>> 6] & (1L << i)) != 0;
    }

    /** The first set bit at or after from, or -1. */
    static int nextSet(long[] b, int from) {
        int w = from >>> 6;
        if (w >= b.length) {
            return -1;
        }
        long word = b[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == b.length) {
                return -1;
            }
            word = b[w];
        }
    }

    /** How many bits are set in a, and in b, and not in minus (any of them may be longer than a). */
    static int countAndAndNot(long[] a, long[] b, long[] minus) {
        int n = 0;
        for (int w = 0; w < a.length; w++) {
            n += Long.bitCount(a[w] & b[w] & ~minus[w]);
        }
        return n;
    }

    /** How many bits are set in a and not in minus. */
    static int countAndNot(long[] a, long[] minus) {
        int n = 0;
        for (int w = 0; w < a.length; w++) {
            n += Long.bitCount(a[w] & ~minus[w]);
        }
        return n;
    }

    static int count(long[] a) {
        int n = 0;
        for (long w : a) {
            n += Long.bitCount(w);
        }
        return n;
    }
}
