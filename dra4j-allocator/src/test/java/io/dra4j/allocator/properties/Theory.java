package io.dra4j.allocator.properties;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Configuration;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Strategy;

/**
 * Runs a property with QuickTheories: a fixed number of tries, the first counterexample shrunk, the seed
 * reproducible. The seed is {@code -DQT_SEED=N} when given (Maven passes it to the tests), else the clock; it is
 * printed after a passing run and is part of a failure's message ("Seed was N"), so that
 * {@code mvn test -Dtest=Class#method -DQT_SEED=N} replays the same values and the same shrinking. Shrinking runs
 * QuickTheories' default number of cycles (100 per try), or {@code -DQT_SHRINKS}.
 */
final class Theory {
    private Theory() {}

    /** Checks {@code property} on {@code tries} values of {@code values}; it fails by throwing (an assertion). */
    static <T> void check(int tries, Gen<T> values, BiConsumer<T, Tallies> property) {
        check(tries, values, v -> true, property);
    }

    /**
     * Checks {@code property} on {@code tries} values of {@code values} that satisfy {@code assumption}; values that
     * do not are drawn again (up to QuickTheories' generate attempts), not counted as tries.
     */
    static <T> void check(int tries, Gen<T> values, Predicate<T> assumption, BiConsumer<T, Tallies> property) {
        String name = StackWalker.getInstance()
                .walk(frames -> frames.dropWhile(f -> f.getClassName().equals(Theory.class.getName()))
                        .findFirst()
                        .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                                + f.getMethodName())
                        .orElseThrow());
        Strategy base = Configuration.systemStrategy();
        Strategy strategy = base.withExamples(tries)
                .withShrinkCycles(
                        System.getProperty(Configuration.SHRINKS) != null ? base.shrinkCycles() : tries * 100);
        long seed = strategy.prng().getInitialSeed();
        Tallies tallies = new Tallies();
        // Shrinking changes one draw at a time, and many draws do not change the value (an element past a list's
        // size, a weighted choice not taken): a value met again fails or passes as it did, without running again.
        Map<T, Optional<Throwable>> verdicts = new HashMap<>();
        QuickTheory.qt(() -> strategy).forAll(values).assuming(assumption).checkAssert(v -> {
            Optional<Throwable> verdict = verdicts.get(v);
            if (verdict == null) {
                verdict = run(property, v, tallies);
                verdicts.put(v, verdict);
            }
            verdict.ifPresent(Theory::rethrow);
        });
        // QuickTheories skips draws it made before, and a value met again is not checked again, so a few tries may
        // check nothing new; far fewer checks than tries means the property did not really run.
        if (verdicts.size() < tries * 9 / 10) {
            throw new AssertionError(
                    name + ": only " + verdicts.size() + " of " + tries + " tries checked (seed " + seed + ")");
        }
        System.out.println(
                name + ": " + verdicts.size() + " of " + tries + " tries checked distinct values, seed " + seed);
        if (!tallies.isEmpty()) {
            System.out.println(tallies.format());
        }
    }

    /** Runs the property once: empty when it holds, else how it failed. */
    private static <T> Optional<Throwable> run(BiConsumer<T, Tallies> property, T value, Tallies tallies) {
        try {
            property.accept(value, tallies);
            return Optional.empty();
        } catch (RuntimeException | AssertionError e) {
            return Optional.of(e);
        }
    }

    private static void rethrow(Throwable failure) {
        if (failure instanceof Error e) {
            throw e;
        }
        throw (RuntimeException) failure;
    }
}
