package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
)

// filterOutcome is one line of -filter output: the pod's claims tried on every
// node of the cluster, as kube-scheduler's DynamicResources plugin does.
type filterOutcome struct {
	Scenario      string        `json:"scenario"`
	FeasibleNodes int           `json:"feasibleNodes"`
	SearchSteps   int64         `json:"searchSteps"`
	Nodes         []nodeOutcome `json:"nodes"`
	// Error is set when the allocator could not be built (PreFilter failed),
	// so that no node was tried.
	Error string `json:"error,omitempty"`
}

// nodeOutcome is the Filter result on one node; SearchSteps is upstream's
// allocateOne invocations for that node's Allocate call.
type nodeOutcome struct {
	Node        string       `json:"node"`
	Outcome     string       `json:"outcome"`
	Error       string       `json:"error,omitempty"`
	Allocations []allocation `json:"allocations,omitzero"`
	SearchSteps int64        `json:"searchSteps"`
}

// filterNodes is the cluster's node list: the scenario's `nodes`, or its one
// `node` when it has none.
func filterNodes(s *scenario) []*v1.Node {
	list := s.Nodes
	if len(list) == 0 {
		list = []scenarioNode{s.Node}
	}
	nodes := make([]*v1.Node, 0, len(list))
	for _, n := range list {
		nodes = append(nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: n.Labels}})
	}
	return nodes
}

// filterPass mirrors one scheduling cycle of the DynamicResources plugin
// (k8s.io/kubernetes v1.37.2, pkg/scheduler/framework/plugins/dynamicresources):
// PreFilter builds one allocator from the snapshot's allocated state, classes
// and slices (structured.NewAllocator), then Filter calls Allocate once per
// node. The plugin runs Filter on 16 goroutines; this runs the nodes one after
// another in the listed order, which does not change any node's result.
// onNode receives each node's result and upstream's step count for it.
func filterPass(ctx context.Context, in *input, slices []*resourceapi.ResourceSlice, nodes []*v1.Node, cache *cel.Cache,
	onNode func(node *v1.Node, results []resourceapi.AllocationResult, steps int64, err error)) error {
	allocator, err := structured.NewAllocator(ctx, in.features, in.state, in.classes, slices, cache)
	if err != nil {
		return err
	}
	before := searchSteps(allocator)
	for _, node := range nodes {
		results, err := allocator.Allocate(ctx, node, in.claims)
		after := searchSteps(allocator)
		onNode(node, results, after-before, err)
		before = after
	}
	return nil
}

// runFilter runs one scenario's Filter pass with a fresh CEL cache. A panic
// inside the allocator is reported as that scenario's error.
func runFilter(s *scenario) (o filterOutcome) {
	o = filterOutcome{Scenario: s.Name, Nodes: []nodeOutcome{}}
	defer func() {
		if p := recover(); p != nil {
			o.Error = fmt.Sprintf("panic: %v", p)
		}
	}()
	in, err := prepare(s)
	if err != nil {
		o.Error = err.Error()
		return o
	}
	err = filterPass(context.Background(), in, in.slices, filterNodes(s), newCELCache(in.features),
		func(node *v1.Node, results []resourceapi.AllocationResult, steps int64, err error) {
			d := describe(s.Name, in.claims, results, err)
			if d.Outcome == "allocated" {
				o.FeasibleNodes++
			}
			o.SearchSteps += steps
			o.Nodes = append(o.Nodes, nodeOutcome{Node: node.Name, Outcome: d.Outcome, Error: d.Error,
				Allocations: d.Allocations, SearchSteps: steps})
		})
	if err != nil {
		o.Error = err.Error()
	}
	return o
}

// filterTiming is one line of -filter -bench output.
type filterTiming struct {
	Scenario      string `json:"scenario"`
	Nodes         int    `json:"nodes"`
	FeasibleNodes int    `json:"feasibleNodes"`
	// PassNsPerOp is one whole Filter pass (NewAllocator, then Allocate on
	// every node) on the same objects every time, with the CEL cache kept
	// across passes as the plugin keeps it across scheduling cycles.
	PassNsPerOp int64 `json:"passNsPerOp"`
	// ColdPassNsPerOp is the same pass on fresh deep copies of every slice
	// (made outside the timed code), as after every slice changed.
	ColdPassNsPerOp int64  `json:"coldPassNsPerOp"`
	Passes          int    `json:"passes"`
	ColdPasses      int    `json:"coldPasses"`
	Error           string `json:"error,omitempty"`
}

// benchTime and warmupTime bound each -filter -bench measurement (-benchtime, -warmup).
var benchTime, warmupTime time.Duration

// benchmarkFilter times a scenario's Filter pass, warm and cold. Each is
// repeated for at least warmupTime (and once) untimed, then for at least
// benchTime (and twice); the mean of the timed passes is reported. The low
// minimums keep workloads whose pass takes seconds (list attributes) short.
func benchmarkFilter(s *scenario) filterTiming {
	o := runFilter(s)
	t := filterTiming{Scenario: s.Name, Nodes: len(o.Nodes), FeasibleNodes: o.FeasibleNodes, Error: o.Error}
	if o.Error != "" {
		return t
	}
	in, err := prepare(s)
	if err != nil {
		t.Error = err.Error()
		return t
	}
	ctx := context.Background()
	nodes := filterNodes(s)
	cache := newCELCache(in.features)
	ignore := func(*v1.Node, []resourceapi.AllocationResult, int64, error) {}
	pass := func(slices []*resourceapi.ResourceSlice) {
		_ = filterPass(ctx, in, slices, nodes, cache, ignore)
	}
	same := func() []*resourceapi.ResourceSlice { return in.slices }
	fresh := func() []*resourceapi.ResourceSlice {
		copies := make([]*resourceapi.ResourceSlice, len(in.slices))
		for i, slice := range in.slices {
			copies[i] = slice.DeepCopy()
		}
		return copies
	}
	t.PassNsPerOp, t.Passes = measure(same, pass)
	t.ColdPassNsPerOp, t.ColdPasses = measure(fresh, pass)
	return t
}

// measure runs op on what setup returns, timing only op, and returns the mean
// of the timed runs and their number.
func measure(setup func() []*resourceapi.ResourceSlice, op func([]*resourceapi.ResourceSlice)) (int64, int) {
	var elapsed time.Duration
	run := func() {
		slices := setup()
		start := time.Now()
		op(slices)
		elapsed += time.Since(start)
	}
	for n := 0; n < 1 || elapsed < warmupTime; n++ {
		run()
	}
	elapsed = 0
	n := 0
	for ; n < 2 || elapsed < benchTime; n++ {
		run()
	}
	return elapsed.Nanoseconds() / int64(n), n
}
