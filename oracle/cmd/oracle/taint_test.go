package main

import (
	"fmt"
	"testing"
)

// taintScenario has one free device; the rule, if any, taints it with NoSchedule.
func taintScenario(rule string) string {
	return `name: taint-rule
features: [DRADeviceTaints, DRADeviceTaintRules]
node: {name: node-1}
deviceClasses:
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: class-a}
resourceSlices:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: slice-1}
  spec:
    driver: driver-a
    pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
    nodeName: node-1
    devices: [{name: device-1}]
claims:
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: claim-0}
  spec:
    devices:
      requests:
      - name: req-0
        exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1}
` + rule
}

func TestDeviceTaintRules(t *testing.T) {
	const taint = `    taint: {key: example.com/broken, effect: NoSchedule}`
	rule := func(selector string) string {
		return fmt.Sprintf("deviceTaintRules:\n- apiVersion: resource.k8s.io/v1\n  kind: DeviceTaintRule\n  metadata: {name: rule}\n  spec:\n%s%s\n", selector, taint)
	}
	for name, tc := range map[string]struct {
		rules string
		want  string
	}{
		"no rule": {"", "allocated"},
		// resourceslice/tracker: "No selector matches no devices."
		"nil selector":    {rule(""), "allocated"},
		"empty selector":  {rule("    deviceSelector: {}\n"), "unschedulable"},
		"matching device": {rule("    deviceSelector: {driver: driver-a, pool: pool-1, device: device-1}\n"), "unschedulable"},
		"driver only":     {rule("    deviceSelector: {driver: driver-a}\n"), "unschedulable"},
		"pool only":       {rule("    deviceSelector: {pool: pool-1}\n"), "unschedulable"},
		"device only":     {rule("    deviceSelector: {device: device-1}\n"), "unschedulable"},
		"other pool":      {rule("    deviceSelector: {pool: pool-2}\n"), "allocated"},
		"other driver":    {rule("    deviceSelector: {driver: driver-b}\n"), "allocated"},
		"other device":    {rule("    deviceSelector: {driver: driver-a, device: device-2}\n"), "allocated"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := parseScenario([]byte(taintScenario(tc.rules)), false)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(s); got.Outcome != tc.want {
				t.Errorf("want %s, got %+v", tc.want, got)
			}
		})
	}
}
