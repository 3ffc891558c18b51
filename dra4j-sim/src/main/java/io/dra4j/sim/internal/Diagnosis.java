package io.dra4j.sim.internal;

import io.dra4j.allocator.Explanation;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.whatif.NodeVerdict;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The scheduler's view of a cluster state for questions about one pod or claim: every node's Filter verdict (the
 * same filter chain a scheduling cycle runs, over every node rather than until enough feasible ones are found) and,
 * for nodes DynamicResources rejected, the allocator's explanation. Nothing is reserved or bound; the state's
 * objects are never modified. Single-threaded, like a scheduling cycle.
 */
public final class Diagnosis {
    /** The default profile's Filter plugins in the order the chain runs them (a later rejection came closer). */
    public static final List<String> FILTERS = List.of(
            "NodeUnschedulable",
            "NodeName",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            PodTopologySpread.NAME,
            InterPodAffinity.NAME,
            DynamicResources.NAME);

    private final Cluster cluster;
    private final Map<String, Pod> pods = new HashMap<>();

    private Diagnosis(SimulationOptions options, ClusterSnapshot state) {
        this.cluster = new Cluster(
                options.gates(),
                options.effectiveFilterTimeout(),
                state.nodes(),
                state.deviceClasses(),
                state.resourceSlices(),
                state.deviceTaintRules(),
                state.resourceClaims());
        for (Pod p : state.pods()) {
            pods.put(Manifests.namespaceOf(p) + "/" + p.getMetadata().getName(), p);
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            String nodeName = p.getSpec().getNodeName();
            if (nodeName == null || nodeName.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            NodeInfo n = cluster.nodesByName.get(nodeName);
            if (n != null) {
                n.addPod(p);
            }
        }
    }

    /**
     * The scheduler's view of a state in which every pod is either bound or pending with its claims created, such
     * as a simulation's final state.
     */
    public static Diagnosis of(SimulationOptions options, ClusterSnapshot state) {
        return new Diagnosis(options, state);
    }

    public Optional<Pod> pod(String namespace, String name) {
        return Optional.ofNullable(pods.get(namespace + "/" + name));
    }

    public Optional<ResourceClaim> claim(String namespace, String name) {
        return Optional.ofNullable(cluster.claim(namespace, name));
    }

    /** The node names in the scheduler's node-tree order. */
    public List<String> nodes() {
        return cluster.nodes.stream().map(n -> n.name).toList();
    }

    /** How far an explanation's funnel got before a request fell short (higher is closer to fitting). */
    public static int reach(Explanation e) {
        return DynamicResources.reach(e);
    }

    /** One pod's scheduling cycle without Reserve and Bind: PreFilter, then Filter on every node. */
    public Check pod(Pod pod) {
        return new Check(pod, false);
    }

    /**
     * Where a claim alone could be allocated: DynamicResources' PreFilter and Filter for a pod that has only this
     * claim and asks for nothing else, so that only the devices decide.
     */
    public Check claim(ResourceClaim claim) {
        Pod carrier = new PodBuilder()
                .withNewMetadata()
                .withNamespace(claim.getMetadata().getNamespace())
                .withName("claim-" + claim.getMetadata().getName())
                .withUid(WorkloadExpander.uid(
                        claim.getMetadata().getNamespace(),
                        "ClaimCarrier",
                        claim.getMetadata().getName()))
                .endMetadata()
                .withNewSpec()
                .addNewResourceClaim()
                .withName("claim")
                .withResourceClaimName(claim.getMetadata().getName())
                .endResourceClaim()
                .endSpec()
                .build();
        return new Check(carrier, true);
    }

    /** One pod's cycle state: the verdicts per node, and explanations for those DynamicResources rejected. */
    public final class Check {
        private final Pod pod;
        private final boolean draOnly;
        private final Resources request;
        private final DynamicResources dra;
        private PodTopologySpread spread;
        private InterPodAffinity affinity;
        private Scheduler scheduler;

        private Check(Pod pod, boolean draOnly) {
            this.pod = pod;
            this.draOnly = draOnly;
            this.request = PodRequests.of(pod);
            this.dra = new DynamicResources(pod, cluster, request);
            if (!draOnly) {
                scheduler = new Scheduler(
                        cluster,
                        100,
                        p -> null,
                        List.of(),
                        SimulationOptions.BindingConditions.MET,
                        () -> java.time.Instant.EPOCH,
                        new Nominator());
                spread = new PodTopologySpread(pod, cluster.nodes);
                affinity = new InterPodAffinity(pod, cluster.nodes);
            }
        }

        /** PreFilter's rejection of the pod on every node at once (a claim missing, a class missing), if any. */
        public Optional<NodeVerdict> preFilter() {
            FilterStatus s = dra.preFilterStatus();
            return s == null ? Optional.empty() : Optional.of(verdict("", s));
        }

        /** Every node's verdict, in node-tree order; empty when PreFilter rejected the pod. */
        public List<NodeVerdict> verdicts() {
            return verdicts(null);
        }

        /** The verdicts of the named nodes only (all when null), in node-tree order. */
        public List<NodeVerdict> verdicts(Set<String> only) {
            if (dra.preFilterStatus() != null) {
                return List.of();
            }
            List<NodeInfo> candidates = draOnly ? cluster.nodes : Scheduler.preFilterNodes(pod, cluster.nodes);
            Set<NodeInfo> passed = new java.util.HashSet<>(candidates);
            List<NodeVerdict> out = new ArrayList<>();
            for (NodeInfo n : cluster.nodes) {
                if (only != null && !only.contains(n.name)) {
                    continue;
                }
                if (!passed.contains(n)) {
                    out.add(new NodeVerdict(
                            n.name,
                            "NodeAffinity",
                            "UnschedulableAndUnresolvable",
                            List.of("node(s) didn't satisfy plugin(s) [NodeAffinity]")));
                    continue;
                }
                FilterStatus s = draOnly
                        ? (dra.skip() ? null : dra.filter(n))
                        : scheduler.filter(pod, n, request, spread, affinity, dra);
                out.add(s == null ? new NodeVerdict(n.name, "", "", List.of()) : verdict(n.name, s));
            }
            return out;
        }

        /** The allocator's explanation of the pod's claims on this node; null when nothing is left to allocate. */
        public Explanation explain(String node) {
            NodeInfo n = cluster.nodesByName.get(node);
            return n == null || dra.claimsToAllocate(n).isEmpty() ? null : dra.explain(n);
        }

        private NodeVerdict verdict(String node, FilterStatus s) {
            String code = switch (s.code()) {
                case UNSCHEDULABLE -> "Unschedulable";
                case UNRESOLVABLE -> "UnschedulableAndUnresolvable";
                case ERROR -> "Error";
            };
            return new NodeVerdict(node, s.plugin(), code, s.reasons());
        }
    }
}
