package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodExtendedResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The DynamicResources plugin for one pod's scheduling cycle: PreFilter (claims exist, are not in use by others
 * beyond reservedFor's limit, name existing classes; the special claim for extended resources a DeviceClass
 * backs), Filter (allocated claims' node selectors, every claim still to allocate allocated together on the node),
 * Score (ranks of the chosen firstAvailable subrequests) and Reserve/PreBind (allocation and reservedFor written).
 * Every rejection is UnschedulableAndUnresolvable, as upstream's statusUnschedulable makes it: preemption does not
 * try nodes that DynamicResources rejected.
 */
final class DynamicResources {
    static final String NAME = "DynamicResources";
    /** ResourceClaimReservedForMaxSize. */
    static final int RESERVED_FOR_MAX = 256;
    /** FirstAvailableDeviceRequestMaxSize. */
    static final int FIRST_AVAILABLE_MAX = 8;

    static final String EXTENDED_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim";
    static final String POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name";
    static final String DELETE_PROTECTION_FINALIZER = "resource.kubernetes.io/delete-protection";

    private final Pod pod;
    private final Cluster cluster;
    private final List<ResourceClaim> claims = new ArrayList<>();
    private final Map<String, Long> extendedRequests = new TreeMap<>();
    private FilterStatus preFilter;
    private DraAllocation.Cycle cycle;
    /** The shape of the pod's own claims to allocate ({@link DraAllocation.Cycle#shape}); -1 until asked. */
    private int shape = -1;

    private final Map<String, ResourceClaim> nodeExtendedClaims = new HashMap<>();
    /** The allocator's outcome per node Filter allocated on, by the node's index; null where it did not. */
    private AllocationOutcome[] nodeOutcomes;
    /** Whether some claim to allocate has a firstAvailable request (Score is 0 everywhere otherwise); null until asked. */
    private Boolean prioritized;
    /** Indexes into {@link #claims} of the allocated claims Filter found unavailable on a node, for PostFilter. */
    private final Set<Integer> unavailableClaims = new java.util.TreeSet<>();
    /** The pod's claims as {@link #bind} left them, the special claim for extended resources included. */
    private final List<ResourceClaim> bound = new ArrayList<>();

    private ResourceClaim boundExtended;
    /** The pod's claims' status and finalizers as {@link #bind} found them, for {@link #unbind}. */
    private final Map<ResourceClaim, ResourceClaimStatus> statusBefore = new java.util.IdentityHashMap<>();

    private final Map<ResourceClaim, List<String>> finalizersBefore = new java.util.IdentityHashMap<>();

    DynamicResources(Pod pod, Cluster cluster, Resources podRequest) {
        this.pod = pod;
        this.cluster = cluster;
        this.preFilter = preFilter(podRequest);
    }

    /** Whether the pod has no claims and no DRA-backed extended resources: the plugin has nothing to do. */
    boolean skip() {
        return preFilter == null && claims.isEmpty() && extendedRequests.isEmpty();
    }

    /** Whether every claim of the pod is allocated already and no extended resource is backed by a DeviceClass. */
    boolean nothingToAllocate() {
        return extendedRequests.isEmpty() && claims.stream().allMatch(DynamicResources::allocated);
    }

    FilterStatus preFilterStatus() {
        return preFilter;
    }

    private FilterStatus preFilter(Resources podRequest) {
        for (PodResourceClaim pc : Selectors.list(pod.getSpec().getResourceClaims())) {
            String name = claimName(pod, pc);
            if (name == null) {
                String template = pc.getResourceClaimTemplateName();
                return FilterStatus.unresolvable(
                        NAME,
                        "pod \"" + pod.getMetadata().getName() + "\": claim " + pc.getName()
                                + ": ResourceClaim not created yet (ResourceClaimTemplate " + template + " not found)");
            }
            ResourceClaim claim = cluster.claim(pod.getMetadata().getNamespace(), name);
            if (claim == null) {
                // The assume cache's NotFoundError, as the claim is looked up there.
                return FilterStatus.unresolvable(
                        NAME,
                        "could not find ResourceClaim \"" + pod.getMetadata().getNamespace() + "/" + name + "\"");
            }
            claims.add(claim);
        }
        if (cluster.gates.isEnabled(io.dra4j.allocator.DraFeature.DRAExtendedResource)) {
            podRequest.asMap().forEach((rName, q) -> {
                if (q > 0 && cluster.classForExtendedResource(rName) != null) {
                    extendedRequests.put(rName, q);
                }
            });
        }
        for (ResourceClaim claim : claims) {
            ResourceClaimStatus st = claim.getStatus();
            boolean allocated = st != null && st.getAllocation() != null;
            if (allocated && Selectors.list(st.getReservedFor()).size() >= RESERVED_FOR_MAX && !reservedForPod(claim)) {
                return FilterStatus.unresolvable(NAME, "resourceclaim in use");
            }
            if (allocated) {
                continue;
            }
            for (DeviceRequest r : Selectors.list(claim.getSpec().getDevices().getRequests())) {
                if (r.getExactly() != null) {
                    FilterStatus s = validateClass(r.getExactly().getDeviceClassName(), r.getName());
                    if (s != null) {
                        return s;
                    }
                } else if (!Selectors.list(r.getFirstAvailable()).isEmpty()) {
                    for (DeviceSubRequest sub : r.getFirstAvailable()) {
                        FilterStatus s = validateClass(sub.getDeviceClassName(), r.getName() + "/" + sub.getName());
                        if (s != null) {
                            return s;
                        }
                    }
                } else {
                    return FilterStatus.unresolvable(
                            NAME,
                            "resource claim " + pod.getMetadata().getNamespace() + "/"
                                    + claim.getMetadata().getName() + ", request " + r.getName()
                                    + ": unknown request type");
                }
            }
        }
        return null;
    }

    private FilterStatus validateClass(String className, String request) {
        if (className == null || className.isEmpty()) {
            return FilterStatus.error(NAME, "request " + request + ": unsupported request type");
        }
        if (cluster.deviceClass(className) == null) {
            return FilterStatus.unresolvable(
                    NAME, "request " + request + ": device class " + className + " does not exist");
        }
        return null;
    }

    /** The claim's name: spec'd directly, or from the pod's status for a template claim (null: not created yet). */
    static String claimName(Pod pod, PodResourceClaim pc) {
        if (pc.getResourceClaimName() != null) {
            return pc.getResourceClaimName();
        }
        PodStatus st = pod.getStatus();
        for (PodResourceClaimStatus s :
                st == null ? List.<PodResourceClaimStatus>of() : Selectors.list(st.getResourceClaimStatuses())) {
            if (s.getName().equals(pc.getName())) {
                return s.getResourceClaimName();
            }
        }
        return null;
    }

    private boolean reservedForPod(ResourceClaim claim) {
        for (ResourceClaimConsumerReference r : Selectors.list(claim.getStatus().getReservedFor())) {
            if ("pods".equals(r.getResource()) && pod.getMetadata().getUid().equals(r.getUid())) {
                return true;
            }
        }
        return false;
    }

    private static boolean allocated(ResourceClaim c) {
        return c.getStatus() != null && c.getStatus().getAllocation() != null;
    }

    FilterStatus filter(NodeInfo n) {
        ResourceClaim extended = extendedClaimFor(n);
        if (extended == null && claims.isEmpty()) {
            return null;
        }
        // An allocated claim unavailable here rejects the node, but only after the claims still to allocate were
        // tried: upstream's Filter runs the allocator first, so its failure is the reason a node gets.
        List<Integer> unavailable = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            ResourceClaim c = claims.get(i);
            AllocationResult a = allocated(c) ? c.getStatus().getAllocation() : null;
            if (a != null && a.getNodeSelector() != null && !Selectors.matches(a.getNodeSelector(), n.node)) {
                unavailable.add(i);
            }
        }
        List<ResourceClaim> toAllocate = toAllocate(extended);
        if (toAllocate.isEmpty()) {
            return notAvailable(unavailable);
        }
        AllocationOutcome outcome;
        if (extended == null) {
            // The pod's own claims are the same on every node: one shape for the cycle, outcomes remembered per node.
            if (shape < 0) {
                shape = cycle().shape(toAllocate);
            }
            outcome = cycle().allocate(n, toAllocate, shape);
        } else {
            outcome = cycle().allocate(n.node, toAllocate);
        }
        if (outcome instanceof AllocationOutcome.Allocated) {
            if (!unavailable.isEmpty()) {
                return notAvailable(unavailable);
            }
            remember(n, outcome);
            if (extended != null) {
                nodeExtendedClaims.put(n.name, extended);
            }
            return null;
        }
        remember(n, outcome);
        if (outcome instanceof AllocationOutcome.Unschedulable u) {
            return FilterStatus.unresolvable(NAME, u.reason());
        }
        AllocationOutcome.Failed f = (AllocationOutcome.Failed) outcome;
        return f.perNode() ? FilterStatus.unresolvable(NAME, f.message()) : FilterStatus.error(NAME, f.message());
    }

    /** The rejection for allocated claims unavailable on a node; they are remembered for PostFilter. */
    private FilterStatus notAvailable(List<Integer> unavailable) {
        if (unavailable.isEmpty()) {
            return null;
        }
        unavailableClaims.addAll(unavailable);
        return FilterStatus.unresolvable(NAME, "resourceclaim not available on the node");
    }

    /**
     * PostFilter, for a pod that fit no node: one of the allocated claims Filter found unavailable on some node,
     * reserved for nobody or only for this pod, is deallocated (reservations, allocation and device status cleared),
     * so that a later attempt can allocate it anew where the pod fits. Upstream takes one of them at random; dra4j
     * takes the first in the pod's order. The deallocation, to be carried out by the caller (a pod group's cycle
     * does it only once the group failed, as PodGroupPostFilter), or null when there is no such claim.
     */
    Runnable postFilter() {
        for (int i : unavailableClaims) {
            ResourceClaim c = claims.get(i);
            if (deallocatable(c)) {
                return () -> {
                    // The claim as it is by then (a pod group's cycle may have reserved it meanwhile); a new object,
                    // not a change: earlier cycles' allocator states hold the claim as it was.
                    ResourceClaim now = cluster.claim(
                            c.getMetadata().getNamespace(), c.getMetadata().getName());
                    if (now == null || !allocated(now) || !deallocatable(now)) {
                        return;
                    }
                    ResourceClaimStatus status =
                            new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder(now.getStatus())
                                    .build();
                    status.setReservedFor(null);
                    status.setAllocation(null);
                    status.setDevices(null);
                    cluster.addClaim(
                            new ResourceClaimBuilder(now).withStatus(status).build());
                };
            }
        }
        return null;
    }

    /** Reserved for nobody, or only for this pod. */
    private boolean deallocatable(ResourceClaim c) {
        List<ResourceClaimConsumerReference> reserved =
                Selectors.list(c.getStatus().getReservedFor());
        return reserved.isEmpty()
                || reserved.size() == 1
                        && pod.getMetadata().getUid().equals(reserved.get(0).getUid());
    }

    private List<ResourceClaim> toAllocate(ResourceClaim extended) {
        List<ResourceClaim> out = new ArrayList<>();
        for (ResourceClaim c : claims) {
            if (!allocated(c)) {
                out.add(c);
            }
        }
        if (extended != null) {
            out.add(extended);
        }
        return out;
    }

    private DraAllocation.Cycle cycle() {
        if (cycle == null) {
            cycle = cluster.dra.begin(cluster.takeChanged());
        }
        return cycle;
    }

    /** How many nodes are explained to find the one that came closest. */
    static final int EXPLAINED_NODES = 12;

    /**
     * dra4j's decisive reason for a pod the claims of which fit no node: the allocator's explanation on the node
     * whose candidate funnel got furthest before falling short, prefixed with the node's name. Explained are the
     * first {@value #EXPLAINED_NODES} nodes DynamicResources rejected, those with node-local slices first, each
     * group in evaluation order.
     */
    String decisiveReason(List<NodeInfo> rejected) {
        return decisiveReasonLater(rejected).get();
    }

    /**
     * {@link #decisiveReason}, computed when asked from the state of now: the nodes to explain and their stamps are
     * taken now; an explanation on a node at a stamp is the same for every pod of the same claims' shape, so the run
     * explains each (node, stamp, shape) once ({@link DraAllocation#explained}).
     */
    java.util.function.Supplier<String> decisiveReasonLater(List<NodeInfo> rejected) {
        List<NodeInfo> order = explained(rejected);
        long[] stamps = new long[order.size()];
        for (int i = 0; i < stamps.length; i++) {
            stamps[i] = cluster.versions.stamp(order.get(i).index);
        }
        int memoShape = filterShape();
        return () -> {
            Nearest nearest = nearest(order, memoShape, stamps);
            return nearest == null
                    ? ""
                    : nearest.node().name + ": " + nearest.explanation().decisive();
        };
    }

    /** The node that came closest and the allocator's explanation there. */
    record Nearest(NodeInfo node, Explanation explanation) {}

    /**
     * The node among {@code rejected} whose candidate funnel got furthest, as {@link #decisiveReason} chooses it;
     * null when none of them has claims left to allocate.
     */
    Nearest nearest(List<NodeInfo> rejected) {
        return nearest(explained(rejected), NO_SHAPE, null);
    }

    /** The first {@value #EXPLAINED_NODES} of the rejected nodes, those with node-local slices first, in order. */
    private List<NodeInfo> explained(List<NodeInfo> rejected) {
        List<NodeInfo> order = new ArrayList<>();
        for (NodeInfo n : rejected) {
            if (order.size() < EXPLAINED_NODES && cluster.hasLocalSlices(n.name)) {
                order.add(n);
            }
        }
        for (NodeInfo n : rejected) {
            if (order.size() < EXPLAINED_NODES && !cluster.hasLocalSlices(n.name)) {
                order.add(n);
            }
        }
        return order;
    }

    private Nearest nearest(List<NodeInfo> order, int memoShape, long[] stamps) {
        Nearest best = null;
        int bestReach = -1;
        for (int i = 0; i < order.size(); i++) {
            NodeInfo n = order.get(i);
            List<ResourceClaim> toAllocate = toAllocate(extendedClaimFor(n));
            if (toAllocate.isEmpty()) {
                continue;
            }
            Explanation e = memoShape < 0
                    ? cycle().explain(n.node, toAllocate)
                    : cluster.dra.explained(n.index, stamps[i], memoShape, () -> cycle().explain(n.node, toAllocate));
            int reach = reach(e);
            if (reach > bestReach) {
                bestReach = reach;
                best = new Nearest(n, e);
            }
        }
        return best;
    }

    /** Marks a pod whose DynamicResources verdicts are not the same for every pod of the same shape. */
    static final int NO_SHAPE = Integer.MIN_VALUE;

    /**
     * What this plugin's Filter verdicts depend on, as a number: -1 when the pod has no claims and no extended
     * resources a DeviceClass backs, the claims' shape when every claim is still to allocate and no extended
     * resource is DRA-backed; {@link #NO_SHAPE} otherwise (allocated claims are checked against their status).
     */
    int filterShape() {
        if (skip()) {
            return -1;
        }
        if (!extendedRequests.isEmpty() || !nothingAllocated()) {
            return NO_SHAPE;
        }
        if (shape < 0) {
            shape = cycle().shape(toAllocate(null));
        }
        return shape;
    }

    private boolean nothingAllocated() {
        for (ResourceClaim c : claims) {
            if (allocated(c)) {
                return false;
            }
        }
        return true;
    }

    /** The outcome a remembered verdict on the node came with, as if {@link #filter} had computed it. */
    void remember(NodeInfo n, AllocationOutcome outcome) {
        if (nodeOutcomes == null) {
            nodeOutcomes = new AllocationOutcome[cluster.nodes.size()];
        }
        nodeOutcomes[n.index] = outcome;
    }

    /** The allocator's outcome on a node {@link #filter} allocated on; null where it did not get that far. */
    AllocationOutcome outcome(NodeInfo n) {
        return nodeOutcomes == null ? null : nodeOutcomes[n.index];
    }

    /** The claims Filter allocates together on the node: the pod's unallocated ones, then the special one if any. */
    List<ResourceClaim> claimsToAllocate(NodeInfo n) {
        return toAllocate(extendedClaimFor(n));
    }

    /** The allocator's explanation for the claims to allocate on the node. */
    Explanation explain(NodeInfo n) {
        return cycle().explain(n.node, claimsToAllocate(n));
    }

    /** How far the funnel got: the earliest stage at which a short request fell below its count (later is closer). */
    static int reach(Explanation e) {
        int reach = Integer.MAX_VALUE;
        for (Explanation.ClaimReport c : e.claims()) {
            for (Explanation.RequestReport r : c.requests()) {
                if (r.shortfall() == null) {
                    continue;
                }
                long needed = Math.max(1, r.requested());
                int stage = r.funnel().size();
                for (int i = 0; i < r.funnel().size(); i++) {
                    if (r.funnel().get(i).remaining() < needed) {
                        stage = i;
                        break;
                    }
                }
                reach = Math.min(reach, stage);
            }
        }
        return reach;
    }

    /**
     * The node's variant of the special claim: one request per container and extended resource that a DeviceClass
     * backs and the node does not offer through a device plugin (allocatable 0); null when there is none.
     */
    private ResourceClaim extendedClaimFor(NodeInfo n) {
        if (extendedRequests.isEmpty()) {
            return null;
        }
        Set<String> viaDra = new HashSet<>();
        for (String rName : extendedRequests.keySet()) {
            if (n.allocatable.get(rName) == 0) {
                viaDra.add(rName);
            }
        }
        if (viaDra.isEmpty()) {
            return null;
        }
        List<DeviceRequest> requests = new ArrayList<>();
        List<Container> containers =
                new ArrayList<>(Selectors.list(pod.getSpec().getInitContainers()));
        containers.addAll(Selectors.list(pod.getSpec().getContainers()));
        for (int ci = 0; ci < containers.size(); ci++) {
            Map<String, Quantity> creqs = containers.get(ci).getResources() == null
                    ? null
                    : containers.get(ci).getResources().getRequests();
            if (creqs == null) {
                continue;
            }
            List<String> keys = new ArrayList<>(new TreeMap<>(creqs).keySet());
            for (int ridx = 0; ridx < keys.size(); ridx++) {
                String rName = keys.get(ridx);
                long count = Quantities.value(rName, creqs.get(rName));
                if (!viaDra.contains(rName) || count == 0) {
                    continue;
                }
                requests.add(new DeviceRequestBuilder()
                        .withName("container-" + ci + "-request-" + ridx)
                        .withNewExactly()
                        .withDeviceClassName(cluster.classForExtendedResource(rName)
                                .getMetadata()
                                .getName())
                        .withAllocationMode("ExactCount")
                        .withCount(count)
                        .endExactly()
                        .build());
            }
        }
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withNamespace(pod.getMetadata().getNamespace())
                .withName("<extended-resources>")
                .withGenerateName(pod.getMetadata().getName() + "-extended-resources-")
                .withAnnotations(Map.of(EXTENDED_CLAIM_ANNOTATION, "true"))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Pod")
                        .withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .withRequests(requests)
                .endDevices()
                .endSpec()
                .build();
    }

    /** Score: for every firstAvailable request, 8 minus the index of the subrequest that was allocated. */
    long score(NodeInfo n) {
        List<AllocationResult> results = allocations(n);
        if (results == null || !prioritized()) {
            return 0;
        }
        long score = 0;
        int ri = 0;
        for (ResourceClaim c : toAllocate(nodeExtendedClaims.get(n.name))) {
            AllocationResult a = results.get(ri++);
            List<DeviceRequestAllocationResult> allocated = Selectors.list(
                    a.getDevices() == null ? null : a.getDevices().getResults());
            for (DeviceRequest req : Selectors.list(c.getSpec().getDevices().getRequests())) {
                if (req.getExactly() != null) {
                    continue;
                }
                List<DeviceSubRequest> subs = Selectors.list(req.getFirstAvailable());
                for (int i = 0; i < subs.size(); i++) {
                    if (allocatedSubRequest(
                            allocated, req.getName() + "/" + subs.get(i).getName())) {
                        score += FIRST_AVAILABLE_MAX - i;
                    }
                }
            }
        }
        return score;
    }

    private static boolean allocatedSubRequest(List<DeviceRequestAllocationResult> allocated, String request) {
        for (DeviceRequestAllocationResult r : allocated) {
            if (request.equals(r.getRequest())) {
                return true;
            }
        }
        return false;
    }

    private boolean prioritized() {
        if (prioritized == null) {
            boolean any = false;
            for (ResourceClaim c : claims) {
                for (DeviceRequest req : allocated(c)
                        ? List.<DeviceRequest>of()
                        : Selectors.list(c.getSpec().getDevices().getRequests())) {
                    any |= req.getExactly() == null;
                }
            }
            prioritized = any;
        }
        return prioritized;
    }

    /** The allocation results Filter found on the node, one per claim to allocate; null where none. */
    private List<AllocationResult> allocations(NodeInfo n) {
        AllocationOutcome o = outcome(n);
        return o instanceof AllocationOutcome.Allocated a ? a.results() : null;
    }

    /**
     * kube-scheduler 1.37.2's PreBind fails for a pod that has claims of its own and asks for an extended resource
     * that a DeviceClass backs, on a node whose device plugin serves it: Filter allocates the special claim there
     * with no requests, and PreBind then finds no container mappings to record in the pod's status. The message
     * of that Error, or null when PreBind succeeds on the node.
     */
    String preBindError(NodeInfo n) {
        if (extendedRequests.isEmpty() || claims.isEmpty() || extendedClaimFor(n) != null) {
            return null;
        }
        return "running PreBind plugin \"DynamicResources\": nil or empty request mappings, no update of pod "
                + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " ExtendedResourceClaimStatus";
    }

    /**
     * What that failed PreBind leaves behind: it had already written the allocation and reservation of the pod's
     * own claims; Unreserve takes back only the reservation, so the claims stay allocated on the node.
     */
    void preBindFailed(NodeInfo n) {
        List<AllocationResult> results = Objects.requireNonNullElse(allocations(n), List.of());
        int ri = 0;
        List<ResourceClaim> own = toAllocate(null);
        for (ResourceClaim c : own) {
            if (c.getStatus() == null) {
                c.setStatus(new ResourceClaimStatus());
            }
            c.getStatus().setAllocation(new AllocationResultBuilder(results.get(ri++)).build());
            addFinalizer(c);
        }
        cluster.claimsChanged(own);
    }

    /** Reserve and PreBind: allocation results and the pod's reservation written to its claims. */
    void bind(NodeInfo n) {
        List<AllocationResult> results = Objects.requireNonNullElse(allocations(n), List.of());
        ResourceClaim extended = nodeExtendedClaims.get(n.name);
        int ri = 0;
        bound.clear();
        bound.addAll(claims);
        for (ResourceClaim c : claims) {
            statusBefore.put(
                    c,
                    c.getStatus() == null
                            ? null
                            : new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder(c.getStatus())
                                    .build());
            List<String> f = c.getMetadata().getFinalizers();
            finalizersBefore.put(c, f == null ? null : new ArrayList<>(f));
        }
        for (ResourceClaim c : toAllocate(extended)) {
            ResourceClaim target = c;
            if (c == extended) {
                String name = Names.generate(
                        c.getMetadata().getNamespace(),
                        c.getMetadata().getGenerateName(),
                        x -> cluster.claim(c.getMetadata().getNamespace(), x) != null);
                target = new ResourceClaimBuilder(c)
                        .editMetadata()
                        .withName(name)
                        .withUid(WorkloadExpander.uid(c.getMetadata().getNamespace(), "ResourceClaim", name))
                        .endMetadata()
                        .build();
                cluster.addClaim(target);
                recordExtendedClaim(target);
                bound.add(target);
                boundExtended = target;
            }
            if (target.getStatus() == null) {
                target.setStatus(new ResourceClaimStatus());
            }
            // A copy: the allocator's result may be remembered for other pods' cycles.
            target.getStatus().setAllocation(new AllocationResultBuilder(results.get(ri++)).build());
            addFinalizer(target);
        }
        for (ResourceClaim c : claims) {
            if (!reservedForPod(c)) {
                List<ResourceClaimConsumerReference> reserved =
                        new ArrayList<>(Selectors.list(c.getStatus().getReservedFor()));
                reserved.add(new ResourceClaimConsumerReference(
                        null,
                        pod.getMetadata().getName(),
                        "pods",
                        pod.getMetadata().getUid()));
                c.getStatus().setReservedFor(reserved);
            }
        }
        cluster.claimsChanged(bound);
    }

    /** DynamicResourcesArgs' default bindingTimeout. */
    static final java.time.Duration BINDING_TIMEOUT = java.time.Duration.ofSeconds(600);

    /**
     * PreBind's wait for binding conditions, after {@link #bind}: {@code waited} when a bound claim has a device with
     * binding conditions, {@code error} the PreBind failure (null when the conditions were met).
     */
    record PreBind(boolean waited, String error) {}

    /**
     * Waits for the binding conditions of the bound claims' devices, as the drivers are assumed to behave: met after
     * the delay (the driver's conditions written to the claims' status.devices), else a failure or timeout. On
     * failure the reservation is undone and the allocation with it (upstream: Unreserve removes the reservation, the
     * next cycle's Filter finds the claim unavailable, and DynamicResources' PostFilter deallocates it) and the
     * special claim for extended resources is deleted.
     */
    PreBind preBind(io.dra4j.sim.SimulationOptions.BindingConditions option, java.time.Instant now) {
        if (!cluster.gates.isEnabled(io.dra4j.allocator.DraFeature.DRADeviceBindingConditions)
                || !cluster.gates.isEnabled(io.dra4j.allocator.DraFeature.DRAResourceClaimDeviceStatus)) {
            return new PreBind(false, null);
        }
        boolean waits = false;
        for (ResourceClaim c : bound) {
            for (DeviceRequestAllocationResult r : results(c)) {
                waits |= !Selectors.list(r.getBindingConditions()).isEmpty();
            }
        }
        if (!waits) {
            return new PreBind(false, null);
        }
        String error = null;
        if (!option.fail() && option.delay().compareTo(BINDING_TIMEOUT) <= 0) {
            for (ResourceClaim c : bound) {
                for (DeviceRequestAllocationResult r : results(c)) {
                    setDeviceConditions(
                            c,
                            r,
                            Selectors.list(r.getBindingConditions()),
                            "BindingConditionsMet",
                            "simulated: the driver met the binding conditions",
                            now.plus(option.delay()));
                }
            }
            return new PreBind(true, null);
        }
        if (option.fail()) {
            for (ResourceClaim c : bound) {
                for (DeviceRequestAllocationResult r : results(c)) {
                    List<String> failure = Selectors.list(r.getBindingFailureConditions());
                    if (error == null
                            && !Selectors.list(r.getBindingConditions()).isEmpty()
                            && !failure.isEmpty()) {
                        setDeviceConditions(
                                c,
                                r,
                                failure.subList(0, 1),
                                "BindingFailed",
                                "simulated: the driver reported a binding failure",
                                now.plus(option.delay()));
                        error = "device binding failed: claim="
                                + c.getMetadata().getName()
                                + ", reason=BindingFailed, message=\"simulated: the driver reported a binding failure\"";
                    }
                }
            }
        }
        if (error == null) {
            error = "device binding timeout: context deadline exceeded";
        }
        unreserve();
        return new PreBind(true, "running PreBind plugin \"" + NAME + "\": " + error);
    }

    private static List<DeviceRequestAllocationResult> results(ResourceClaim c) {
        AllocationResult a = c.getStatus() == null ? null : c.getStatus().getAllocation();
        return a == null || a.getDevices() == null
                ? List.of()
                : Selectors.list(a.getDevices().getResults());
    }

    private static void setDeviceConditions(
            ResourceClaim c,
            DeviceRequestAllocationResult r,
            List<String> types,
            String reason,
            String message,
            java.time.Instant at) {
        if (types.isEmpty()) {
            return;
        }
        List<io.fabric8.kubernetes.api.model.Condition> conditions = new ArrayList<>();
        for (String type : types) {
            conditions.add(new io.fabric8.kubernetes.api.model.ConditionBuilder()
                    .withType(type)
                    .withStatus("True")
                    .withReason(reason)
                    .withMessage(message)
                    .withLastTransitionTime(at.toString())
                    .build());
        }
        List<io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus> devices =
                new ArrayList<>(Selectors.list(c.getStatus().getDevices()));
        devices.add(new io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder()
                .withDriver(r.getDriver())
                .withPool(r.getPool())
                .withDevice(r.getDevice())
                .withShareID(r.getShareID())
                .withConditions(conditions)
                .build());
        c.getStatus().setDevices(devices);
    }

    /**
     * Reserve and PreBind taken back after {@link #bind}: the claims' status and finalizers as they were before it
     * (allocations made for the pod are gone, reservations of other pods stay), the special claim for extended
     * resources deleted. The pod's claims are looked up again by the next cycle's PreFilter.
     */
    void unbind() {
        // The claims are replaced, not changed: earlier cycles' allocator states hold the objects as they were.
        for (ResourceClaim c : claims) {
            ResourceClaim restored =
                    new ResourceClaimBuilder(c).withStatus(statusBefore.get(c)).build();
            restored.getMetadata().setFinalizers(finalizersBefore.get(c));
            cluster.addClaim(restored);
        }
        if (boundExtended != null) {
            cluster.removeClaim(boundExtended);
            pod.getStatus().setExtendedResourceClaimStatus(null);
            boundExtended = null;
        }
        bound.clear();
    }

    /** The pod's reservations and the allocations made for it undone. */
    private void unreserve() {
        String uid = pod.getMetadata().getUid();
        for (ResourceClaim c : bound) {
            if (c.getStatus() == null) {
                continue;
            }
            List<ResourceClaimConsumerReference> reserved =
                    new ArrayList<>(Selectors.list(c.getStatus().getReservedFor()));
            reserved.removeIf(r -> uid.equals(r.getUid()));
            c.getStatus().setReservedFor(reserved.isEmpty() ? null : reserved);
            if (reserved.isEmpty()) {
                c.getStatus().setAllocation(null);
                c.getStatus().setDevices(null);
                List<String> f = new ArrayList<>(Selectors.list(c.getMetadata().getFinalizers()));
                f.remove(DELETE_PROTECTION_FINALIZER);
                c.getMetadata().setFinalizers(f.isEmpty() ? null : f);
            }
        }
        if (boundExtended != null) {
            cluster.removeClaim(boundExtended);
            pod.getStatus().setExtendedResourceClaimStatus(null);
        }
        cluster.claimsChanged(bound);
    }

    private void recordExtendedClaim(ResourceClaim claim) {
        List<ContainerExtendedResourceRequest> mappings = new ArrayList<>();
        List<Container> containers =
                new ArrayList<>(Selectors.list(pod.getSpec().getInitContainers()));
        containers.addAll(Selectors.list(pod.getSpec().getContainers()));
        for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
            String[] parts = r.getName().split("-");
            int ci = Integer.parseInt(parts[1]);
            int ridx = Integer.parseInt(parts[3]);
            Container c = containers.get(ci);
            String rName = new ArrayList<>(new TreeMap<>(c.getResources().getRequests()).keySet()).get(ridx);
            mappings.add(new ContainerExtendedResourceRequest(c.getName(), r.getName(), rName));
        }
        if (pod.getStatus() == null) {
            pod.setStatus(new PodStatus());
        }
        pod.getStatus()
                .setExtendedResourceClaimStatus(new PodExtendedResourceClaimStatus(
                        mappings, claim.getMetadata().getName()));
        List<ResourceClaimConsumerReference> reserved = new ArrayList<>();
        reserved.add(new ResourceClaimConsumerReference(
                null, pod.getMetadata().getName(), "pods", pod.getMetadata().getUid()));
        claim.setStatus(new ResourceClaimStatus(null, null, reserved));
    }

    private static void addFinalizer(ResourceClaim c) {
        List<String> f = new ArrayList<>(Selectors.list(c.getMetadata().getFinalizers()));
        if (!f.contains(DELETE_PROTECTION_FINALIZER)) {
            f.add(DELETE_PROTECTION_FINALIZER);
            c.getMetadata().setFinalizers(f);
        }
    }
}
