package main

// DefaultPreemption carried out: what the scheduler does around its PostFilter result, and what the rest of the
// control plane does with the victims. The nominator is upstream's scheduling queue, the victims are deleted by
// upstream's preemption Executor (asynchronously, as 1.37 does by default), their claims released by upstream's
// resourceclaim controller running in-process; the glue here waits for each of them and delivers the pod events
// the scheduler's informer handlers would deliver (pkg/scheduler/eventhandlers.go).

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/util"
)

// podEvent is one write to a pod the API server took: old is the pod before it, new after (nil when deleted).
type podEvent struct {
	old, new *v1.Pod
}

// capturePreemption wraps the registry's DefaultPreemption factory so that the run holds the plugin instance, whose
// Executor says when an asynchronous preemption is done.
func capturePreemption(registry frameworkruntime.Registry, into **defaultpreemption.DefaultPreemption) {
	factory := registry[defaultpreemption.Name]
	registry[defaultpreemption.Name] = func(ctx context.Context, args runtime.Object, fh fwk.Handle) (fwk.Plugin, error) {
		p, err := factory(ctx, args, fh)
		if pl, ok := p.(*defaultpreemption.DefaultPreemption); ok {
			*into = pl
		}
		return p, err
	}
}

// afterPostFilter: the preemption the PostFilter pass started runs to its end (the Executor's goroutine deletes the
// victims), the pod events reach the scheduler, and the resourceclaim controller releases the victims' claims. The
// victims go into the attempt.
func (r *run) afterPostFilter(pod *v1.Pod, a *attempt) error {
	deadline := time.Now().Add(30 * time.Second)
	for r.preemption != nil && r.preemption.Executor.IsPodRunningPreemption(pod.UID) {
		if time.Now().After(deadline) {
			return fmt.Errorf("the preemption of %s/%s did not finish", pod.Namespace, pod.Name)
		}
		time.Sleep(time.Millisecond)
	}
	if a.Nominate != nil && *a.Nominate != "" && !r.timing {
		ties, err := r.preemptionTies(pod, a)
		if err != nil {
			return err
		}
		a.NominationTies = ties
	}
	deleted := r.deliverPodEvents()
	for _, p := range deleted {
		a.Victims = append(a.Victims, p.Namespace+"/"+p.Name)
	}
	sort.Strings(a.Victims)
	if len(deleted) == 0 {
		return nil
	}
	return r.claims.awaitReleased(r.ctx, r, deleted)
}

// selectionTrials: how often SelectCandidate is asked to pick a candidate over the nominated node before the two count
// as not tied. pickOneNodeForPreemption ranges over a map, so among candidates tied on every criterion the one it
// returns depends on Go's random iteration order; for a two-entry map the entry inserted first comes first 7 times in 8
// (measured on Go 1.26), so a tied candidate listed first goes unreturned 40 times with a probability of 8^-40.
const selectionTrials = 40

// preemptionTies: the preemption candidates upstream's own selection could have nominated instead of the node the
// PostFilter pass nominated, each with the victims upstream selects on it. The nomination's randomness has two
// sources: DefaultPreemption's dry run starts at a random offset (GetOffsetAndNumCandidates) and runs nodes in
// parallel, and SelectCandidate takes the first of the candidates tied on every criterion of
// pickOneNodeForPreemption in map order. So the glue mirrors findCandidates with the same snapshot, cycle state,
// node statuses, PDBs and pod (evaluate's latest copy) but offset 0 and every potential node as numCandidates
// (DryRunPreemption then evaluates each one; with the default args and under 1,000 nodes that is upstream's
// calculateNumCandidates too), and asks upstream's SelectCandidate, for each other candidate c, to choose between c
// (listed first) and the nominated candidate. pickOneNodeForPreemption's criteria are applied one after another, so
// the nominated node (the choice among all candidates) is never beaten: c is returned only when it is tied with it on
// every criterion. Runs after the preemption was carried out and before the pod events reach the scheduler, so the
// snapshot and the nominator are as the PostFilter pass saw them.
func (r *run) preemptionTies(pod *v1.Pod, a *attempt) (map[string][]string, error) {
	ev := r.preemption.Evaluator
	latest, err := ev.PodLister.Pods(pod.Namespace).Get(pod.Name)
	if err != nil {
		return nil, err
	}
	potential, err := a.postFilterStatuses.NodesForStatusCode(ev.Handler.MutableSnapshotSharedLister().NodeInfos(), fwk.Unschedulable)
	if err != nil {
		return nil, err
	}
	pdbs, err := ev.PdbLister.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	candidates, _, err := ev.DryRunPreemption(r.ctx, a.postFilterState, latest, potential, pdbs, 0, int32(len(potential)))
	if err != nil {
		return nil, err
	}
	var nominated preemption.Candidate
	for _, c := range candidates {
		if c.Name() == *a.Nominate {
			nominated = c
		}
	}
	if nominated == nil {
		return nil, fmt.Errorf("the preemption dry run of %s/%s found no candidate on the nominated node %s", pod.Namespace, pod.Name, *a.Nominate)
	}
	ties := map[string][]string{nominated.Name(): victimNames(nominated)}
	for _, c := range candidates {
		if c == nominated {
			continue
		}
		for i := 0; i < selectionTrials; i++ {
			if ev.SelectCandidate(r.ctx, []preemption.Candidate{c, nominated}).Name() == c.Name() {
				ties[c.Name()] = victimNames(c)
				break
			}
		}
	}
	return ties, nil
}

func victimNames(c preemption.Candidate) []string {
	var names []string
	for _, p := range c.Victims().Pods {
		names = append(names, p.Namespace+"/"+p.Name)
	}
	sort.Strings(names)
	return names
}

// handleFailure mirrors handleSchedulingFailure's nomination (schedule_one.go): the pod as the informer holds it
// goes to the nominator with the cycle's NominatingInfo, and updatePod writes nominatedNodeName when the mode is
// Override and the name differs. The status write then reaches the queue as an update event.
func (r *run) handleFailure(pod *v1.Pod, nominatingInfo *fwk.NominatingInfo) error {
	cached, err := r.client.CoreV1().Pods(pod.Namespace).Get(r.ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	if cached.Spec.NodeName != "" || cached.UID != pod.UID {
		return nil
	}
	pi, err := framework.NewPodInfo(cached.DeepCopy())
	if err != nil {
		return err
	}
	r.queue.AddNominatedPod(r.logger, pi, nominatingInfo)
	if nominatingInfo.Mode() == fwk.ModeOverride && cached.Status.NominatedNodeName != nominatingInfo.NominatedNodeName {
		status := cached.Status.DeepCopy()
		status.NominatedNodeName = nominatingInfo.NominatedNodeName
		if err := util.PatchPodStatus(r.ctx, r.client, cached.Name, cached.Namespace, &cached.Status, status); err != nil {
			return err
		}
	}
	r.deliverPodEvents()
	return nil
}

// deliverPodEvents hands the pod writes since the last call to the scheduler as its informer handlers do: an
// unassigned pod's update to the queue (which updates its nomination), an unassigned pod that got bound or deleted
// out of the queue (and the nominator), an assigned pod's deletion out of the cache. Adding a bound pod to the cache
// stays with the binding. Returns the assigned pods deleted.
func (r *run) deliverPodEvents() []*v1.Pod {
	var deleted []*v1.Pod
	for _, e := range r.versioned.takePodEvents() {
		switch {
		case e.old == nil:
		case e.new == nil && e.old.Spec.NodeName != "":
			if err := r.cache.RemovePod(r.logger, e.old); err == nil {
				deleted = append(deleted, e.old)
			}
		case e.new == nil:
			r.queue.Delete(r.logger, e.old)
		case e.old.Spec.NodeName == "" && e.new.Spec.NodeName == "":
			r.queue.Update(r.ctx, e.old, e.new)
		case e.old.Spec.NodeName == "":
			r.queue.Delete(r.logger, e.old)
		default:
			r.cache.UpdatePod(r.logger, e.old, e.new)
		}
	}
	return deleted
}

// newNominator is upstream's scheduling queue as scheduler.New makes it, holding every pending pod (its nominator
// answers NominatedPodsForNode with the pods it holds). The oracle takes pods in its own pass order and never pops
// this queue; it serves as the framework's PodNominator and PodActivator.
func newNominator(ctx context.Context, r *run, pending []*v1.Pod) *internalqueue.PriorityQueue {
	q := internalqueue.NewPriorityQueue(r.framework.QueueSortFunc(), r.factory,
		internalqueue.WithPodLister(r.factory.Core().V1().Pods().Lister()))
	r.framework.SetPodNominator(q)
	r.framework.SetPodActivator(q)
	for _, p := range pending {
		q.Add(ctx, p)
	}
	return q
}

// claimController is upstream's resourceclaim controller over the run's informers, with its workqueue's counts:
// every key the queue takes (adds) is processed once (dones), so adds == dones when it has nothing left to do.
type claimController struct {
	counts *queueCounts
}

// startClaimController creates the controller (its informer handlers registered before the factory starts) and
// runs it with one worker until the context ends.
func startClaimController(ctx context.Context, r *run) (*claimController, error) {
	workqueue.SetProvider(countingProvider)
	ec, err := resourceclaim.NewController(r.logger, r.controllerClient, r.factory.Core().V1().Pods(),
		r.factory.Scheduling().V1beta1().PodGroups(), r.factory.Resource().V1().ResourceClaims(),
		r.factory.Resource().V1().ResourceClaimTemplates())
	if err != nil {
		return nil, err
	}
	c := &claimController{counts: countingProvider.latest()}
	go ec.Run(ctx, 1)
	return c, nil
}

// awaitIdle waits until the controller has processed every key it took and that stayed so for a while (events
// still on their way to its handlers then have arrived).
func (c *claimController) awaitIdle() error {
	deadline := time.Now().Add(30 * time.Second)
	stable := 0
	for stable < 5 {
		if c.counts.idle() {
			stable++
		} else {
			stable = 0
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the resourceclaim controller did not settle")
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// awaitReleased waits until no claim in the API server is reserved for a deleted pod any more (the controller has
// had the deletions), then until the controller is idle.
func (c *claimController) awaitReleased(ctx context.Context, r *run, deleted []*v1.Pod) error {
	gone := map[types.UID]bool{}
	for _, p := range deleted {
		gone[p.UID] = true
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		list, err := r.client.ResourceV1().ResourceClaims(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		reserved := false
		for _, claim := range list.Items {
			for _, ref := range claim.Status.ReservedFor {
				reserved = reserved || gone[ref.UID]
			}
		}
		if !reserved {
			return c.awaitIdle()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the resourceclaim controller did not release the claims of the deleted pods")
		}
		time.Sleep(time.Millisecond)
	}
}

// queueCounts: one workqueue's adds and finished items.
type queueCounts struct {
	mu          sync.Mutex
	adds, dones int64
}

func (q *queueCounts) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.adds == q.dones
}

// provider is the workqueue MetricsProvider that counts the resourceclaim controller's queues (one per snapshot
// run, the latest being the one in use); every other metric is discarded.
type provider struct {
	mu   sync.Mutex
	last *queueCounts
}

var countingProvider = &provider{}

func (p *provider) latest() *queueCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

type countAdds struct{ q *queueCounts }

func (c countAdds) Inc() {
	c.q.mu.Lock()
	c.q.adds++
	c.q.mu.Unlock()
}

type countDones struct{ q *queueCounts }

func (c countDones) Observe(float64) {
	c.q.mu.Lock()
	c.q.dones++
	c.q.mu.Unlock()
}

type discard struct{}

func (discard) Inc()            {}
func (discard) Dec()            {}
func (discard) Set(float64)     {}
func (discard) Observe(float64) {}

func (p *provider) NewDepthMetric(string) workqueue.GaugeMetric { return discard{} }

// NewAddsMetric is called first for each new queue: it opens the queue's counts.
func (p *provider) NewAddsMetric(name string) workqueue.CounterMetric {
	if name != "resource_claim" {
		return discard{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = &queueCounts{}
	return countAdds{p.last}
}

func (p *provider) NewLatencyMetric(string) workqueue.HistogramMetric { return discard{} }

func (p *provider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	if name != "resource_claim" {
		return discard{}
	}
	return countDones{p.latest()}
}

func (p *provider) NewUnfinishedWorkSecondsMetric(string) workqueue.SettableGaugeMetric {
	return discard{}
}

func (p *provider) NewLongestRunningProcessorSecondsMetric(string) workqueue.SettableGaugeMetric {
	return discard{}
}

func (p *provider) NewRetriesMetric(string) workqueue.CounterMetric { return discard{} }
