package io.dra4j.allocator.properties;

import java.util.List;

/**
 * Plain generated descriptions of a small cluster and a pod's claims. Everything is an index into a small menu
 * (see {@link Menus}), so that QuickTheories can shrink a counterexample draw by draw; {@link Inputs} turns a
 * {@link Scenario} into the fabric8 objects the allocator takes.
 */
final class Spec {
    private Spec() {}

    /** Where a slice lives: on the node under test, on another node, or on all nodes. */
    enum Placement {
        NODE_A,
        NODE_B,
        ALL_NODES
    }

    /**
     * A device template; devices of a cluster are drawn from a few templates, so that devices that differ only by
     * name (or by a taint) are common, as on real nodes.
     *
     * @param model    index into {@link Menus#MODELS}
     * @param numa     int attribute value
     * @param fast     bool attribute value
     * @param pcieRoot index into {@link Menus#PCIE_ROOTS}, -1 for no such attribute
     * @param memory   index into {@link Menus#MEMORY_GI}
     * @param sharing  allowMultipleAllocations and its request policy
     * @param counter  index into {@link Menus#COUNTER_USE_GI}; 0 consumes no counters
     */
    record Dev(int model, int numa, boolean fast, int pcieRoot, int memory, Sharing sharing, int counter) {}

    /** A device: a template (modulo the number of templates) and a taint (index into {@link Menus#taint}, -1 none). */
    record DevRef(int template, int taint) {}

    /** allowMultipleAllocations and the request policy of its memory capacity (0 none, 1 validRange, 2 validValues). */
    record Sharing(boolean multi, int policy) {}

    /** A device slice of pool {@code pool} (0 or 1). */
    record Slice(int pool, Placement placement, List<DevRef> devices) {}

    /**
     * Per pool: the counter set's capacity (index into {@link Menus#COUNTER_SET_GI}, 0 for no counter set), where
     * the counter slice lives, and whether the pool claims one slice more than it has (incomplete).
     */
    record PoolSpec(int counterSet, Placement counterPlacement, boolean incomplete) {}

    record Cluster(List<PoolSpec> pools, List<Dev> templates, List<Slice> slices) {}

    /**
     * A request or subrequest.
     *
     * @param deviceClass index into {@link Menus#CLASSES}
     * @param selectors   indices into {@link Menus#SELECTORS}
     * @param all         allocationMode All instead of ExactCount
     * @param count       ExactCount count
     * @param tolerations indices into {@link Menus#toleration}
     * @param capacity    index into {@link Menus#CAPACITY_REQUEST_GI}; 0 requests no capacity
     */
    record Req(
            int deviceClass,
            List<Integer> selectors,
            boolean all,
            int count,
            List<Integer> tolerations,
            int capacity) {}

    /**
     * A claim request: either {@code exactly} or two or more subrequests.
     *
     * @param admin 0 unset, 1 adminAccess true, 2 adminAccess false (only for exactly)
     */
    record Request(Req exactly, int admin, List<Req> firstAvailable) {}

    /**
     * A claim constraint over {@link Menus#CONSTRAINT_ATTRIBUTES}; {@code requests} are references r + 3 * (sub + 1)
     * for request r and subrequest sub (-1 for the request itself); empty means all requests.
     */
    record Con(boolean match, int attribute, List<Integer> requests) {}

    record Claim(List<Request> requests, List<Con> constraints) {}

    /** A device already in use: exclusively, or (for a multi-allocatable device) one share with this consumption. */
    record Used(int device, boolean shared, int consumed) {}

    /**
     * A DeviceTaintRule for the taint {@link Menus#taint}({@code taint}) on the devices of pool {@code pool} (-1 for
     * every pool) named by device number {@code device} (modulo the number of devices; -1 for every device).
     */
    record Rule(int pool, int device, int taint) {}

    /** Everything one property run needs. {@code gates} is an index into {@link Menus#gates}. */
    record Scenario(Cluster cluster, List<Claim> claims, List<Used> used, List<Rule> rules, int gates) {}
}
