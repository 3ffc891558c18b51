package io.dra4j.allocator.internal;

import java.util.List;

/**
 * The checks a device passes before the search takes it for a request, each named as the explanation funnel names
 * its stage. {@link #order} is the one order both use: the funnel runs its stages in it, and the search reports a
 * rejected candidate by the stage that rejected it ({@link Search.RejectionObserver}), so a test can hold the two
 * against each other.
 */
public enum CheckStage {
    IN_USE("not in use"),
    BINDING_CONDITIONS("binding conditions supported"),
    CLASS_SELECTORS("class selectors"),
    REQUEST_SELECTORS("request selectors"),
    NODE_SELECTION("node selection"),
    /** All mode only: the device's own capacity, before any consumption, can serve the request. */
    STATIC_CAPACITY("static capacity sufficient"),
    CAPACITY("capacity available"),
    NODE_OPERATIONS("node operations supported"),
    PARTITIONABLE_GATE("partitionable devices supported"),
    COUNTERS("counters available"),
    TAINTS("taints tolerated"),
    CONSTRAINTS("constraints");

    /** The funnel's first stage, before any check: the devices of the usable pools the node sees. */
    public static final String POOLS = "devices in usable pools";

    // An ExactCount slot skips a device in use before any selector (upstream allocateOne: "Checking for 'in use' is
    // cheap and thus gets done first") and checks the requested capacity before allocateDevice; an All-mode request
    // lists its devices by the selectors and their static capacity first (PrePass.enumerateAll: a device without
    // enough capacity of its own is not one of "all" devices) and meets the rest only in allocateDevice, in its
    // order: in use, node operations, partitionable gate, counters, taints, constraints, capacity.
    private static final List<CheckStage> EXACT_COUNT = List.of(
            IN_USE,
            BINDING_CONDITIONS,
            CLASS_SELECTORS,
            REQUEST_SELECTORS,
            NODE_SELECTION,
            CAPACITY,
            NODE_OPERATIONS,
            PARTITIONABLE_GATE,
            COUNTERS,
            TAINTS,
            CONSTRAINTS);
    private static final List<CheckStage> ALL = List.of(
            BINDING_CONDITIONS,
            CLASS_SELECTORS,
            REQUEST_SELECTORS,
            NODE_SELECTION,
            STATIC_CAPACITY,
            IN_USE,
            NODE_OPERATIONS,
            PARTITIONABLE_GATE,
            COUNTERS,
            TAINTS,
            CONSTRAINTS,
            CAPACITY);

    private final String label;

    CheckStage(String label) {
        this.label = label;
    }

    /** The stage's name in explanations. */
    public String label() {
        return label;
    }

    /** The checks in the order the search applies them to a request of this mode. */
    public static List<CheckStage> order(boolean allMode) {
        return allMode ? ALL : EXACT_COUNT;
    }
}
