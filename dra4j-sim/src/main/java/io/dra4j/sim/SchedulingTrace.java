package io.dra4j.sim;

/**
 * Receives every scheduling attempt of a run as it happens, in the order the simulator makes them (queue order,
 * pass after pass): what the differential test against kube-scheduler compares. Called on the simulating thread;
 * an implementation must not modify the simulation's objects it is handed.
 */
@FunctionalInterface
public interface SchedulingTrace {
    void attempt(TraceAttempt attempt);
}
