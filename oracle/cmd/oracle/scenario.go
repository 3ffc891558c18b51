package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// scenario mirrors the scenario file format (docs/scenario-format.md). The cluster
// objects are the upstream API types, so that decoding is as strict as in Kubernetes.
type scenario struct {
	Name       string       `json:"name"`
	Source     string       `json:"source,omitempty"`
	Features   []string     `json:"features"`
	Confidence string       `json:"confidence,omitempty"`
	Node       scenarioNode `json:"node"`
	// Nodes lists every node of the cluster for -filter; the scenario format
	// proper has only node, and the other modes ignore this.
	Nodes            []scenarioNode                `json:"nodes,omitempty"`
	DeviceClasses    []resourceapi.DeviceClass     `json:"deviceClasses"`
	ResourceSlices   []resourceapi.ResourceSlice   `json:"resourceSlices"`
	AllocatedDevices []allocatedEntry              `json:"allocatedDevices"`
	DeviceTaintRules []resourceapi.DeviceTaintRule `json:"deviceTaintRules,omitempty"`
	Claims           []resourceapi.ResourceClaim   `json:"claims"`
	Expect           json.RawMessage               `json:"expect,omitempty"`
	Notes            string                        `json:"notes,omitempty"`
}

type scenarioNode struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

// allocatedEntry is one entry of allocatedDevices: either a device reference
// (exclusive, or shared with consumed capacity) or a whole allocated ResourceClaim.
type allocatedEntry struct {
	Device *allocatedDevice
	Claim  *resourceapi.ResourceClaim
}

type allocatedDevice struct {
	Driver           string                                          `json:"driver"`
	Pool             string                                          `json:"pool"`
	Device           string                                          `json:"device"`
	Shared           bool                                            `json:"shared,omitempty"`
	ShareID          *types.UID                                      `json:"shareID,omitempty"`
	ConsumedCapacity map[resourceapi.QualifiedName]resource.Quantity `json:"consumedCapacity,omitempty"`
}

// UnmarshalJSON tells the shapes apart by the keys a ResourceClaim has and a
// device reference has not.
func (e *allocatedEntry) UnmarshalJSON(data []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	_, hasKind := keys["kind"]
	_, hasAPIVersion := keys["apiVersion"]
	if hasKind || hasAPIVersion {
		e.Claim = new(resourceapi.ResourceClaim)
		return strictJSON(data, e.Claim)
	}
	e.Device = new(allocatedDevice)
	return strictJSON(data, e.Device)
}

// MarshalJSON writes the entry back in the shape it was read in.
func (e allocatedEntry) MarshalJSON() ([]byte, error) {
	if e.Claim != nil {
		return json.Marshal(e.Claim)
	}
	return json.Marshal(e.Device)
}

func strictJSON(data []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// parseScenario decodes one YAML or JSON document strictly and checks the object kinds.
func parseScenario(doc []byte, isJSON bool) (*scenario, error) {
	s := new(scenario)
	var err error
	if isJSON {
		err = strictJSON(doc, s)
	} else {
		err = yaml.UnmarshalStrict(doc, s)
	}
	if err != nil {
		return nil, err
	}
	if s.Name == "" {
		return nil, fmt.Errorf("missing name")
	}
	if _, err := features(s.Features); err != nil {
		return nil, err
	}
	if s.Node.Name == "" {
		return nil, fmt.Errorf("node: missing name")
	}
	for i := range s.DeviceClasses {
		if err := checkType("deviceClasses", i, s.DeviceClasses[i].APIVersion, s.DeviceClasses[i].Kind, "DeviceClass"); err != nil {
			return nil, err
		}
	}
	for i := range s.ResourceSlices {
		if err := checkType("resourceSlices", i, s.ResourceSlices[i].APIVersion, s.ResourceSlices[i].Kind, "ResourceSlice"); err != nil {
			return nil, err
		}
	}
	for i := range s.Claims {
		if err := checkType("claims", i, s.Claims[i].APIVersion, s.Claims[i].Kind, "ResourceClaim"); err != nil {
			return nil, err
		}
	}
	for i, e := range s.AllocatedDevices {
		if e.Claim != nil {
			if err := checkType("allocatedDevices", i, e.Claim.APIVersion, e.Claim.Kind, "ResourceClaim"); err != nil {
				return nil, err
			}
		}
	}
	for i := range s.DeviceTaintRules {
		if err := checkType("deviceTaintRules", i, s.DeviceTaintRules[i].APIVersion, s.DeviceTaintRules[i].Kind, "DeviceTaintRule"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func checkType(field string, i int, apiVersion, kind, wantKind string) error {
	if apiVersion != resourceapi.SchemeGroupVersion.String() {
		return fmt.Errorf("%s[%d]: apiVersion %q is not supported, want %s", field, i, apiVersion, resourceapi.SchemeGroupVersion)
	}
	if kind != wantKind {
		return fmt.Errorf("%s[%d]: kind %q, want %s", field, i, kind, wantKind)
	}
	return nil
}
