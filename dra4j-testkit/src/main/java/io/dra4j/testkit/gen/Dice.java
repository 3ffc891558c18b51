package io.dra4j.testkit.gen;

import java.util.List;
import java.util.SplittableRandom;

/** The random choices of one scenario; a thin layer over one {@link SplittableRandom}, so generation is repeatable. */
final class Dice {
    private final SplittableRandom random;

    Dice(SplittableRandom random) {
        this.random = random;
    }

    /** True with probability {@code p}. */
    boolean chance(double p) {
        return random.nextDouble() < p;
    }

    /** A number in {@code [min, max]}. */
    int between(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    @SafeVarargs
    final <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }

    /** Index {@code i} with probability proportional to {@code weights[i]}. */
    int weighted(int... weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new IllegalStateException("unreachable");
    }
}
