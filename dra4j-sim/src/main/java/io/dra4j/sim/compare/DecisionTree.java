package io.dra4j.sim.compare;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationResult;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * "Do we need to migrate?" answered from the workloads themselves: for each question of the decision tree (what
 * device plugins cannot express), whether a workload of the snapshot needs it, which ones, and in which claim
 * requests. A claim is looked at as its pods use it (a template's claims once per template), after the
 * controllers created the pods; a claim no pod uses (and no pod owns) counts as its own workload. The device-dependent questions
 * (network devices, partitions) are asked of the devices each request could get ({@link DeviceCandidates}): a request
 * needs them when every device it could get is one.
 */
public final class DecisionTree {
    /** The questions, in the order of the seeds' decision tree. */
    public enum Need {
        ATTRIBUTE_SELECTION("attributeSelection", "attribute selection (CEL selectors beyond the device class)"),
        SHARING("sharing", "sharing (a claim shared by pods, consumable capacity, admin access)"),
        TOPOLOGY("topology", "topology (matchAttribute / distinctAttribute constraints across devices)"),
        NETWORK_DEVICES("networkDevices", "network-attached devices (slices not on one node, binding conditions)"),
        PARTITIONABLE_DEVICES(
                "partitionableDevices", "partitionable devices (partitions drawing on shared counters, " + "as MIG)"),
        PRIORITIZED_LISTS("prioritizedLists", "prioritized lists (firstAvailable alternatives)");

        private final String key;
        private final String question;

        Need(String key, String question) {
            this.key = key;
            this.question = question;
        }

        /** The JSON name. */
        public String key() {
            return key;
        }

        public String question() {
            return question;
        }
    }

    /**
     * One question's answer.
     *
     * @param workloads the workloads that need it ({@code Job ns/name}, {@code Pod ns/name} for a bare pod,
     *                  {@code ResourceClaim ns/name} for a claim no pod uses), sorted
     * @param uses      per claim request, {@code ns/claim-or-template/request: what it uses}, sorted
     */
    public record Answer(Need need, List<String> workloads, List<String> uses) {
        public Answer {
            Objects.requireNonNull(need, "need");
            workloads = List.copyOf(workloads);
            uses = List.copyOf(uses);
        }

        public boolean needed() {
            return !workloads.isEmpty();
        }
    }

    private final DeviceCandidates candidates;
    private final Map<String, Map<String, BigDecimal>> counterSets = new HashMap<>();
    private final Map<Need, Set<String>> workloads = new EnumMap<>(Need.class);
    private final Map<Need, Set<String>> uses = new EnumMap<>(Need.class);

    private DecisionTree(ClusterSnapshot snapshot, FeatureGates gates) {
        this.candidates = new DeviceCandidates(snapshot.deviceClasses(), snapshot.resourceSlices(), gates);
        for (ResourceSlice s : snapshot.resourceSlices()) {
            for (CounterSet cs : Inventory.list(s.getSpec().getSharedCounters())) {
                Map<String, BigDecimal> m = new HashMap<>();
                if (cs.getCounters() != null) {
                    cs.getCounters().forEach((k, v) -> m.put(k, Quantity.getAmountInBytes(v.getValue())));
                }
                counterSets.put(
                        s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName() + "/" + cs.getName(), m);
            }
        }
        for (Need n : Need.values()) {
            workloads.put(n, new TreeSet<>());
            uses.put(n, new TreeSet<>());
        }
    }

    /** The answers for the workloads of a DRA run (its final state: the controllers' pods and claims included). */
    public static List<Answer> of(SimulationResult draRun, FeatureGates gates) {
        ClusterSnapshot s = draRun.finalState();
        DecisionTree t = new DecisionTree(s, gates);
        Map<String, String> workloadOf = new HashMap<>();
        for (PodResult p : draRun.pods()) {
            workloadOf.put(
                    p.namespace() + "/" + p.name(),
                    p.workload().isEmpty() ? "Pod " + p.namespace() + "/" + p.name() : p.workload());
        }
        Map<String, ResourceClaim> claims = new HashMap<>();
        s.resourceClaims()
                .forEach(c -> claims.put(
                        c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c));
        Map<String, ResourceClaimTemplate> templates = new HashMap<>();
        s.resourceClaimTemplates()
                .forEach(c -> templates.put(
                        io.dra4j.scenario.Manifests.namespaceOf(c) + "/"
                                + c.getMetadata().getName(),
                        c));

        // Claims as their pods use them: by name (shared when more than one pod names it) or from a template.
        Map<String, Set<String>> claimUsers = new LinkedHashMap<>();
        Map<String, Set<String>> claimPods = new HashMap<>();
        Map<String, DeviceClaim> specs = new LinkedHashMap<>();
        Set<String> used = new TreeSet<>();
        for (Pod p : s.pods()) {
            String ns = p.getMetadata().getNamespace();
            String podKey = ns + "/" + p.getMetadata().getName();
            String workload = workloadOf.getOrDefault(podKey, "Pod " + podKey);
            for (PodResourceClaim pc : Inventory.list(p.getSpec().getResourceClaims())) {
                String key;
                DeviceClaim spec;
                if (pc.getResourceClaimName() != null) {
                    key = ns + "/" + pc.getResourceClaimName();
                    ResourceClaim c = claims.get(key);
                    spec = c == null ? null : c.getSpec().getDevices();
                } else if (pc.getResourceClaimTemplateName() != null) {
                    key = ns + "/" + pc.getResourceClaimTemplateName();
                    ResourceClaimTemplate tpl = templates.get(key);
                    spec = tpl == null ? null : tpl.getSpec().getSpec().getDevices();
                } else {
                    continue;
                }
                if (spec == null) {
                    continue;
                }
                used.add(key);
                specs.put(key, spec);
                claimUsers.computeIfAbsent(key, k -> new TreeSet<>()).add(workload);
                if (pc.getResourceClaimName() != null) {
                    claimPods.computeIfAbsent(key, k -> new TreeSet<>()).add(podKey);
                }
            }
        }
        for (ResourceClaim c : s.resourceClaims()) {
            String key = c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
            boolean podsOwn = Inventory.list(c.getMetadata().getOwnerReferences()).stream()
                    .anyMatch(o -> "Pod".equals(o.getKind()));
            if (!used.contains(key) && !podsOwn) {
                specs.put(key, c.getSpec().getDevices());
                claimUsers.put(key, Set.of("ResourceClaim " + key));
            }
        }
        specs.forEach((key, spec) -> t.claim(key, spec, claimUsers.get(key), claimPods.getOrDefault(key, Set.of())));
        List<Answer> out = new ArrayList<>();
        for (Need n : Need.values()) {
            out.add(new Answer(n, List.copyOf(t.workloads.get(n)), List.copyOf(t.uses.get(n))));
        }
        return out;
    }

    // Each question asked of one claim: its requests' selectors, capacity, admin access and alternatives, its
    // constraints, its users, and the devices each request could get.
    private void claim(String key, DeviceClaim spec, Set<String> users, Set<String> pods) {
        if (spec == null) {
            return;
        }
        if (pods.size() > 1) {
            record(Need.SHARING, users, key + ": shared by " + pods.size() + " pods");
        }
        for (DeviceConstraint c : Inventory.list(spec.getConstraints())) {
            String what = c.getMatchAttribute() != null
                    ? "matchAttribute " + c.getMatchAttribute()
                    : "distinctAttribute " + c.getDistinctAttribute();
            record(
                    Need.TOPOLOGY,
                    users,
                    key + ": " + what
                            + (c.getRequests() == null || c.getRequests().isEmpty()
                                    ? ""
                                    : " across " + String.join(", ", c.getRequests())));
        }
        for (DeviceRequest r : Inventory.list(spec.getRequests())) {
            String at = key + "/" + r.getName();
            List<ExactDeviceRequest> alternatives = new ArrayList<>();
            if (r.getExactly() != null) {
                alternatives.add(r.getExactly());
            }
            List<DeviceSubRequest> subs = Inventory.list(r.getFirstAvailable());
            if (!subs.isEmpty()) {
                record(
                        Need.PRIORITIZED_LISTS,
                        users,
                        at + ": firstAvailable "
                                + subs.stream()
                                        .map(x -> x.getName() + " (" + x.getDeviceClassName() + ")")
                                        .toList());
            }
            for (DeviceSubRequest x : subs) {
                alternatives.add(new ExactDeviceRequestBuilder()
                        .withDeviceClassName(x.getDeviceClassName())
                        .withSelectors(x.getSelectors())
                        .withAllocationMode(x.getAllocationMode())
                        .withCount(x.getCount())
                        .withCapacity(x.getCapacity())
                        .build());
            }
            for (ExactDeviceRequest e : alternatives) {
                for (DeviceSelector sel : Inventory.list(e.getSelectors())) {
                    if (sel.getCel() != null) {
                        record(
                                Need.ATTRIBUTE_SELECTION,
                                users,
                                at + ": " + sel.getCel().getExpression());
                    }
                }
                if (e.getCapacity() != null
                        && e.getCapacity().getRequests() != null
                        && !e.getCapacity().getRequests().isEmpty()) {
                    record(
                            Need.SHARING,
                            users,
                            at + ": consumable capacity "
                                    + new java.util.TreeMap<>(e.getCapacity().getRequests())
                                            .entrySet().stream()
                                                    .map(q -> q.getKey() + "=" + q.getValue())
                                                    .toList());
                }
                if (Boolean.TRUE.equals(e.getAdminAccess())) {
                    record(Need.SHARING, users, at + ": adminAccess");
                }
                devices(at, e, users);
            }
        }
    }

    private void devices(String at, ExactDeviceRequest e, Set<String> users) {
        List<DeviceCandidates.Candidate> can = candidates.of(e);
        if (can.isEmpty()) {
            return;
        }
        if (can.stream()
                .allMatch(c -> !c.nodeLocal()
                        || !Inventory.list(c.device().getBindingConditions()).isEmpty()
                        || Boolean.TRUE.equals(c.device().getBindsToNode()))) {
            long conditioned = can.stream()
                    .filter(c ->
                            !Inventory.list(c.device().getBindingConditions()).isEmpty())
                    .count();
            record(
                    Need.NETWORK_DEVICES,
                    users,
                    at + ": all " + can.size() + " matching device(s) network-attached"
                            + (conditioned == 0 ? "" : ", " + conditioned + " with binding conditions"));
        }
        if (can.stream().allMatch(this::partition)) {
            record(
                    Need.PARTITIONABLE_DEVICES,
                    users,
                    at + ": all " + can.size() + " matching device(s) are partitions of shared counters");
        }
    }

    /** A partition: the device draws less than the whole of some counter of a shared counter set. */
    private boolean partition(DeviceCandidates.Candidate c) {
        String prefix = c.slice().getSpec().getDriver() + "/"
                + c.slice().getSpec().getPool().getName() + "/";
        for (DeviceCounterConsumption cc : Inventory.list(c.device().getConsumesCounters())) {
            Map<String, BigDecimal> set = counterSets.get(prefix + cc.getCounterSet());
            if (set == null || cc.getCounters() == null) {
                continue;
            }
            for (var counter : cc.getCounters().entrySet()) {
                BigDecimal whole = set.get(counter.getKey());
                if (whole != null
                        && Quantity.getAmountInBytes(counter.getValue().getValue())
                                        .compareTo(whole)
                                < 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private void record(Need n, Set<String> users, String use) {
        workloads.get(n).addAll(users);
        uses.get(n).add(use);
    }
}
