package io.dra4j.cel;

/** Go numeric helpers whose exact results matter for fidelity: math.Pow10, float-to-int64 and ParseInt. */
final class GoFloat {

    private static final double[] POW10 = {
        1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09,
        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
        1e30, 1e31,
    };
    private static final double[] POW10_POS32 = {
        1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288,
    };
    private static final double[] POW10_NEG32 = {
        1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
    };
    private static final double TWO_POW_63 = 9.223372036854775807E18;

    private GoFloat() {}

    /** Go's math.Pow10, computed from the same tables so results are bit-identical. */
    static double pow10(int n) {
        if (n >= 0 && n <= 308) {
            return POW10_POS32[n / 32] * POW10[n % 32];
        }
        if (n >= -323 && n <= 0) {
            return POW10_NEG32[-n / 32] / POW10[-n % 32];
        }
        return n > 0 ? Double.POSITIVE_INFINITY : 0;
    }

    /** {@code int64(math.Pow10(n))} as compiled for amd64: out-of-range values become the most negative int64. */
    static long pow10AsInt64(int n) {
        double p = pow10(n);
        if (p >= TWO_POW_63 || Double.isNaN(p)) {
            return Long.MIN_VALUE;
        }
        return (long) p;
    }

    /** Go's strconv.ParseInt(s, 10, 64); null on syntax or range error. */
    static Long parseInt64(String s) {
        int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
        if (start == s.length()) {
            return null;
        }
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException outOfRange) {
            return null;
        }
    }
}
