package main

// The scheduling loop over one snapshot. The plugins, the framework, the scheduler cache and snapshot, the DRA
// manager, the ResourceSlice tracker and the claims' assume cache are upstream's, set up as scheduler.New sets
// them up (pkg/scheduler/scheduler.go). The loop itself is glue: each step mirrors the named function of
// pkg/scheduler/schedule_one.go and records what that function decides.

import (
	"context"
	"fmt"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
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
	Snapshot  string                                   `json:"snapshot"`
	Pod       string                                   `json:"pod"`
	PreFilter *verdict                                 `json:"preFilter,omitempty"`
	Feasible  []string                                 `json:"feasible"`
	Rejected  map[string]verdict                       `json:"rejected"`
	Scores    map[string]nodeScore                     `json:"scores,omitempty"`
	Best      []string                                 `json:"best"`
	Node      string                                   `json:"node"`
	Failure   *verdict                                 `json:"failure,omitempty"`
	Error     string                                   `json:"error,omitempty"`
	Claims    map[string]*resourceapi.AllocationResult `json:"claims,omitempty"`
}

func toVerdict(s *fwk.Status) *verdict {
	return &verdict{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: append([]string{}, s.Reasons()...)}
}

// noNominations is the PodNominator of a queue without nominated pods: the oracle runs no PostFilter
// (DefaultPreemption), so no pod is ever nominated.
type noNominations struct{}

func (noNominations) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (noNominations) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (noNominations) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (noNominations) NominatedPodsForNode(string) []fwk.PodInfo                     { return nil }

type run struct {
	ctx        context.Context
	logger     klog.Logger
	client     *fake.Clientset
	framework  framework.Framework
	cache      internalcache.Cache
	snapshot   *internalcache.Snapshot
	dra        *dynamicresources.DefaultDRAManager
	claimCache *assumecache.AssumeCache
	nextStart  int
	claimNames map[string]bool
}

func runSnapshot(s *snapshot, emit func(*attempt)) (err error) {
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
	r := &run{ctx: ctx, logger: logger, claimNames: map[string]bool{}}
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
	r.client = fake.NewClientset(objects...)
	// The API server's name generation for created claims (DynamicResources creates the extended-resource claim
	// with generateName), deterministic as in readSnapshot.
	r.client.PrependReactor("create", "resourceclaims", func(action k8stesting.Action) (bool, runtime.Object, error) {
		claim, ok := action.(k8stesting.CreateAction).GetObject().(*resourceapi.ResourceClaim)
		if ok && claim.Name == "" && claim.GenerateName != "" {
			claim.Name = generatedName(claim.Namespace, claim.GenerateName, func(n string) bool { return r.claimNames[claim.Namespace+"/"+n] })
			claim.UID = types.UID("uid-resourceclaim-" + claim.Namespace + "-" + claim.Name)
			r.claimNames[claim.Namespace+"/"+claim.Name] = true
			// A resourceVersion as every other stored object carries (readSnapshot's defaultMeta; the fake tracker
			// assigns none): without one the claims' assume cache rejects the claim, so its devices never counted
			// as allocated.
			claim.ResourceVersion = "1"
			gvr := action.GetResource()
			if err := r.client.Tracker().Create(gvr, claim, claim.Namespace); err != nil {
				return true, nil, err
			}
			stored, err := r.client.Tracker().Get(gvr, claim.Namespace, claim.Name)
			return true, stored, err
		}
		return false, nil, nil
	})

	// scheduler.New: informers, the claims' assume cache, the ResourceSlice tracker and the DRA manager.
	factory := informers.NewSharedInformerFactory(r.client, 0)
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

	// scheduler.New: the default profile (apis/config/latest.Default) over the in-tree registry.
	cfg, err := latest.Default()
	if err != nil {
		return err
	}
	metrics.Register()
	r.snapshot = internalcache.NewEmptySnapshot()
	r.cache = internalcache.New(ctx, nil, utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload),
		utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup))
	r.framework, err = frameworkruntime.NewFramework(ctx, frameworkplugins.NewInTreeRegistry(), &cfg.Profiles[0],
		frameworkruntime.WithClientSet(r.client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSharedDRAManager(r.dra),
		frameworkruntime.WithSnapshotSharedLister(r.snapshot),
		frameworkruntime.WithMutableSnapshotLister(r.snapshot),
		frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
		frameworkruntime.WithPodNominator(noNominations{}),
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
	var synced []cache.InformerSynced
	if utilfeature.DefaultFeatureGate.Enabled(features.DRAExtendedResource) {
		erCache := r.dra.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache)
		registration, err := factory.Resource().V1().DeviceClasses().Informer().AddEventHandler(erCache)
		if err != nil {
			return err
		}
		synced = append(synced, registration.HasSynced)
	}
	factory.Start(ctx.Done())
	// Shutdown waits for the informers, which stop when the context is cancelled.
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.WaitForCacheSync(ctx.Done())
	// The informers deliver to the assume cache and the tracker asynchronously: wait until both have everything.
	deadline := time.Now().Add(30 * time.Second)
	for len(claimCache.List(nil)) < len(s.claims) || !sliceTracker.HasSynced() || !allSynced(synced) {
		if time.Now().After(deadline) {
			return fmt.Errorf("informers did not sync")
		}
		time.Sleep(time.Millisecond)
	}

	// The scheduler cache as its informer handlers fill it: nodes, then the pods already bound.
	for _, n := range s.nodes {
		r.cache.AddNode(logger, n)
	}
	var queue []*framework.QueuedPodInfo
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
		if p.Spec.SchedulerName != v1.DefaultSchedulerName || len(p.Spec.SchedulingGates) > 0 {
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

	// The queue as dra4j simulates it (Simulation.scheduleAll): pass after pass in queue order; a pod that failed
	// is tried again after a binding only when a binding can help it (an error, or a rejection by InterPodAffinity
	// or PodTopologySpread, which count pods: upstream's queueing hints for an assigned pod's add event).
	type lastAttempt struct {
		placements int
		helped     bool
	}
	placements := 0
	seen := map[types.UID]lastAttempt{}
	pending := queue
	for len(pending) > 0 {
		var still []*framework.QueuedPodInfo
		tried := false
		for _, qpi := range pending {
			if last, ok := seen[qpi.Pod.UID]; ok && (!last.helped || last.placements == placements) {
				still = append(still, qpi)
				continue
			}
			tried = true
			a := r.schedule(qpi.Pod)
			emit(a)
			if a.Node != "" {
				placements++
			} else {
				seen[qpi.Pod.UID] = lastAttempt{placements: placements, helped: helpedByBindings(a)}
				still = append(still, qpi)
			}
		}
		if !tried {
			break
		}
		pending = still
	}
	return nil
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

// schedule is one scheduling cycle: schedulingCycle → schedulingAlgorithm → schedulePod (findNodesThatFitPod,
// prioritizeNodes, selectHost), then assumeAndReserve, Permit and, of the binding cycle, PreBind; binding itself is
// the cache's AddPod of the bound pod (the informer's add event after DefaultBinder's API call).
func (r *run) schedule(pod *v1.Pod) *attempt {
	a := &attempt{Pod: pod.Namespace + "/" + pod.Name, Feasible: []string{}, Rejected: map[string]verdict{}, Best: []string{}}
	ctx := r.ctx
	if err := r.cache.UpdateSnapshot(r.logger, r.snapshot); err != nil {
		a.Error = err.Error()
		return a
	}
	// The latest pod object (an earlier attempt's PreBind may have patched its status).
	if latest, err := r.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{}); err == nil {
		pod = latest
	}
	state := framework.NewCycleState()
	allNodes, err := r.snapshot.NodeInfos().List()
	if err != nil || len(allNodes) == 0 {
		a.Error = "no nodes available to schedule pods"
		return a
	}

	// findNodesThatFitPod: PreFilter.
	preRes, s, unscheduledPlugins := r.framework.RunPreFilterPlugins(ctx, state, pod)
	if !s.IsSuccess() {
		if !s.IsRejected() {
			a.Error = s.AsError().Error()
			return a
		}
		a.PreFilter = toVerdict(s)
		return a
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
	}

	// findNodesThatPassFilters, one node after another from nextStartNodeIndex (upstream runs them in parallel);
	// the generated fleets stay under minFeasibleNodesToFind (100), so every node is evaluated.
	var feasible []fwk.NodeInfo
	processed := 0
	for i := range nodes {
		nodeInfo := nodes[(r.nextStart+i)%len(nodes)]
		processed++
		status := r.framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodeInfo)
		if status.Code() == fwk.Error {
			a.Error = status.AsError().Error()
			return a
		}
		if status.IsSuccess() {
			feasible = append(feasible, nodeInfo)
			a.Feasible = append(a.Feasible, nodeInfo.Node().Name)
		} else {
			a.Rejected[nodeInfo.Node().Name] = *toVerdict(status)
		}
	}
	if len(nodes) > 0 {
		r.nextStart = (r.nextStart + processed) % len(allNodes)
	}
	if len(feasible) == 0 {
		return a
	}

	// schedulePod: a single feasible node is taken without scoring; otherwise prioritizeNodes.
	host := feasible[0].Node().Name
	if len(feasible) > 1 {
		if st := r.framework.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
			a.Error = st.AsError().Error()
			return a
		}
		scores, st := r.framework.RunScorePlugins(ctx, state, pod, feasible)
		if !st.IsSuccess() {
			a.Error = st.AsError().Error()
			return a
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

	// assumeAndReserve, Permit, PreBind.
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = host
	if err := r.cache.AssumePod(r.logger, assumed); err != nil {
		a.Error = err.Error()
		return a
	}
	fail := func(s *fwk.Status) *attempt {
		r.framework.RunReservePluginsUnreserve(ctx, state, assumed, host)
		r.cache.ForgetPod(r.logger, assumed)
		if s.Code() == fwk.Error {
			a.Error = s.AsError().Error()
		} else {
			a.Failure = toVerdict(s)
		}
		return a
	}
	if s := r.framework.RunReservePluginsReserve(ctx, state, assumed, host); !s.IsSuccess() {
		return fail(s)
	}
	if _, s := r.framework.RunPermitPlugins(ctx, state, assumed, host); !s.IsSuccess() {
		return fail(s)
	}
	if s := r.framework.RunPreBindPlugins(ctx, state, assumed, host); !s.IsSuccess() {
		return fail(s)
	}
	// DefaultBinder's Bind, as the API server and the informer would apply it.
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
	a.Claims = r.allocations(bound)
	return a
}

// allocations: the claims of a bound pod as the API server holds them now, by the pod's claim name
// ("<extended-resources>" for the claim DynamicResources made for extended resources). It then waits until the
// claims' informer has delivered them to the assume cache, as a scheduler between two pods has the events
// processed, so that the next cycle sees them.
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
		if !ok {
			continue
		}
		out[key] = c.Status.Allocation
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && !r.seen(c) {
			time.Sleep(time.Millisecond)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// seen: the assume cache holds the claim as the API server does.
func (r *run) seen(c *resourceapi.ResourceClaim) bool {
	obj, err := r.claimCache.Get(c.Namespace + "/" + c.Name)
	if err != nil {
		return false
	}
	cached, ok := obj.(*resourceapi.ResourceClaim)
	return ok && cached.ResourceVersion == c.ResourceVersion
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
