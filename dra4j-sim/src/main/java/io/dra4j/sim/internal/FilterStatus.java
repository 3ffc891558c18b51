package io.dra4j.sim.internal;

import java.util.List;

/**
 * A plugin's verdict that a node does not fit (success is {@code null}): Unschedulable, UnschedulableAndUnresolvable
 * (preemption cannot help) or Error, with upstream's reason texts (a node can fail for several reasons at once).
 */
record FilterStatus(Code code, String plugin, List<String> reasons) {
    enum Code {
        UNSCHEDULABLE,
        UNRESOLVABLE,
        ERROR
    }

    FilterStatus {
        reasons = List.copyOf(reasons);
    }

    static FilterStatus unschedulable(String plugin, String... reasons) {
        return new FilterStatus(Code.UNSCHEDULABLE, plugin, List.of(reasons));
    }

    static FilterStatus unresolvable(String plugin, String... reasons) {
        return new FilterStatus(Code.UNRESOLVABLE, plugin, List.of(reasons));
    }

    static FilterStatus error(String plugin, String reason) {
        return new FilterStatus(Code.ERROR, plugin, List.of(reason));
    }
}
