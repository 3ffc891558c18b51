package io.dra4j.sim.internal;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.WorkloadPods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Creates the pods that workload controllers would create, named as they name them: a Deployment's ReplicaSet
 * {@code <deployment>-<pod-template-hash>} and its pods {@code <replicaset>-<5 characters>}; a StatefulSet's
 * {@code <name>-<ordinal>}; a Job's {@code <job>-<5 characters>} (Indexed: {@code <job>-<index>-<5 characters>});
 * a DaemonSet's {@code <daemonset>-<5 characters>} for every node its pods tolerate and select. Pods that already
 * exist for a workload (by controller owner reference, or by a StatefulSet pod's name) count towards its replicas.
 * Random parts are {@link Names}' deterministic stand-ins.
 *
 * <p>A Deployment, ReplicaSet, StatefulSet or Job read from a cluster (it has the {@code metadata.uid} the API server
 * gives every object: {@code --from-cluster}, {@code --save-snapshot} files, {@code kubectl get -o yaml}) is not
 * expanded: there its controller has created the pods already, and the pods in the snapshot are the truth. One
 * whose replicas are not all there yet gets a note, and its missing pods are not made up. DaemonSets are expanded
 * either way, per node that has no pod of theirs (as for a node added to the snapshot).
 */
final class WorkloadExpander {
    private static final JsonMapper CANONICAL = JsonMapper.builder()
            .enable(tools.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final List<Pod> existing;
    private final Predicate<String> taken;
    private final List<String> notes;

    /**
     * @param existing pods already in the snapshot (owner references are matched against them)
     * @param taken    whether {@code namespace/name} is already a pod
     * @param notes    receives what could not be expanded
     */
    WorkloadExpander(List<Pod> existing, Predicate<String> taken, List<String> notes) {
        this.existing = existing;
        this.taken = taken;
        this.notes = notes;
    }

    List<Pod> deployment(Deployment d, List<ReplicaSet> replicaSets) {
        String ns = Manifests.namespaceOf(d);
        int replicas = WorkloadPods.replicas(d.getSpec().getReplicas());
        for (ReplicaSet rs : replicaSets) {
            if (Manifests.namespaceOf(rs).equals(ns)
                    && ownedBy(rs, "Deployment", d.getMetadata().getName())) {
                // The snapshot has the controller's ReplicaSet: its pods are created through it.
                return List.of();
            }
        }
        if (fromCluster(d)) {
            long have = existing.stream()
                    .filter(p -> Manifests.namespaceOf(p).equals(ns) && ownedByReplicaSetOf(p, d))
                    .count();
            noteMissing(d, have, replicas);
            return List.of();
        }
        PodTemplateSpec template = d.getSpec().getTemplate();
        String hash = Names.podTemplateHash(CANONICAL.writeValueAsString(template));
        String rsName = d.getMetadata().getName() + "-" + hash;
        Map<String, String> extra = Map.of("pod-template-hash", hash);
        OwnerReference owner = owner("apps/v1", "ReplicaSet", rsName, uid(ns, "ReplicaSet", rsName));
        return replicas(ns, rsName, replicas, template, extra, owner, d, rsName + "-");
    }

    List<Pod> replicaSet(ReplicaSet rs) {
        String ns = Manifests.namespaceOf(rs);
        int replicas = WorkloadPods.replicas(rs.getSpec().getReplicas());
        OwnerReference owner = owner("apps/v1", "ReplicaSet", rs.getMetadata().getName(), uidOf(rs, "ReplicaSet"));
        return replicas(
                ns,
                rs.getMetadata().getName(),
                replicas,
                rs.getSpec().getTemplate(),
                Map.of(),
                owner,
                rs,
                rs.getMetadata().getName() + "-");
    }

    private List<Pod> replicas(
            String ns,
            String ownerName,
            int replicas,
            PodTemplateSpec template,
            Map<String, String> extraLabels,
            OwnerReference owner,
            HasMetadata workload,
            String generateName) {
        long have = existing.stream()
                .filter(p -> Manifests.namespaceOf(p).equals(ns) && ownedBy(p, "ReplicaSet", ownerName))
                .count();
        if (fromCluster(workload)) {
            noteMissing(workload, have, replicas);
            return List.of();
        }
        List<Pod> out = new ArrayList<>();
        for (long i = have; i < replicas; i++) {
            String name = Names.generate(ns, generateName, n -> taken.test(ns + "/" + n) || named(out, n));
            out.add(pod(ns, name, generateName, template, extraLabels, owner, workload));
        }
        return out;
    }

    List<Pod> statefulSet(StatefulSet s) {
        String ns = Manifests.namespaceOf(s);
        int replicas = WorkloadPods.replicas(s.getSpec().getReplicas());
        int start =
                s.getSpec().getOrdinals() == null || s.getSpec().getOrdinals().getStart() == null
                        ? 0
                        : s.getSpec().getOrdinals().getStart();
        OwnerReference owner = owner("apps/v1", "StatefulSet", s.getMetadata().getName(), uidOf(s, "StatefulSet"));
        if (s.getSpec().getVolumeClaimTemplates() != null
                && !s.getSpec().getVolumeClaimTemplates().isEmpty()) {
            notes.add("StatefulSet " + ns + "/" + s.getMetadata().getName()
                    + ": volumeClaimTemplates are not simulated (volumes are not part of the simulation)");
        }
        if (fromCluster(s)) {
            long have = existing.stream()
                    .filter(p -> Manifests.namespaceOf(p).equals(ns)
                            && ownedBy(p, "StatefulSet", s.getMetadata().getName()))
                    .count();
            noteMissing(s, have, replicas);
            return List.of();
        }
        List<Pod> out = new ArrayList<>();
        for (int i = start; i < start + replicas; i++) {
            String name = s.getMetadata().getName() + "-" + i;
            if (taken.test(ns + "/" + name)) {
                continue;
            }
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("statefulset.kubernetes.io/pod-name", name);
            extra.put("apps.kubernetes.io/pod-index", Integer.toString(i));
            Pod p = pod(ns, name, null, s.getSpec().getTemplate(), extra, owner, s);
            p.getSpec().setHostname(name);
            if (s.getSpec().getServiceName() != null
                    && !s.getSpec().getServiceName().isEmpty()) {
                p.getSpec().setSubdomain(s.getSpec().getServiceName());
            }
            out.add(p);
        }
        return out;
    }

    List<Pod> job(Job j) {
        String ns = Manifests.namespaceOf(j);
        int have = (int) existing.stream()
                .filter(p -> Manifests.namespaceOf(p).equals(ns)
                        && ownedBy(p, "Job", j.getMetadata().getName())
                        && !PodPhase.terminal(p))
                .count();
        int active = WorkloadPods.job(j, have);
        String uid = uidOf(j, "Job");
        OwnerReference owner = owner("batch/v1", "Job", j.getMetadata().getName(), uid);
        boolean indexed = "Indexed".equals(j.getSpec().getCompletionMode());
        if (fromCluster(j)) {
            noteMissing(j, have, active);
            return List.of();
        }
        List<Pod> out = new ArrayList<>();
        for (int i = have; i < active; i++) {
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("batch.kubernetes.io/controller-uid", uid);
            extra.put("batch.kubernetes.io/job-name", j.getMetadata().getName());
            extra.put("controller-uid", uid);
            extra.put("job-name", j.getMetadata().getName());
            String generateName = j.getMetadata().getName() + "-";
            if (indexed) {
                extra.put("batch.kubernetes.io/job-completion-index", Integer.toString(i));
                generateName = j.getMetadata().getName() + "-" + i + "-";
            }
            String base = generateName;
            String name = Names.generate(ns, base, n -> taken.test(ns + "/" + n) || named(out, n));
            out.add(pod(ns, name, base, j.getSpec().getTemplate(), extra, owner, j));
        }
        return out;
    }

    /**
     * One pod per node that the daemon controller would run it on ({@link DaemonNodes}), pinned by node affinity on
     * metadata.name.
     */
    List<Pod> daemonSet(DaemonSet ds, List<NodeInfo> nodes) {
        String ns = Manifests.namespaceOf(ds);
        OwnerReference owner = owner("apps/v1", "DaemonSet", ds.getMetadata().getName(), uidOf(ds, "DaemonSet"));
        List<Pod> out = new ArrayList<>();
        for (NodeInfo n : nodes) {
            boolean running = existing.stream()
                    .anyMatch(p -> Manifests.namespaceOf(p).equals(ns)
                            && ownedBy(p, "DaemonSet", ds.getMetadata().getName())
                            && targets(p, n.name));
            if (running || !DaemonNodes.shouldRun(ds, n.node)) {
                continue;
            }
            String base = ds.getMetadata().getName() + "-";
            String name = Names.generate(ns, base, x -> taken.test(ns + "/" + x) || named(out, x));
            Pod p = pod(ns, name, base, ds.getSpec().getTemplate(), Map.of(), owner, ds);
            DaemonNodes.addDaemonTolerations(p);
            pinToNode(p, n.name);
            out.add(p);
        }
        return out;
    }

    /** Whether a daemon pod is bound to the node or pinned to it by the controller's node affinity. */
    private static boolean targets(Pod p, String node) {
        if (node.equals(p.getSpec().getNodeName())) {
            return true;
        }
        var na = NodeFilters.nodeAffinityOf(p);
        if (na == null || na.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return false;
        }
        for (var t : Selectors.list(
                na.getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())) {
            for (var r : Selectors.list(t.getMatchFields())) {
                if (r.getKey().equals("metadata.name")
                        && Selectors.list(r.getValues()).contains(node)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The daemon controller's node affinity: a required term on metadata.name replacing any other match fields. */
    private static void pinToNode(Pod p, String node) {
        var term = new NodeSelectorTermBuilder()
                .withMatchFields(new NodeSelectorRequirementBuilder()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues(node)
                        .build())
                .build();
        var edited = new PodBuilder(p)
                .editOrNewSpec()
                .editOrNewAffinity()
                .editOrNewNodeAffinity()
                .editOrNewRequiredDuringSchedulingIgnoredDuringExecution()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .endSpec()
                .build();
        var required =
                edited.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        List<io.fabric8.kubernetes.api.model.NodeSelectorTerm> terms = new ArrayList<>();
        if (required.getNodeSelectorTerms() == null
                || required.getNodeSelectorTerms().isEmpty()) {
            terms.add(term);
        } else {
            for (var t : required.getNodeSelectorTerms()) {
                terms.add(new NodeSelectorTermBuilder(t)
                        .withMatchFields(term.getMatchFields())
                        .build());
            }
        }
        required.setNodeSelectorTerms(terms);
        p.setSpec(edited.getSpec());
    }

    private static Pod pod(
            String ns,
            String name,
            String generateName,
            PodTemplateSpec template,
            Map<String, String> extraLabels,
            OwnerReference owner,
            HasMetadata workload) {
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels());
        labels.putAll(extraLabels);
        Pod p = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withGenerateName(generateName)
                .withNamespace(ns)
                .withLabels(labels)
                .withAnnotations(tm.getAnnotations())
                .withOwnerReferences(owner)
                .withCreationTimestamp(workload.getMetadata().getCreationTimestamp())
                .withUid(uid(ns, "Pod", name))
                .endMetadata()
                .withSpec(new PodBuilder().withSpec(template.getSpec()).build().getSpec())
                .build();
        PodDefaults.apply(p);
        return p;
    }

    private static OwnerReference owner(String apiVersion, String kind, String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withName(name)
                .withUid(uid)
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** Whether the workload comes from a cluster: the API server gave it a UID (see the class comment). */
    private static boolean fromCluster(HasMetadata workload) {
        String uid = workload.getMetadata().getUid();
        return uid != null && !uid.isEmpty();
    }

    /** A note for a workload from a cluster with fewer pods in the snapshot than its controller is to create. */
    private void noteMissing(HasMetadata workload, long have, long wanted) {
        if (have < wanted) {
            notes.add(workload.getKind() + " " + Manifests.namespaceOf(workload) + "/"
                    + workload.getMetadata().getName() + ": " + have + " of " + wanted + " pods exist in the"
                    + " cluster; only those are simulated (its controller creates the others there)");
        }
    }

    /** Whether the pod's controller is a ReplicaSet of the Deployment, named {@code <deployment>-<pod-template-hash>}. */
    private static boolean ownedByReplicaSetOf(Pod p, Deployment d) {
        String hash = p.getMetadata().getLabels() == null
                ? null
                : p.getMetadata().getLabels().get("pod-template-hash");
        return hash != null && ownedBy(p, "ReplicaSet", d.getMetadata().getName() + "-" + hash);
    }

    static boolean ownedBy(HasMetadata o, String kind, String name) {
        for (OwnerReference r : Selectors.list(o.getMetadata().getOwnerReferences())) {
            if (Boolean.TRUE.equals(r.getController()) && kind.equals(r.getKind()) && name.equals(r.getName())) {
                return true;
            }
        }
        return false;
    }

    private static boolean named(List<Pod> pods, String name) {
        return pods.stream().anyMatch(p -> p.getMetadata().getName().equals(name));
    }

    private static String uidOf(HasMetadata o, String kind) {
        String uid = o.getMetadata().getUid();
        return uid != null && !uid.isEmpty()
                ? uid
                : uid(Manifests.namespaceOf(o), kind, o.getMetadata().getName());
    }

    /** A UID for an object that has none: a name-based UUID of its kind, namespace and name. */
    static String uid(String ns, String kind, String name) {
        return java.util
                .UUID
                .nameUUIDFromBytes((kind + "/" + ns + "/" + name).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .toString();
    }
}
