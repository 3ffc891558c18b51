package main

import (
	"testing"
	"time"
)

// filterScenario: three nodes; node-a has one free device, node-b one device
// already in use, node-c no slice. The pod's claim needs one device.
const filterScenario = `name: filter-pass
features: []
node: {name: node-a}
nodes: [{name: node-a}, {name: node-b}, {name: node-c, labels: {zone: z}}]
deviceClasses:
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: class-a}
resourceSlices:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: slice-a}
  spec:
    driver: driver-a
    pool: {name: pool-a, generation: 1, resourceSliceCount: 1}
    nodeName: node-a
    devices: [{name: device-1}]
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: slice-b}
  spec:
    driver: driver-a
    pool: {name: pool-b, generation: 1, resourceSliceCount: 1}
    nodeName: node-b
    devices: [{name: device-1}]
allocatedDevices:
- {driver: driver-a, pool: pool-b, device: device-1}
claims:
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: claim-0, namespace: default}
  spec:
    devices:
      requests:
      - name: req-0
        exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1}
`

func TestFilterPassTriesEveryNode(t *testing.T) {
	s, err := parseScenario([]byte(filterScenario), false)
	if err != nil {
		t.Fatal(err)
	}
	o := runFilter(s)
	if o.Error != "" {
		t.Fatalf("unexpected error %s", o.Error)
	}
	if len(o.Nodes) != 3 || o.FeasibleNodes != 1 {
		t.Fatalf("want 3 nodes, 1 feasible, got %+v", o)
	}
	want := []string{"node-a=allocated", "node-b=unschedulable", "node-c=unschedulable"}
	var total int64
	for i, n := range o.Nodes {
		if got := n.Node + "=" + n.Outcome; got != want[i] {
			t.Errorf("node %d: got %s, want %s", i, got, want[i])
		}
		total += n.SearchSteps
	}
	if a := o.Nodes[0].Allocations; len(a) != 1 || a[0].Results[0].Pool != "pool-a" || a[0].Results[0].Device != "device-1" {
		t.Errorf("node-a: want pool-a/device-1, got %+v", a)
	}
	if o.Nodes[0].SearchSteps == 0 || total != o.SearchSteps {
		t.Errorf("search steps: node-a %d, sum %d, total %d", o.Nodes[0].SearchSteps, total, o.SearchSteps)
	}
	// Without nodes the pass is the scenario's one node, with the same answer as a plain run.
	s.Nodes = nil
	if one := runFilter(s); len(one.Nodes) != 1 || one.Nodes[0].Outcome != run(s).Outcome {
		t.Errorf("single node: got %+v, plain run %+v", one, run(s))
	}
}

func TestFilterBenchTimesWarmAndColdPasses(t *testing.T) {
	s, err := parseScenario([]byte(filterScenario), false)
	if err != nil {
		t.Fatal(err)
	}
	benchTime, warmupTime = time.Millisecond, 0
	b := benchmarkFilter(s)
	if b.Error != "" || b.Nodes != 3 || b.FeasibleNodes != 1 {
		t.Fatalf("got %+v", b)
	}
	if b.PassNsPerOp <= 0 || b.ColdPassNsPerOp <= 0 || b.Passes < 2 || b.ColdPasses < 2 {
		t.Errorf("want positive times over at least 2 passes each, got %+v", b)
	}
}
