package main

// The scheduling loop over one snapshot. The plugins, the framework, the scheduler cache and snapshot, the DRA
// manager, the ResourceSlice tracker and the claims' assume cache are upstream's, set up as scheduler.New sets
// them up (pkg/scheduler/scheduler.go). The loop itself is glue: each step mirrors the named function of
// pkg/scheduler/schedule_one.go and records what that function decides.

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// verdict is a non-success framework status: the plugin that returned it, its code and its reasons.
type verdict struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

type nodeScore struct {
	Total   int64            `json:"total"`
	Plugins map[string]int64 `json:"plugins"`
}

// attempt is one scheduling attempt of one pod.
type attempt struct {
	Snapshot  string               `json:"snapshot"`
	Pod       string               `json:"pod"`
	PreFilter *verdict             `json:"preFilter,omitempty"`
	Feasible  []string             `json:"feasible"`
	Rejected  map[string]verdict   `json:"rejected"`
	Scores    map[string]nodeScore `json:"scores,omitempty"`
	Best      []string             `json:"best"`
	Node      string               `json:"node"`
	Failure   *verdict             `json:"failure,omitempty"`
	// PostFilter is the message of the PostFilter pass after a FitError (not compared; its effects show in the
	// attempts that follow).
	PostFilter string `json:"postFilter,omitempty"`
	// postFilterWrote: the PostFilter pass changed or deleted a claim.
	postFilterWrote bool
	Error           string                                   `json:"error,omitempty"`
	Claims          map[string]*resourceapi.AllocationResult `json:"claims,omitempty"`
	// Nominate is the node PostFilter nominated ("" clears the nomination; absent when it left it as it was), Victims
	// the pods its preemption deleted.
	Nominate *string  `json:"nominate,omitempty"`
	Victims  []string `json:"victims,omitempty"`
	// NominationTies: when PostFilter nominated a node, every preemption candidate upstream's SelectCandidate could
	// have nominated in its place (the nominated node included), each with the victims the dry run selects on it
	// (preemptionTies).
	NominationTies map[string][]string `json:"nominationTies,omitempty"`
	// postFilterState and postFilterStatuses are what the PostFilter pass was given, for preemptionTies.
	postFilterState    fwk.CycleState
	postFilterStatuses *framework.NodeToStatus
	// PodGroup is the status the member's pod group cycle ended with when it failed (not compared per attempt; the
	// run's outcome carries each PodGroup's).
	PodGroup string `json:"podGroup,omitempty"`
	// nominatingInfo is what schedulingCycle hands handleSchedulingFailure after a FitError (fitError).
	nominatingInfo *fwk.NominatingInfo
	fitError       bool
}

func toVerdict(s *fwk.Status) *verdict {
	return &verdict{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: append([]string{}, s.Reasons()...)}
}

// clearNominatedNode is schedule_one.go's NominatingInfo of a cycle that failed other than with a FitError.
var clearNominatedNode = &fwk.NominatingInfo{NominatingMode: fwk.ModeOverride, NominatedNodeName: ""}

type run struct {
	ctx    context.Context
	logger klog.Logger
	client *fake.Clientset
	// controllerClient: the resourceclaim controller's client (controllerTracker).
	controllerClient *fake.Clientset
	framework        framework.Framework
	cache            internalcache.Cache
	snapshot         *internalcache.Snapshot
	dra              *dynamicresources.DefaultDRAManager
	claimCache       *assumecache.AssumeCache
	// delivered: the claim versions the assume cache's handlers have been handed (claimEvents).
	delivered  *claimEvents
	nextStart  int
	claimNames map[string]bool
	// claimNamesMu: both clients generate claim names, each on its own goroutine.
	claimNamesMu sync.Mutex
	// timing: -time mode. Filter stops at numFeasibleNodesToFind as upstream's findNodesThatPassFilters does, and
	// after a binding only the pod's own claims are waited for; nothing is recorded beyond the outcome.
	timing     bool
	versioned  *versionedTracker
	factory    informers.SharedInformerFactory
	queue      *internalqueue.PriorityQueue
	preemption *defaultpreemption.DefaultPreemption
	claims     *claimController
	// preEnqueued: the pods a PreEnqueue plugin kept out of the queue, with its message.
	preEnqueued map[string]string
	// outcome receives the end of the run (not in -time mode).
	outcome *outcome
}

// timing is the -time result for one snapshot: the scheduling loop's wall time only (informers, caches and the
// framework set up before the clock starts).
type timing struct {
	Snapshot      string  `json:"snapshot"`
	Nodes         int     `json:"nodes"`
	Attempts      int     `json:"attempts"`
	Placed        int     `json:"placed"`
	Seconds       float64 `json:"seconds"`
	PodsPerSecond float64 `json:"podsPerSecond"`
}

func runSnapshot(s *snapshot, emit func(*attempt)) (*outcome, error) {
	out := &outcome{}
	return out, runSnapshotWith(s, emit, nil, out)
}

// runSnapshotWith runs the snapshot; with timed set it runs in -time mode and reports there, otherwise the end of the
// run goes to out.
func runSnapshotWith(s *snapshot, emit func(*attempt), timed func(timing), out *outcome) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logger := klog.Background()
	ctx = klog.NewContext(ctx, logger)

	var objects []runtime.Object
	r := &run{ctx: ctx, logger: logger, claimNames: map[string]bool{}, timing: timed != nil, outcome: out}
	for _, o := range s.nodes {
		objects = append(objects, o)
	}
	for _, o := range s.pods {
		objects = append(objects, o)
	}
	for _, o := range s.priorityClasses {
		objects = append(objects, o)
	}
	for _, o := range s.classes {
		objects = append(objects, o)
	}
	for _, o := range s.slices {
		objects = append(objects, o)
	}
	for _, o := range s.claims {
		objects = append(objects, o)
		r.claimNames[o.Namespace+"/"+o.Name] = true
	}
	for _, o := range s.templates {
		objects = append(objects, o)
	}
	for _, o := range s.taintRules {
		objects = append(objects, o)
	}
	for _, o := range s.services {
		objects = append(objects, o)
	}
	for _, o := range s.rcs {
		objects = append(objects, o)
	}
	for _, o := range s.replicaSets {
		objects = append(objects, o)
	}
	for _, o := range s.statefulSets {
		objects = append(objects, o)
	}
	for _, o := range s.podGroups {
		objects = append(objects, o)
	}
	r.client = fake.NewClientset(objects...)
	// The API server's resourceVersion: every write stores the object under a new one, as etcd's revision (the fake
	// tracker keeps whatever the object says). Without it the claims' assume cache, which takes an informer update
	// only when its version is newer, never saw a claim's allocation written by PreBind: after a failed PreBind
	// restored the assumed claim, the cache held the unallocated claim and its devices counted as free.
	versioned := &versionedTracker{ObjectTracker: r.client.Tracker(), next: 1}
	r.versioned = versioned
	r.client.PrependReactor("*", "*", k8stesting.ObjectReaction(versioned))
	r.client.PrependReactor("create", "resourceclaims", r.claimNameGeneration(versioned))
	// The resourceclaim controller's client: the same API server, its claim writes counted apart (controllerTracker).
	controller := controllerTracker{versioned}
	r.controllerClient = fake.NewClientset()
	r.controllerClient.PrependReactor("*", "*", k8stesting.ObjectReaction(controller))
	r.controllerClient.PrependReactor("create", "resourceclaims", r.claimNameGeneration(controller))

	// scheduler.New: informers, the claims' assume cache, the ResourceSlice tracker and the DRA manager.
	factory := informers.NewSharedInformerFactory(r.client, 0)
	r.factory = factory
	claimCache := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	r.claimCache = claimCache
	trackerOpts := tracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               r.client,
	}
	if trackerOpts.EnableDeviceTaintRules {
		trackerOpts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
	}
	sliceTracker, err := tracker.StartTracker(ctx, trackerOpts)
	if err != nil {
		return err
	}
	defer sliceTracker.Stop()
	r.dra = dynamicresources.NewDRAManager(ctx, claimCache, sliceTracker, factory)
	// addAllEventHandlers registers the scheduling queue's handler on the assume cache after NewDRAManager registered
	// allocatedDevices'; the assume cache hands each event to its handlers one after the other in that order, so a
	// claim version the queue's handler (here claimEvents) has seen is one allocatedDevices has applied. The cache's
	// store takes a version before its handlers do, and allocatedDevices is what PreFilter and Filter count as taken.
	r.delivered = &claimEvents{versions: map[string]string{}}
	claimRegistration := claimCache.AddEventHandler(r.delivered)

	// scheduler.New: the default profile (apis/config/latest.Default) over the in-tree registry.
	cfg, err := latest.Default()
	if err != nil {
		return err
	}
	metrics.Register()
	r.snapshot = internalcache.NewEmptySnapshot()
	r.cache = internalcache.New(ctx, nil, utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload),
		utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup))
	registry := frameworkplugins.NewInTreeRegistry()
	capturePreemption(registry, &r.preemption)
	r.framework, err = frameworkruntime.NewFramework(ctx, registry, &cfg.Profiles[0],
		frameworkruntime.WithClientSet(r.client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSharedDRAManager(r.dra),
		frameworkruntime.WithSnapshotSharedLister(r.snapshot),
		frameworkruntime.WithMutableSnapshotLister(r.snapshot),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
		frameworkruntime.WithWaitingPods(frameworkruntime.NewWaitingPodsMap()),
		frameworkruntime.WithPodsInPreBind(frameworkruntime.NewPodsInPreBindMap()),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithPodGroupManager(r.cache),
	)
	if err != nil {
		return err
	}
	// addAllEventHandlers (pkg/scheduler/eventhandlers.go): with DRAExtendedResource the DRA manager's
	// extended-resource cache (which NodeResourcesFit and DynamicResources ask which class backs a resource) is fed
	// by the DeviceClass informer.
	synced := []cache.InformerSynced{claimRegistration.HasSynced}
	if utilfeature.DefaultFeatureGate.Enabled(features.DRAExtendedResource) {
		erCache := r.dra.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache)
		registration, err := factory.Resource().V1().DeviceClasses().Informer().AddEventHandler(erCache)
		if err != nil {
			return err
		}
		synced = append(synced, registration.HasSynced)
	}
	// kube-controller-manager's resourceclaim controller, which releases the claims of deleted pods.
	if r.claims, err = startClaimController(ctx, r); err != nil {
		return err
	}
	factory.Start(ctx.Done())
	// Shutdown waits for the informers, which stop when the context is cancelled.
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.WaitForCacheSync(ctx.Done())
	// The informers deliver to the assume cache and the tracker asynchronously: wait until both have everything, and
	// the handlers their first list (Scheduler.WaitForHandlersSync).
	deadline := time.Now().Add(30 * time.Second)
	for len(claimCache.List(nil)) < len(s.claims) || !sliceTracker.HasSynced() || !allSynced(synced) {
		if time.Now().After(deadline) {
			return fmt.Errorf("informers did not sync")
		}
		time.Sleep(time.Millisecond)
	}

	if err := r.claims.awaitIdle(); err != nil {
		return err
	}

	// The scheduler cache as its informer handlers fill it: nodes, PodGroups (addPodGroup), the pods already bound
	// (addPodToCache), the unscheduled pods' pod group membership (addPodToSchedulingQueue's AddPodGroupMember).
	for _, n := range s.nodes {
		r.cache.AddNode(logger, n)
	}
	podGroups := map[string]*schedulingv1beta1.PodGroup{}
	for _, pg := range s.podGroups {
		r.cache.AddPodGroup(pg)
		podGroups[pg.Namespace+"/"+pg.Name] = pg
	}
	var queue []*framework.QueuedPodInfo
	var unscheduled []*v1.Pod
	for _, p := range s.pods {
		if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if p.Spec.NodeName != "" {
			if err := r.cache.AddPod(logger, p); err != nil {
				return err
			}
			continue
		}
		if p.Spec.SchedulerName != v1.DefaultSchedulerName {
			continue
		}
		r.cache.AddPodGroupMember(p)
		unscheduled = append(unscheduled, p)
	}
	// The queue's PreEnqueue plugins (runPreEnqueuePluginsForPod) once every pod and PodGroup is known: a gated pod
	// (SchedulingGates) or one GangScheduling holds is never popped.
	r.preEnqueued = map[string]string{}
	for _, p := range unscheduled {
		if len(p.Spec.SchedulingGates) > 0 {
			continue
		}
		if st := r.preEnqueue(p); !st.IsSuccess() {
			r.preEnqueued[p.Namespace+"/"+p.Name] = st.Message()
			continue
		}
		pi, err := framework.NewPodInfo(p)
		if err != nil {
			return err
		}
		// The queue's timestamp: pods enter the queue in creation order (dra4j's documented rule).
		queue = append(queue, &framework.QueuedPodInfo{PodInfo: pi,
			QueueingParams: framework.QueueingParams{Timestamp: p.CreationTimestamp.Time}})
	}
	less := r.framework.QueueSortFunc()
	sort.SliceStable(queue, func(i, j int) bool { return less(queue[i], queue[j]) })
	var pendingPods []*v1.Pod
	for _, qpi := range queue {
		pendingPods = append(pendingPods, qpi.Pod)
	}
	r.queue = newNominator(ctx, r, pendingPods)
	r.versioned.takePodEvents()

	// The queue as dra4j simulates it (Simulation.scheduleAll): pass after pass in queue order; a pod that failed
	// is tried again after a binding only when a binding can help it (an error, or a rejection by InterPodAffinity
	// or PodTopologySpread, which count pods: upstream's queueing hints for an assigned pod's add event), and after
	// any claim event a PostFilter caused (DynamicResources' hint queues pods on a claim's deallocation).
	type lastAttempt struct {
		placements int
		releases   int
		helped     bool
	}
	placements, releases := 0, 0
	attempts := 0
	seen := map[types.UID]lastAttempt{}
	// dra4j's rule against a livelock upstream repeats without end (Simulation.MAX_DEALLOCATIONS_PER_POD): a pod
	// whose PostFilter deallocated a claim that often without being bound is not tried again.
	const maxDeallocationsPerPod = 10
	deallocations := map[types.UID]int{}
	pending := queue
	start := time.Now()
	podGroupStatus := map[string]string{}
	for len(pending) > 0 {
		var still []*framework.QueuedPodInfo
		tried := false
		cycled := map[string]bool{}
		bound := map[types.UID]bool{}
		for _, qpi := range pending {
			if key := podGroupKey(qpi.Pod); key != "" {
				// The queue pops a pod group as one entity, at its first member in queue order, with every member
				// queued (in framework.PodGroupMemberPodsOrderingFunc's order); it is retried by the same rule as a pod.
				uid := types.UID("PodGroup/" + key)
				last, ok := seen[uid]
				if !cycled[key] && (!ok || last.releases != releases || last.helped && last.placements != placements) {
					tried = true
					var members []*framework.QueuedPodInfo
					for _, m := range pending {
						if podGroupKey(m.Pod) == key {
							members = append(members, m)
						}
					}
					sort.SliceStable(members, func(i, j int) bool {
						return framework.PodGroupMemberPodsOrderingFunc(members[i], members[j]) < 0
					})
					as, status, err := r.podGroupCycle(podGroups[key], members)
					if err != nil {
						return err
					}
					podGroupStatus[key] = status
					helped := false
					for _, a := range as {
						attempts++
						if !r.timing {
							emit(a)
						}
						if a.Node != "" && a.PodGroup == "" {
							placements++
						}
						helped = helped || helpedByBindings(a)
					}
					for i, a := range as {
						if a.Node != "" && a.PodGroup == "" {
							bound[members[i].Pod.UID] = true
						}
					}
					seen[uid] = lastAttempt{placements: placements, releases: releases, helped: helped}
				}
				cycled[key] = true
				if !bound[qpi.Pod.UID] {
					still = append(still, qpi)
				}
				continue
			}
			if last, ok := seen[qpi.Pod.UID]; ok && (last.releases == releases && (!last.helped || last.placements == placements) ||
				deallocations[qpi.Pod.UID] >= maxDeallocationsPerPod) {
				still = append(still, qpi)
				continue
			}
			tried = true
			// A pod whose preemption deleted victims is tried again at once (dra4j's rule for the queue: the
			// victims' deletion events move it back to the active queue).
			for {
				a, err := r.attempt(qpi.Pod)
				if err != nil {
					return err
				}
				attempts++
				if !r.timing {
					emit(a)
				}
				if a.Node != "" {
					placements++
					break
				}
				seen[qpi.Pod.UID] = lastAttempt{placements: placements, releases: releases, helped: helpedByBindings(a)}
				if a.postFilterWrote || len(a.Victims) > 0 {
					releases++
				}
				if a.postFilterWrote {
					deallocations[qpi.Pod.UID]++
				}
				if len(a.Victims) == 0 {
					still = append(still, qpi)
					break
				}
			}
		}
		if !tried {
			break
		}
		pending = still
	}
	if r.outcome != nil {
		*r.outcome = r.finalOutcome(s, podGroups, podGroupStatus)
	}
	if timed != nil {
		elapsed := time.Since(start).Seconds()
		timed(timing{Nodes: len(s.nodes), Attempts: attempts, Placed: placements, Seconds: elapsed,
			PodsPerSecond: float64(attempts) / elapsed})
	}
	return nil
}

// claimNameGeneration is the API server's name generation for created claims (DynamicResources creates the
// extended-resource claim with generateName, the resourceclaim controller a template's claim), deterministic as in
// readSnapshot; the claim is stored through t.
func (r *run) claimNameGeneration(t k8stesting.ObjectTracker) k8stesting.ReactionFunc {
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		claim, ok := action.(k8stesting.CreateAction).GetObject().(*resourceapi.ResourceClaim)
		if !ok || claim.Name != "" || claim.GenerateName == "" {
			return false, nil, nil
		}
		claim = claim.DeepCopy()
		r.claimNamesMu.Lock()
		claim.Name = generatedName(claim.Namespace, claim.GenerateName, func(n string) bool { return r.claimNames[claim.Namespace+"/"+n] })
		r.claimNames[claim.Namespace+"/"+claim.Name] = true
		r.claimNamesMu.Unlock()
		claim.UID = types.UID("uid-resourceclaim-" + claim.Namespace + "-" + claim.Name)
		gvr := action.GetResource()
		if err := t.Create(gvr, claim, claim.Namespace); err != nil {
			return true, nil, err
		}
		stored, err := t.Get(gvr, claim.Namespace, claim.Name)
		return true, stored, err
	}
}

// numFeasibleNodesToFind mirrors schedule_one.go's function of that name with the default profile
// (percentageOfNodesToScore unset: the adaptive percentage, 50% less 1% per 125 nodes, at least 5%, at least 100
// nodes).
func numFeasibleNodesToFind(numAllNodes int) int {
	const minFeasibleNodesToFind, minFeasibleNodesPercentageToFind = 100, 5
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	percentage := 50 - numAllNodes/125
	if percentage < minFeasibleNodesPercentageToFind {
		percentage = minFeasibleNodesPercentageToFind
	}
	numNodes := numAllNodes * percentage / 100
	if numNodes < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return numNodes
}

// helpedByBindings mirrors dra4j's Scheduler.Attempt.helpedByBindings: whether another pod's binding can make the
// failed pod fit.
func helpedByBindings(a *attempt) bool {
	if a.Error != "" || a.Failure != nil {
		return true
	}
	for _, v := range a.Rejected {
		if v.Plugin == "InterPodAffinity" || v.Plugin == "PodTopologySpread" {
			return true
		}
	}
	return false
}

// attempt is one scheduling cycle and what happens before the next: after a failure the preemption it started
// carried out and handleSchedulingFailure's nomination (a FitError's NominatingInfo, otherwise the nomination
// cleared), the pod events delivered to the scheduler, the claims' informer caught up.
func (r *run) attempt(pod *v1.Pod) (*attempt, error) {
	a := r.schedule(pod)
	if a.Node == "" {
		nominatingInfo := clearNominatedNode
		if a.fitError {
			if err := r.afterPostFilter(pod, a); err != nil {
				return nil, err
			}
			nominatingInfo = a.nominatingInfo
		}
		if err := r.handleFailure(pod, nominatingInfo); err != nil {
			return nil, err
		}
	}
	r.deliverPodEvents()
	return a, r.syncClaims()
}

// schedule is one scheduling cycle: schedulingCycle → schedulingAlgorithm → schedulePod (findNodesThatFitPod,
// prioritizeNodes, selectHost), then assumeAndReserve, Permit and, of the binding cycle, PreBind; binding itself is
// the cache's AddPod of the bound pod (the informer's add event after DefaultBinder's API call).
func (r *run) schedule(pod *v1.Pod) *attempt {
	if err := r.cache.UpdateSnapshot(r.logger, r.snapshot); err != nil {
		return &attempt{Pod: pod.Namespace + "/" + pod.Name, Feasible: []string{}, Rejected: map[string]verdict{},
			Best: []string{}, Error: err.Error()}
	}
	// The latest pod object (an earlier attempt's PreBind may have patched its status).
	if latest, err := r.client.CoreV1().Pods(pod.Namespace).Get(r.ctx, pod.Name, metav1.GetOptions{}); err == nil {
		pod = latest
	}
	state := framework.NewCycleState()
	a, host := r.algorithm(state, pod)
	if host == "" {
		return a
	}
	return r.bind(state, pod, host, a)
}

// algorithm is schedulingAlgorithm over a snapshot already taken: the host it suggests, "" when the pod does not fit
// (then the attempt says why). In a pod group cycle (state.IsPodGroupSchedulingCycle) a FitError runs no PostFilter,
// as schedulingAlgorithm leaves it to the pod group's PodGroupPostFilter.
func (r *run) algorithm(state *framework.CycleState, pod *v1.Pod) (*attempt, string) {
	a := &attempt{Pod: pod.Namespace + "/" + pod.Name, Feasible: []string{}, Rejected: map[string]verdict{}, Best: []string{}}
	ctx := r.ctx
	allNodes, err := r.snapshot.NodeInfos().List()
	if err != nil || len(allNodes) == 0 {
		a.Error = "no nodes available to schedule pods"
		return a, ""
	}

	// findNodesThatFitPod: PreFilter.
	preRes, s, unscheduledPlugins := r.framework.RunPreFilterPlugins(ctx, state, pod)
	if !s.IsSuccess() {
		if !s.IsRejected() {
			a.Error = s.AsError().Error()
			return a, ""
		}
		a.PreFilter = toVerdict(s)
		statuses := framework.NewDefaultNodeToStatus()
		statuses.SetAbsentNodesStatus(s)
		r.postFilter(state, pod, statuses, a)
		return a, ""
	}
	statuses := framework.NewDefaultNodeToStatus()

	// evaluateNominatedNode: a node nominated by an earlier preemption is filtered alone first; when it passes it is
	// taken without scoring, and the rotating start index stays where it was.
	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		if nodeInfo, err := r.snapshot.Get(nnn); err == nil {
			status := r.framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodeInfo)
			if status.Code() == fwk.Error {
				a.Error = status.AsError().Error()
				return a, ""
			}
			if status.IsSuccess() {
				a.Feasible = []string{nnn}
				a.Best = []string{nnn}
				return a, nnn
			}
			a.Rejected[nnn] = *toVerdict(status)
			statuses.Set(nnn, status)
		}
	}

	nodes := allNodes
	if !preRes.AllNodes() {
		// Upstream iterates the PreFilterResult's node set; the oracle keeps the snapshot's node order.
		nodes = nil
		for _, n := range allNodes {
			if preRes.NodeNames.Has(n.Node().Name) {
				nodes = append(nodes, n)
			} else {
				a.Rejected[n.Node().Name] = verdict{Code: fwk.UnschedulableAndUnresolvable.String(),
					Reasons: []string{fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sortedList(unscheduledPlugins))}}
			}
		}
		statuses.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sortedList(unscheduledPlugins))))
	}

	// findNodesThatPassFilters, one node after another from nextStartNodeIndex (upstream runs them in parallel);
	// the generated fleets stay under minFeasibleNodesToFind (100), so every node is evaluated.
	var feasible []fwk.NodeInfo
	processed := 0
	toFind := len(allNodes)
	if r.timing {
		toFind = numFeasibleNodesToFind(len(allNodes))
	}
	for i := range nodes {
		if len(feasible) >= toFind {
			break
		}
		nodeInfo := nodes[(r.nextStart+i)%len(nodes)]
		processed++
		status := r.framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodeInfo)
		if status.Code() == fwk.Error {
			a.Error = status.AsError().Error()
			return a, ""
		}
		if status.IsSuccess() {
			feasible = append(feasible, nodeInfo)
			a.Feasible = append(a.Feasible, nodeInfo.Node().Name)
		} else {
			a.Rejected[nodeInfo.Node().Name] = *toVerdict(status)
			statuses.Set(nodeInfo.Node().Name, status)
		}
	}
	if len(nodes) > 0 {
		r.nextStart = (r.nextStart + processed) % len(allNodes)
	}
	if len(feasible) == 0 {
		r.postFilter(state, pod, statuses, a)
		return a, ""
	}

	// schedulePod: a single feasible node is taken without scoring; otherwise prioritizeNodes.
	host := feasible[0].Node().Name
	if len(feasible) > 1 {
		if st := r.framework.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
			a.Error = st.AsError().Error()
			return a, ""
		}
		scores, st := r.framework.RunScorePlugins(ctx, state, pod, feasible)
		if !st.IsSuccess() {
			a.Error = st.AsError().Error()
			return a, ""
		}
		a.Scores = map[string]nodeScore{}
		best := int64(-1)
		for _, ns := range scores {
			plugins := map[string]int64{}
			for _, ps := range ns.Scores {
				plugins[ps.Name] = ps.Score
			}
			a.Scores[ns.Name] = nodeScore{Total: ns.TotalScore, Plugins: plugins}
			if ns.TotalScore > best {
				best = ns.TotalScore
			}
		}
		// selectHost picks at random among the best; the oracle takes the first in evaluation order, as dra4j.
		host = ""
		for _, ns := range scores {
			if ns.TotalScore == best {
				a.Best = append(a.Best, ns.Name)
				if host == "" {
					host = ns.Name
				}
			}
		}
	} else {
		a.Best = []string{host}
	}
	return a, host
}

// bind: assumeAndReserve, Permit, then the binding cycle.
func (r *run) bind(state fwk.CycleState, pod *v1.Pod, host string, a *attempt) *attempt {
	assumed, fail := r.assumeAndReserve(state, pod, host, a)
	if assumed == nil {
		return a
	}
	if _, s := r.framework.RunPermitPlugins(r.ctx, state, assumed, host); !s.IsSuccess() {
		return fail(s)
	}
	return r.bindingCycle(state, pod, assumed, host, a, fail)
}

// assumeAndReserve mirrors schedule_one.go's function of that name: the pod assumed on the host in the cache (its
// nomination dropped from the nominator as assume drops it), then Reserve. It returns the assumed pod (nil when
// the attempt failed, which then says why) and unreserveAndForget, which records the status that ended the attempt.
func (r *run) assumeAndReserve(state fwk.CycleState, pod *v1.Pod, host string, a *attempt) (*v1.Pod, func(*fwk.Status) *attempt) {
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = host
	if err := r.assume(state, assumed); err != nil {
		a.Error = err.Error()
		return nil, nil
	}
	r.queue.DeleteNominatedPodIfExists(assumed)
	fail := func(s *fwk.Status) *attempt {
		r.unreserveAndForget(state, assumed, host)
		if s.Code() == fwk.Error {
			a.Error = s.AsError().Error()
		} else {
			a.Failure = toVerdict(s)
		}
		return a
	}
	if s := r.framework.RunReservePluginsReserve(r.ctx, state, assumed, host); !s.IsSuccess() {
		fail(s)
		return nil, nil
	}
	return assumed, fail
}

// assume mirrors schedule_one.go's assume: in a pod group cycle the pod is assumed in the cycle's snapshot only, so
// that the next members see it; otherwise in the scheduler cache.
func (r *run) assume(state fwk.CycleState, assumed *v1.Pod) error {
	if state.IsPodGroupSchedulingCycle() {
		pi, err := framework.NewPodInfo(assumed)
		if err != nil {
			return err
		}
		return r.snapshot.AssumePod(pi)
	}
	return r.cache.AssumePod(r.logger, assumed)
}

// unreserveAndForget mirrors the function of that name: Unreserve, then the pod forgotten where assume put it; in a
// pod group cycle a nomination the assume removed is given back.
func (r *run) unreserveAndForget(state fwk.CycleState, assumed *v1.Pod, host string) {
	r.framework.RunReservePluginsUnreserve(r.ctx, state, assumed, host)
	if !state.IsPodGroupSchedulingCycle() {
		r.cache.ForgetPod(r.logger, assumed)
		return
	}
	r.snapshot.ForgetPod(r.logger, assumed)
	if assumed.Status.NominatedNodeName != "" {
		if pi, err := framework.NewPodInfo(assumed); err == nil {
			r.queue.AddNominatedPod(r.logger, pi, &fwk.NominatingInfo{NominatedNodeName: assumed.Status.NominatedNodeName,
				NominatingMode: fwk.ModeOverride})
		}
	}
}

// bindingCycle: WaitOnPermit (a pod a Permit plugin made wait, allowed by then), PreBind and DefaultBinder's Bind, as
// the API server and the informer would apply it.
func (r *run) bindingCycle(state fwk.CycleState, pod, assumed *v1.Pod, host string, a *attempt, fail func(*fwk.Status) *attempt) *attempt {
	ctx := r.ctx
	if s := r.framework.WaitOnPermit(ctx, assumed); !s.IsSuccess() {
		return fail(s)
	}
	if s := r.framework.RunPreBindPlugins(ctx, state, assumed, host); !s.IsSuccess() {
		return fail(s)
	}
	bound, err := r.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		a.Error = err.Error()
		return a
	}
	bound = bound.DeepCopy()
	bound.Spec.NodeName = host
	if _, err := r.client.CoreV1().Pods(pod.Namespace).Update(ctx, bound, metav1.UpdateOptions{}); err != nil {
		a.Error = err.Error()
		return a
	}
	if err := r.cache.AddPod(r.logger, bound); err != nil {
		a.Error = err.Error()
		return a
	}
	a.Node = host
	if r.timing {
		r.awaitClaims(bound)
	} else {
		a.Claims = r.allocations(bound)
	}
	return a
}

// postFilter: schedulingAlgorithm's PostFilter pass after a FitError (every PostFilter plugin of the profile,
// DynamicResources' deallocation of an unavailable claim and DefaultPreemption, until one succeeds). Its message goes
// into the attempt; what it changed in the API server reaches the next cycles through the informers.
func (r *run) postFilter(state fwk.CycleState, pod *v1.Pod, statuses *framework.NodeToStatus, a *attempt) {
	a.fitError = true
	if state.IsPodGroupSchedulingCycle() || !r.framework.HasPostFilterPlugins() {
		return
	}
	a.fitError = true
	before := r.versioned.schedulerClaimWrites()
	result, s := r.framework.RunPostFilterPlugins(r.ctx, state, pod, statuses)
	a.PostFilter = s.Message()
	a.postFilterWrote = r.versioned.schedulerClaimWrites() != before
	if result != nil {
		a.nominatingInfo = result.NominatingInfo
		if result.NominatingInfo.Mode() == fwk.ModeOverride {
			name := result.NominatingInfo.NominatedNodeName
			a.Nominate = &name
		}
	}
	a.postFilterState, a.postFilterStatuses = state, statuses
}

// allocations: the claims of a bound pod as the API server holds them now, by the pod's claim name
// ("<extended-resources>" for the claim DynamicResources made for extended resources).
func (r *run) allocations(pod *v1.Pod) map[string]*resourceapi.AllocationResult {
	out := map[string]*resourceapi.AllocationResult{}
	list, err := r.client.ResourceV1().ResourceClaims(pod.Namespace).List(r.ctx, metav1.ListOptions{})
	if err != nil {
		return nil
	}
	names := map[string]string{}
	for _, pc := range pod.Spec.ResourceClaims {
		if pc.ResourceClaimName != nil {
			names[*pc.ResourceClaimName] = pc.Name
		} else if n := claimStatusName(pod, pc.Name); n != nil {
			names[*n] = pc.Name
		}
	}
	for i := range list.Items {
		c := &list.Items[i]
		key, ok := names[c.Name]
		if !ok && c.Annotations[resourceapi.ExtendedResourceClaimAnnotation] == "true" &&
			len(c.OwnerReferences) > 0 && c.OwnerReferences[0].UID == pod.UID {
			key, ok = "<extended-resources>", true
		}
		if ok {
			out[key] = c.Status.Allocation
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// awaitClaims is allocations for -time mode: the pod's own claims fetched by name (not the namespace listed) and
// waited for until the assume cache has them.
func (r *run) awaitClaims(pod *v1.Pod) {
	for _, pc := range pod.Spec.ResourceClaims {
		name := pc.ResourceClaimName
		if name == nil {
			name = claimStatusName(pod, pc.Name)
		}
		if name == nil {
			continue
		}
		c, err := r.client.ResourceV1().ResourceClaims(pod.Namespace).Get(r.ctx, *name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && !r.seen(c) {
			time.Sleep(time.Millisecond)
		}
	}
}

// seen: the assume cache's handlers have the claim as the API server does (syncClaims).
func (r *run) seen(c *resourceapi.ResourceClaim) bool {
	return r.delivered.version(c.Namespace+"/"+c.Name) == c.ResourceVersion
}

// syncClaims waits until the claims' informer has delivered every write since the last call through the assume
// cache to its handlers (each claim written, created or deleted in its current version at the API server, or gone),
// as a scheduler between two pods has the events processed, so that the next cycle sees them. It mirrors
// test/integration/util's WaitForReflection (a written object observed where the code under test reads it before
// the test goes on), where the reading is allocatedDevices: the version the queue's handler, after allocatedDevices',
// was handed (claimEvents), not the assume cache's store, which holds a version a moment before its handlers have it.
// Only the claims written are looked at: a pass over every claim per attempt made the oracle's own bookkeeping grow
// with the cluster.
func (r *run) syncClaims() error {
	gvr := resourceapi.SchemeGroupVersion.WithResource("resourceclaims")
	deadline := time.Now().Add(10 * time.Second)
	for {
		written := r.versioned.writtenClaims()
		caughtUp := true
		for key := range written {
			ns, name, _ := strings.Cut(key, "/")
			want := ""
			if obj, err := r.versioned.ObjectTracker.Get(gvr, ns, name); err == nil {
				if m, err := apimeta.Accessor(obj); err == nil {
					want = m.GetResourceVersion()
				}
			}
			if want != r.delivered.version(key) {
				caughtUp = false
				break
			}
		}
		if caughtUp {
			r.versioned.forgetClaims(written)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the claims' assume cache did not catch up with the API server")
		}
		time.Sleep(time.Millisecond)
	}
}

// claimEvents stands in for the scheduling queue's handler on the claims' assume cache: per claim (namespace/name)
// the resourceVersion of the newest object it was handed, none once the claim was deleted.
type claimEvents struct {
	mu       sync.Mutex
	versions map[string]string
}

func (e *claimEvents) version(key string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.versions[key]
}

func (e *claimEvents) set(obj any, deleted bool) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	c, ok := obj.(*resourceapi.ResourceClaim)
	if !ok {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if deleted {
		delete(e.versions, c.Namespace+"/"+c.Name)
	} else {
		e.versions[c.Namespace+"/"+c.Name] = c.ResourceVersion
	}
}

func (e *claimEvents) OnAdd(obj any, _ bool) { e.set(obj, false) }
func (e *claimEvents) OnUpdate(_, obj any)   { e.set(obj, false) }
func (e *claimEvents) OnDelete(obj any)      { e.set(obj, true) }

// versionedTracker stores every created, updated or patched object under the next resourceVersion, counts the
// writes to claims and keeps the writes to pods until they are taken.
type versionedTracker struct {
	k8stesting.ObjectTracker
	mu     sync.Mutex
	next   int64
	claims int
	// controllerClaims: the part of claims written through the resourceclaim controller's client (controllerTracker).
	controllerClaims int
	pods             []podEvent
	// written: the claims (namespace/name) written since syncClaims last found them caught up, with a count of
	// their writes, so that one written again meanwhile stays.
	written map[string]int
}

// podWrite records a write to a pod: the stored pod before it, and after it (nil for a deletion).
func (t *versionedTracker) podWrite(gvr schema.GroupVersionResource, ns, name string, after runtime.Object) {
	if gvr.Resource != "pods" {
		return
	}
	before, err := t.ObjectTracker.Get(gvr, ns, name)
	if err != nil {
		return
	}
	e := podEvent{old: before.(*v1.Pod)}
	if after != nil {
		e.new = after.DeepCopyObject().(*v1.Pod)
	}
	t.mu.Lock()
	t.pods = append(t.pods, e)
	t.mu.Unlock()
}

// takePodEvents returns the pod writes recorded since the last call, in order.
func (t *versionedTracker) takePodEvents() []podEvent {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.pods
	t.pods = nil
	return out
}

// schedulerClaimWrites: how often a claim was written other than by the resourceclaim controller. The controller
// writes after pod events on its own goroutine (reserveFor for a bound pod's shared claim, releasing a deleted pod's
// claims), so those writes can land while a later pod's PostFilter runs; counting them made that PostFilter look
// like one that changed a claim, and the pods it failed were queued again on a loaded machine only.
func (t *versionedTracker) schedulerClaimWrites() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.claims - t.controllerClaims
}

// controllerTracker is the API server as the resourceclaim controller's client reaches it: the same store, with the
// controller's claim writes counted apart.
type controllerTracker struct {
	*versionedTracker
}

func (t controllerTracker) countController(gvr schema.GroupVersionResource) {
	if gvr.Resource == "resourceclaims" {
		t.mu.Lock()
		t.controllerClaims++
		t.mu.Unlock()
	}
}

func (t controllerTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	t.countController(gvr)
	return t.versionedTracker.Create(gvr, obj, ns, opts...)
}

func (t controllerTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	t.countController(gvr)
	return t.versionedTracker.Update(gvr, obj, ns, opts...)
}

func (t controllerTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	t.countController(gvr)
	return t.versionedTracker.Patch(gvr, obj, ns, opts...)
}

func (t controllerTracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	t.countController(gvr)
	return t.versionedTracker.Delete(gvr, ns, name, opts...)
}

func (t *versionedTracker) countClaim(gvr schema.GroupVersionResource, ns, name string) {
	if gvr.Resource == "resourceclaims" {
		t.mu.Lock()
		t.claims++
		if t.written == nil {
			t.written = map[string]int{}
		}
		t.written[ns+"/"+name]++
		t.mu.Unlock()
	}
}

// writtenClaims: the claims written since they were last forgotten, with their write counts.
func (t *versionedTracker) writtenClaims() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.written)
}

// forgetClaims drops the claims of an earlier writtenClaims that were not written again since.
func (t *versionedTracker) forgetClaims(seen map[string]int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, n := range seen {
		if t.written[key] == n {
			delete(t.written, key)
		}
	}
}

func (t *versionedTracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	t.countClaim(gvr, ns, name)
	t.podWrite(gvr, ns, name, nil)
	return t.ObjectTracker.Delete(gvr, ns, name, opts...)
}

func (t *versionedTracker) version(obj runtime.Object) (runtime.Object, error) {
	obj = obj.DeepCopyObject()
	m, err := apimeta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.next++
	m.SetResourceVersion(strconv.FormatInt(t.next, 10))
	t.mu.Unlock()
	return obj, nil
}

func (t *versionedTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	obj, err := t.version(obj)
	if err != nil {
		return err
	}
	if m, err := apimeta.Accessor(obj); err == nil {
		t.countClaim(gvr, ns, m.GetName())
	}
	return t.ObjectTracker.Create(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	obj, err := t.version(obj)
	if err != nil {
		return err
	}
	if m, err := apimeta.Accessor(obj); err == nil {
		t.countClaim(gvr, ns, m.GetName())
		t.podWrite(gvr, ns, m.GetName(), obj)
	}
	return t.ObjectTracker.Update(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	obj, err := t.version(obj)
	if err != nil {
		return err
	}
	if m, err := apimeta.Accessor(obj); err == nil {
		t.countClaim(gvr, ns, m.GetName())
		t.podWrite(gvr, ns, m.GetName(), obj)
	}
	return t.ObjectTracker.Patch(gvr, obj, ns, opts...)
}

func sortedList[T interface{ UnsortedList() []string }](s T) []string {
	l := s.UnsortedList()
	sort.Strings(l)
	return l
}

func allSynced(synced []cache.InformerSynced) bool {
	for _, s := range synced {
		if !s() {
			return false
		}
	}
	return true
}
