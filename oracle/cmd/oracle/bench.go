package main

import (
	"context"
	"testing"

	"k8s.io/dynamic-resource-allocation/structured"
)

// timing is one line of -bench output.
type timing struct {
	Scenario string `json:"scenario"`
	// NsPerOp covers NewAllocator and Allocate together, which is what
	// kube-scheduler pays per pod and node.
	NsPerOp int64 `json:"nsPerOp"`
	// AllocateNsPerOp covers Allocate alone on an allocator built once.
	AllocateNsPerOp int64  `json:"allocateNsPerOp"`
	Outcome         string `json:"outcome"`
	Error           string `json:"error,omitempty"`
}

// benchmark times a scenario with testing.Benchmark (about one second per
// measurement after warm-up). Like the scheduler, the timed loops share one CEL
// cache, so compiled selectors are reused after the first run.
func benchmark(s *scenario) timing {
	o := run(s)
	t := timing{Scenario: s.Name, Outcome: o.Outcome, Error: o.Error}
	in, err := prepare(s)
	if err != nil {
		return t
	}
	ctx := context.Background()
	cache := newCELCache(in.features)
	t.NsPerOp = testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			_, _, _ = allocate(ctx, in, cache)
		}
	}).NsPerOp()
	allocator, err := structured.NewAllocator(ctx, in.features, in.state, in.classes, in.slices, cache)
	if err != nil {
		return t
	}
	t.AllocateNsPerOp = testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			_, _ = allocator.Allocate(ctx, in.node, in.claims)
		}
	}).NsPerOp()
	return t
}
