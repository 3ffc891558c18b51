package io.dra4j.sim;

import java.util.List;
import java.util.Objects;

/**
 * What became of one gang: pods placed all or nothing, as kube-scheduler's GangScheduling plugin and its pod group
 * cycle place a PodGroup with a gang policy.
 *
 * @param name          {@code PodGroup team-a/workers}, or for a gang marked with {@code --gang} the mark and its
 *                      value ({@code gang team-a/batch.kubernetes.io/job-name=train})
 * @param workload      the Workload and template a PodGroup refers to ({@code Workload team-a/training, template
 *                      workers}), empty when none
 * @param minCount      how many members must be placed together
 * @param members       the members, {@code namespace/name}, in queue order
 * @param placed        members bound at the end of the run (bound before it included)
 * @param fitted        members that fitted in the gang's last attempt (bound before it included), even when the
 *                      attempt was rolled back
 * @param fits          whether at least {@code minCount} members are bound
 * @param reason        for a gang that does not fit, the status its pod group cycle ended with (upstream's wording);
 *                      empty when it fits
 * @param firstUnfit    the first member (in queue order) that did not fit in the last attempt, empty when none
 * @param unfitReason   that member's own FitError message
 * @param unfitDraReason that member's DRA reason on the nearest node, empty when its claims were not the cause
 */
public record GangResult(
        String name,
        String workload,
        int minCount,
        List<String> members,
        int placed,
        int fitted,
        boolean fits,
        String reason,
        String firstUnfit,
        String unfitReason,
        String unfitDraReason) {
    public GangResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(workload, "workload");
        members = List.copyOf(members);
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(firstUnfit, "firstUnfit");
        Objects.requireNonNull(unfitReason, "unfitReason");
        Objects.requireNonNull(unfitDraReason, "unfitDraReason");
    }

    /** How many more members would have to fit: {@code minCount} less those that fitted, at least 0. */
    public int missing() {
        return Math.max(0, minCount - fitted);
    }
}
