package io.dra4j.sim.internal;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.whatif.LabelQuery;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.Workload;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gangs of a run, found once the controllers created the pods: a pod naming a PodGroup in
 * {@code spec.schedulingGroup.podGroupName} whose {@code schedulingPolicy} is {@code gang} belongs to that PodGroup's
 * gang (a {@code basic} policy makes a group scheduled in one pod group cycle too, as kube-scheduler 1.37 schedules
 * every PodGroup's pods, with minCount 1, not reported as a gang); a pod naming a PodGroup that does not exist waits in PreEnqueue, as
 * GangScheduling keeps it; pods in no PodGroup may be marked as gangs with {@code --gang}. Finished pods belong to no
 * gang.
 */
final class Gangs {
    /**
     * One gang; its members are kept by {@link Gangs}, as pods re-created by their controllers join it.
     *
     * @param podGroup the PodGroup's priority as written ({@code spec.priority}, {@code spec.priorityClassName}), null
     *                 for a gang marked with {@code --gang}
     * @param basic    a PodGroup with a {@code basic} policy: its pods go through one pod group cycle (no per-pod
     *                 preemption), minCount 1, and it is not reported as a gang
     */
    record Gang(String name, String workload, int minCount, PodGroupPriority podGroup, boolean basic) {}

    /** A PodGroup's {@code spec.priority} (null when unset) and {@code spec.priorityClassName} (null when unset). */
    record PodGroupPriority(Integer priority, String priorityClassName) {}

    private final List<Gang> gangs = new ArrayList<>();
    private final Map<Gang, List<String>> members = new HashMap<>();
    private final Map<String, Gang> byPod = new HashMap<>();
    private final Map<String, String> blocked = new HashMap<>();

    /**
     * @param notes receives what is read but not simulated (a PodGroup's own resourceClaims)
     */
    Gangs(
            Collection<Pod> pods,
            List<PodGroup> podGroups,
            List<Workload> workloads,
            List<SimulationOptions.Gang> marks,
            List<String> notes) {
        Map<String, PodGroup> groups = new HashMap<>();
        for (PodGroup g : podGroups) {
            groups.put(Manifests.namespaceOf(g) + "/" + g.getMetadata().getName(), g);
            if (g.getSpec() != null
                    && !Selectors.list(g.getSpec().getResourceClaims()).isEmpty()) {
                notes.add(
                        "PodGroup " + Manifests.namespaceOf(g) + "/"
                                + g.getMetadata().getName()
                                + ": spec.resourceClaims (DRAWorkloadResourceClaims) are not simulated; the pods' own claims are");
            }
        }
        Set<String> workloadNames = new HashSet<>();
        workloads.forEach(w -> workloadNames.add(
                Manifests.namespaceOf(w) + "/" + w.getMetadata().getName()));

        // PodGroups first: the API objects say what the scheduler does; --gang marks only pods in no PodGroup.
        Map<String, List<String>> found = new LinkedHashMap<>();
        Map<String, Integer> minCounts = new HashMap<>();
        Map<String, String> workloadOf = new HashMap<>();
        Map<String, PodGroupPriority> priorities = new HashMap<>();
        Set<String> basic = new HashSet<>();
        List<Pod> unmarked = new ArrayList<>();
        for (Pod p : pods) {
            if (PodPhase.terminal(p)) {
                continue;
            }
            String key = Simulation.key(p);
            var group = p.getSpec().getSchedulingGroup();
            if (group == null || group.getPodGroupName() == null) {
                unmarked.add(p);
                continue;
            }
            String groupKey = Simulation.ns(p) + "/" + group.getPodGroupName();
            PodGroup g = groups.get(groupKey);
            if (g == null) {
                blocked.put(
                        key,
                        "waiting for pods's pod group \"" + group.getPodGroupName()
                                + "\" to appear in scheduling queue");
                continue;
            }
            var policy = g.getSpec() == null ? null : g.getSpec().getSchedulingPolicy();
            String name = "PodGroup " + groupKey;
            found.computeIfAbsent(name, k -> new ArrayList<>()).add(key);
            if (policy == null || policy.getGang() == null) {
                // A basic policy: one pod group cycle all the same, GangScheduling's PlacementFeasible asking for one.
                basic.add(name);
                minCounts.put(name, 1);
            } else {
                Integer min = policy.getGang().getMinCount();
                minCounts.put(name, min == null ? 1 : min);
            }
            workloadOf.put(name, workloadOf(g, workloadNames));
            priorities.put(
                    name,
                    new PodGroupPriority(g.getSpec().getPriority(), g.getSpec().getPriorityClassName()));
        }
        for (SimulationOptions.Gang mark : marks) {
            LabelQuery selector = mark.byKey() ? null : LabelQuery.parse(mark.text());
            List<Pod> left = new ArrayList<>();
            for (Pod p : unmarked) {
                Map<String, String> labels = p.getMetadata().getLabels() == null
                        ? Map.of()
                        : p.getMetadata().getLabels();
                String name = null;
                if (selector == null && labels.containsKey(mark.text())) {
                    name = "gang " + Simulation.ns(p) + "/" + mark.text() + "=" + labels.get(mark.text());
                } else if (selector != null && selector.test(labels)) {
                    name = "gang " + Simulation.ns(p) + "/" + mark.text();
                }
                if (name == null) {
                    left.add(p);
                } else {
                    found.computeIfAbsent(name, k -> new ArrayList<>()).add(Simulation.key(p));
                }
            }
            unmarked = left;
        }
        found.forEach((name, keys) -> {
            Gang g = new Gang(
                    name,
                    workloadOf.getOrDefault(name, ""),
                    minCounts.getOrDefault(name, keys.size()),
                    priorities.get(name),
                    basic.contains(name));
            gangs.add(g);
            members.put(g, new ArrayList<>(keys));
            keys.forEach(k -> byPod.put(k, g));
        });
    }

    private static String workloadOf(PodGroup g, Set<String> workloads) {
        var ref = g.getSpec().getWorkloadRef();
        if (ref == null || ref.getWorkloadName() == null) {
            return "";
        }
        String key = Manifests.namespaceOf(g) + "/" + ref.getWorkloadName();
        return "Workload " + key + (workloads.contains(key) ? "" : " (not in the snapshot)")
                + (ref.getTemplateName() == null ? "" : ", template " + ref.getTemplateName());
    }

    List<Gang> all() {
        return List.copyOf(gangs);
    }

    /** The gang's members, {@code namespace/name}, in the order they joined. */
    List<String> members(Gang g) {
        return List.copyOf(members.get(g));
    }

    /** A deleted member's replacement, created by its controller, takes its place in the gang. */
    void replaced(Pod deleted, Pod replacement) {
        Gang g = of(deleted);
        if (g == null) {
            return;
        }
        List<String> m = members.get(g);
        m.remove(Simulation.key(deleted));
        m.add(Simulation.key(replacement));
        byPod.put(Simulation.key(replacement), g);
    }

    /** The pod's gang, or null. */
    Gang of(Pod p) {
        return byPod.get(Simulation.key(p));
    }

    /** GangScheduling's PreEnqueue message for a pod whose PodGroup does not exist, or null. */
    String blocked(Pod p) {
        return blocked.get(Simulation.key(p));
    }
}
