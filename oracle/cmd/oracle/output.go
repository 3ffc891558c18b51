package main

import (
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
)

// outcome is one line of output, in the shape of the CLI contract of docs/scenario-format.md.
type outcome struct {
	Scenario    string       `json:"scenario"`
	Outcome     string       `json:"outcome"`
	Error       string       `json:"error,omitempty"`
	Allocations []allocation `json:"allocations,omitzero"`
	SearchSteps int64        `json:"searchSteps,omitempty"`
}

type allocation struct {
	Claim        string                                      `json:"claim"`
	Results      []result                                    `json:"results"`
	NodeSelector *v1.NodeSelector                            `json:"nodeSelector"`
	Config       []resourceapi.DeviceAllocationConfiguration `json:"config,omitempty"`
}

type result struct {
	Request                  string                               `json:"request"`
	Driver                   string                               `json:"driver"`
	Pool                     string                               `json:"pool"`
	Device                   string                               `json:"device"`
	AdminAccess              bool                                 `json:"adminAccess,omitempty"`
	Tolerations              []resourceapi.DeviceToleration       `json:"tolerations,omitempty"`
	BindingConditions        []string                             `json:"bindingConditions,omitempty"`
	BindingFailureConditions []string                             `json:"bindingFailureConditions,omitempty"`
	ShareID                  string                               `json:"shareID,omitempty"`
	ConsumedCapacity         map[resourceapi.QualifiedName]string `json:"consumedCapacity,omitempty"`
}

func failed(name string, err error) outcome {
	return outcome{Scenario: name, Outcome: "error", Error: err.Error()}
}

// describe maps what Allocate returned to an outcome. No result and no error
// means the claims do not fit on the node; any error, including the per-node
// ErrFailedAllocationOnNode, is reported with its message.
func describe(name string, claims []*resourceapi.ResourceClaim, allocations []resourceapi.AllocationResult, err error) outcome {
	switch {
	case err != nil:
		return failed(name, err)
	case allocations == nil:
		return outcome{Scenario: name, Outcome: "unschedulable"}
	}
	out := outcome{Scenario: name, Outcome: "allocated", Allocations: []allocation{}}
	for i, a := range allocations {
		out.Allocations = append(out.Allocations, allocation{
			Claim:        claimName(claims[i]),
			Results:      results(a.Devices.Results),
			NodeSelector: a.NodeSelector,
			Config:       a.Devices.Config,
		})
	}
	return out
}

// claimName is the claim's name: the scenario format allows "name" or "namespace/name", and the
// upstream-derived expectations use the bare name, also for namespaced claims.
func claimName(c *resourceapi.ResourceClaim) string {
	return c.Name
}

func results(in []resourceapi.DeviceRequestAllocationResult) []result {
	out := make([]result, 0, len(in))
	for _, r := range in {
		res := result{
			Request:                  r.Request,
			Driver:                   r.Driver,
			Pool:                     r.Pool,
			Device:                   r.Device,
			AdminAccess:              r.AdminAccess != nil && *r.AdminAccess,
			Tolerations:              r.Tolerations,
			BindingConditions:        r.BindingConditions,
			BindingFailureConditions: r.BindingFailureConditions,
		}
		if r.ShareID != nil {
			res.ShareID = string(*r.ShareID)
		}
		if len(r.ConsumedCapacity) > 0 {
			res.ConsumedCapacity = make(map[resourceapi.QualifiedName]string, len(r.ConsumedCapacity))
			for name, q := range r.ConsumedCapacity {
				res.ConsumedCapacity[name] = q.String()
			}
		}
		out = append(out, res)
	}
	return out
}
