package main

// Pod groups (GenericWorkload): pods naming a PodGroup in spec.schedulingGroup.podGroupName are held by the
// profile's PreEnqueue plugins (GangScheduling: until their PodGroup exists and, for a gang, minCount pods of it
// do) and scheduled together in one pod group cycle (pkg/scheduler/schedule_one_podgroup.go). The decisions are
// upstream's plugins' (PreEnqueue, PlacementFeasible, Permit, and every per-pod plugin); the code here is glue, each
// step naming the upstream function it mirrors. CompositePodGroup and TopologyAwareWorkloadScheduling are off (their
// 1.37 defaults), so a PodGroup is its own root and the default (non-placement) algorithm runs.

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
)

// podGroupOutcome is what became of one PodGroup: whether its policy is gang, its members bound at the end of the
// run, and the status its last pod group cycle ended with ("" when it succeeded), or the PreEnqueue status that kept
// its members out of the queue when no cycle ran.
type podGroupOutcome struct {
	Gang      bool   `json:"gang"`
	Scheduled int    `json:"scheduled"`
	Status    string `json:"status"`
}

// outcome is the end of a run: per pod its node ("" when pending), the pods a PreEnqueue plugin kept out of the
// queue with its message, and per PodGroup its outcome.
type outcome struct {
	Pods       map[string]string          `json:"pods"`
	PreEnqueue map[string]string          `json:"preEnqueue,omitempty"`
	PodGroups  map[string]podGroupOutcome `json:"podGroups,omitempty"`
}

// podGroupKey is "namespace/name" of the PodGroup the pod names, "" for a pod in none.
func podGroupKey(p *v1.Pod) string {
	if p.Spec.SchedulingGroup == nil || p.Spec.SchedulingGroup.PodGroupName == nil {
		return ""
	}
	return p.Namespace + "/" + *p.Spec.SchedulingGroup.PodGroupName
}

// preEnqueue mirrors the scheduling queue's runPreEnqueuePluginsForPod (backend/queue/scheduling_queue.go): the
// profile's PreEnqueue plugins in order until one does not admit the pod. A pod they reject is never popped.
func (r *run) preEnqueue(p *v1.Pod) *fwk.Status {
	for _, pl := range r.framework.PreEnqueuePlugins() {
		if s := pl.PreEnqueue(r.ctx, p); !s.IsSuccess() {
			s.SetPlugin(pl.Name())
			return s
		}
	}
	return nil
}

// podGroupMember is one pod of a pod group cycle: its attempt, its cycle state and the host its algorithm suggested
// ("" when it did not fit or could not be reserved).
type podGroupMember struct {
	pod   *v1.Pod
	a     *attempt
	state *framework.CycleState
	host  string
}

// podGroupCycle is one pod group cycle of a PodGroup over its queued members, in the pod group's member order
// (framework.PodGroupMemberPodsOrderingFunc, as the queue keeps QueuedPodInfos). It mirrors scheduleOnePodGroup →
// podGroupCycle → runRootSchedulingAlgorithm → podGroupSchedulingDefaultAlgorithm, then
// submitPodGroupAlgorithmResult. PodGroupPostFilter (DynamicResources' deallocation, DefaultPreemption's
// workload-aware preemption) is not run. Returns one attempt per member, and the cycle's status message ("" on
// success).
func (r *run) podGroupCycle(pg *schedulingv1beta1.PodGroup, queued []*framework.QueuedPodInfo) ([]*attempt, string, error) {
	ctx := r.ctx
	if err := r.cache.UpdateSnapshot(r.logger, r.snapshot); err != nil {
		return nil, "", err
	}
	// The latest pod objects (an earlier attempt may have patched their status).
	var pods []*v1.Pod
	for _, q := range queued {
		pod := q.Pod
		if latest, err := r.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{}); err == nil {
			pod = latest
		}
		pods = append(pods, pod)
	}
	pgi := &framework.PodGroupInfo{Namespace: pg.Namespace, Name: pg.Name, Type: fwk.PodGroupKeyType, PodGroup: pg,
		UnscheduledPods: pods}
	// handlePodGroupFailureBeforeScheduling: a pod group that fails validatePodGroup fails every member with the
	// error, before any is tried.
	if err := validatePodGroup(pg, pods); err != nil {
		for _, p := range pods {
			if err := r.handleFailure(p, clearNominatedNode); err != nil {
				return nil, "", err
			}
		}
		r.deliverPodEvents()
		return nil, err.Error(), r.syncClaims()
	}

	// podGroupSchedulingAlgorithm: one implicit placement whose cycle state refers to the pod group's.
	podGroupCycleState := framework.NewCycleState()
	placementCycleState := framework.NewCycleState()
	placementCycleState.SetPodGroupSchedulingCycle(podGroupCycleState)

	// podGroupSchedulingDefaultAlgorithm: PlacementFeasible before any pod, then after each pod.
	var members []*podGroupMember
	var reverts []func()
	status := fwk.NewStatus(fwk.Unschedulable)
	anyScheduled := false
	pgState, err := r.snapshot.PodGroupStates().Get(pg.Namespace, pg.Name)
	if err != nil {
		status = fwk.AsStatus(fmt.Errorf("failed to get podGroup state for podGroup %s to compute gang feasibility: %w", klog.KObj(pgi), err))
	} else {
		progress := framework.PlacementProgress{Remaining: len(pods), Scheduled: pgState.ScheduledPodsCount()}
		status = r.framework.RunPlacementFeasiblePlugins(ctx, placementCycleState, pgi, progress)
		if status.IsError() {
			status = fwk.AsStatus(fmt.Errorf("failed to evaluate placement feasibility: %w", status.AsError()))
		} else if status.Code() != fwk.Unschedulable {
			for _, pod := range pods {
				m := r.podGroupPodSchedulingAlgorithm(pod, podGroupCycleState, placementCycleState, &reverts)
				members = append(members, m)
				if m.a.Error != "" {
					status = fwk.AsStatus(fmt.Errorf("failed to schedule other pod from a pod group: %w", errors.New(m.a.Error)))
					break
				}
				progress.Remaining--
				if m.host != "" {
					progress.Scheduled++
				}
				feasible := r.framework.RunPlacementFeasiblePlugins(ctx, placementCycleState, pgi, progress)
				if feasible.IsError() {
					status = fwk.AsStatus(fmt.Errorf("failed to evaluate placement feasibility: %w", feasible.AsError()))
					break
				}
				status = feasible
				if feasible.Code() == fwk.Unschedulable {
					break
				}
				anyScheduled = anyScheduled || m.host != ""
			}
		}
	}
	if status.IsWait() {
		status = fwk.NewStatus(fwk.Unschedulable, status.Reasons()...)
	}
	if !status.IsSuccess() {
		anyScheduled = false
	}
	// runRootSchedulingAlgorithm: success needs at least one pod scheduled in this cycle; every tentative
	// reservation is then taken back (revertFns.revert, latest first), also on success.
	if status.IsSuccess() && !anyScheduled {
		status = fwk.NewStatus(fwk.Unschedulable)
	}
	for i := len(reverts) - 1; i >= 0; i-- {
		reverts[i]()
	}

	// submitPodGroupAlgorithmResult: on success each scheduled member is assumed and reserved again and goes through
	// Permit (prepareForBindingCycle; GangScheduling makes it wait until minCount are scheduled, then allows them all),
	// then its binding cycle; every other member fails with its own status, or with the pod group's when it fitted.
	var attempts []*attempt
	var prepared []*podGroupMember
	fails := map[*podGroupMember]func(*fwk.Status) *attempt{}
	assumedPods := map[*podGroupMember]*v1.Pod{}
	for _, m := range members {
		attempts = append(attempts, m.a)
		switch {
		case status.IsSuccess() && m.host != "":
			m.state.SetPodGroupSchedulingCycle(nil)
			assumed, fail := r.assumeAndReserve(m.state, m.pod, m.host, m.a)
			if assumed == nil {
				m.a.Node = ""
				continue
			}
			waits, s := r.framework.RunPermitPlugins(ctx, m.state, assumed, m.host)
			if s.IsWait() {
				r.framework.AddWaitingPod(assumed, waits)
			} else if !s.IsSuccess() {
				fail(s)
				m.a.Node = ""
				continue
			}
			prepared = append(prepared, m)
			fails[m] = fail
			assumedPods[m] = assumed
		}
	}
	for _, m := range prepared {
		r.bindingCycle(m.state, m.pod, assumedPods[m], m.host, m.a, func(s *fwk.Status) *attempt {
			m.a.Node = ""
			return fails[m](s)
		})
	}
	// Every member that is not bound fails (handleSchedulingFailure, the nomination cleared); members the cycle did
	// not reach (PlacementFeasible stopped it) fail with the pod group's status (completePodGroupAlgorithmResult) and
	// have no attempt of their own. A member of a pod group that failed records the pod group's status.
	for _, m := range members {
		if !status.IsSuccess() {
			m.a.PodGroup = status.Message()
		}
	}
	for _, p := range pods {
		if err := r.handleFailure(p, clearNominatedNode); err != nil {
			return nil, "", err
		}
	}
	r.deliverPodEvents()
	if status.IsSuccess() {
		return attempts, "", r.syncClaims()
	}
	return attempts, status.Message(), r.syncClaims()
}

// podGroupPodSchedulingAlgorithm mirrors the function of that name: initPodSchedulingContext's cycle state (marked as
// a pod group cycle, with the placement's state), schedulingAlgorithm, then assumeAndReserveWithRevert, whose revert
// (unreserveAndForget) joins reverts. The attempt of a reserved member records the node and its claims' allocation.
func (r *run) podGroupPodSchedulingAlgorithm(pod *v1.Pod, podGroupCycleState, placementCycleState *framework.CycleState, reverts *[]func()) *podGroupMember {
	state := framework.NewCycleState()
	state.Write(framework.PodsToActivateKey, framework.NewPodsToActivate())
	state.SetPodGroupSchedulingCycle(podGroupCycleState)
	state.SetPlacementCycleState(placementCycleState)
	a, host := r.algorithm(state, pod)
	m := &podGroupMember{pod: pod, a: a, state: state}
	if host == "" {
		return m
	}
	assumed, _ := r.assumeAndReserve(state, pod, host, a)
	if assumed == nil {
		return m
	}
	m.host = host
	a.Node = host
	a.Claims = r.assumedAllocations(pod)
	*reverts = append(*reverts, func() { r.unreserveAndForget(state, assumed, host) })
	return m
}

// assumedAllocations: the allocation DynamicResources' Reserve made for each claim of the pod, held in flight by the
// DRA manager's claim tracker until PreBind writes it (GetPendingAllocation), or the claim's own when it was
// allocated before; by the pod's claim name.
func (r *run) assumedAllocations(pod *v1.Pod) map[string]*resourceapi.AllocationResult {
	out := map[string]*resourceapi.AllocationResult{}
	for _, pc := range pod.Spec.ResourceClaims {
		name := pc.ResourceClaimName
		if name == nil {
			name = claimStatusName(pod, pc.Name)
		}
		if name == nil {
			continue
		}
		obj, err := r.claimCache.Get(pod.Namespace + "/" + *name)
		if err != nil {
			continue
		}
		c, ok := obj.(*resourceapi.ResourceClaim)
		if !ok {
			continue
		}
		if pending := r.dra.ResourceClaims().GetPendingAllocation(c.UID); pending != nil {
			out[pc.Name] = pending.DeepCopy()
		} else if c.Status.Allocation != nil {
			out[pc.Name] = c.Status.Allocation.DeepCopy()
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// finalOutcome: every pod's node as the API server holds it at the end, the PreEnqueue rejections, and per PodGroup
// its members bound with the status of its last pod group cycle (the PreEnqueue message of its members when no
// cycle ran).
func (r *run) finalOutcome(s *snapshot, podGroups map[string]*schedulingv1beta1.PodGroup, cycles map[string]string) outcome {
	out := outcome{Pods: map[string]string{}, PreEnqueue: r.preEnqueued, PodGroups: map[string]podGroupOutcome{}}
	for key, pg := range podGroups {
		status, ran := cycles[key]
		if !ran {
			status = "not scheduled"
		}
		out.PodGroups[key] = podGroupOutcome{Gang: pg.Spec.SchedulingPolicy.Gang != nil, Status: status}
	}
	for _, p := range s.pods {
		key := p.Namespace + "/" + p.Name
		node := ""
		if stored, err := r.client.CoreV1().Pods(p.Namespace).Get(r.ctx, p.Name, metav1.GetOptions{}); err == nil {
			node = stored.Spec.NodeName
		}
		out.Pods[key] = node
		group := podGroupKey(p)
		pg, ok := out.PodGroups[group]
		if !ok {
			continue
		}
		if node != "" {
			pg.Scheduled++
		}
		if msg, held := r.preEnqueued[key]; held && pg.Status == "not scheduled" {
			pg.Status = msg
		}
		out.PodGroups[group] = pg
	}
	return out
}

// validatePodGroup mirrors scheduleOnePodGroup's validatePodGroup (PodGroupPreemptionPolicy off) for the queued
// members: one scheduler name (the default profile's), the pod group's priority, one preemption policy (the first
// member's). The members already scheduled (validateScheduledPods) are not checked again.
func validatePodGroup(pg *schedulingv1beta1.PodGroup, pods []*v1.Pod) error {
	schedulerName := ""
	var policy v1.PreemptionPolicy
	priority := schedutil.PodGroupPriority(pg)
	for _, pod := range pods {
		if schedulerName == "" {
			schedulerName = pod.Spec.SchedulerName
		}
		if pod.Spec.SchedulerName != schedulerName {
			return fmt.Errorf("all pods in a single pod group should have the same .spec.schedulerName set, got: %q and %q", pod.Spec.SchedulerName, schedulerName)
		}
		if p := corev1helpers.PodPriority(pod); p != priority {
			return fmt.Errorf("all pods in a single pod group should have the same priority as the pod group's priority, got %d and %d", p, priority)
		}
		podPolicy := v1.PreemptLowerPriority
		if pod.Spec.PreemptionPolicy != nil {
			podPolicy = *pod.Spec.PreemptionPolicy
		}
		if policy == "" {
			policy = podPolicy
		} else if podPolicy != policy {
			return fmt.Errorf("all pods in a single pod group should have the same preemption policy, got %v and %v", podPolicy, policy)
		}
	}
	if schedulerName != v1.DefaultSchedulerName {
		return fmt.Errorf("profile not found for scheduler name %q", schedulerName)
	}
	return nil
}
