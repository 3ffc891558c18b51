package main

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"

	"dra4j.io/oracle/schedstate"
)

// input is everything one Allocate call needs, prepared from a scenario.
type input struct {
	features structured.Features
	state    structured.AllocatedState
	classes  classLister
	slices   []*resourceapi.ResourceSlice
	node     *v1.Node
	claims   []*resourceapi.ResourceClaim
}

// gates maps each DRA feature gate to the allocator feature it switches on,
// the way kube-scheduler derives structured.Features from its gates.
var gates = map[string]func(*structured.Features){
	"DRAAdminAccess":               func(f *structured.Features) { f.AdminAccess = true },
	"DRADeviceCompatibilityGroups": func(f *structured.Features) { f.CompatibilityGroups = true },
	"DRAConsumableCapacity":        func(f *structured.Features) { f.ConsumableCapacity = true },
	"DRADerivedAttributes":         func(f *structured.Features) { f.DerivedAttributes = true },
	"DRADeviceTaints":              func(f *structured.Features) { f.DeviceTaints = true },
	"DRAFractionalCapacityRange":   func(f *structured.Features) { f.FractionalCapacityRange = true },
	"DRAListTypeAttributes":        func(f *structured.Features) { f.ListTypeAttributes = true },
	"DRAOptionalNodeOperations":    func(f *structured.Features) { f.OptionalNodeOperations = true },
	"DRAPartitionableDevices":      func(f *structured.Features) { f.PartitionableDevices = true },
	"DRAPrioritizedList":           func(f *structured.Features) { f.PrioritizedList = true },
	// Binding conditions need both gates; see features().
	"DRADeviceBindingConditions":   func(*structured.Features) {},
	"DRAResourceClaimDeviceStatus": func(*structured.Features) {},
	// Gates outside the allocator. DRADeviceTaintRules decides whether the
	// scheduler's slice tracker applies DeviceTaintRules; see patchedSlices().
	"DRADeviceTaintRules":         func(*structured.Features) {},
	"DRAExtendedResource":         func(*structured.Features) {},
	"DRASchedulerFilterTimeout":   func(*structured.Features) {},
	"DRANodeAllocatableResources": func(*structured.Features) {},
	"DRAWorkloadResourceClaims":   func(*structured.Features) {},
}

// features turns the scenario's gate list into allocator features. Every gate
// that is not listed is off.
func features(names []string) (structured.Features, error) {
	var f structured.Features
	for _, name := range names {
		set, ok := gates[name]
		if !ok {
			return f, fmt.Errorf("features: unknown DRA feature gate %q", name)
		}
		set(&f)
	}
	f.DeviceBindingAndStatus = slices.Contains(names, "DRADeviceBindingConditions") &&
		slices.Contains(names, "DRAResourceClaimDeviceStatus")
	return f, nil
}

func newCELCache(f structured.Features) *cel.Cache {
	return cel.NewCache(10, cel.Features{
		EnableConsumableCapacity: f.ConsumableCapacity,
		EnableListTypeAttributes: f.ListTypeAttributes,
	})
}

func prepare(s *scenario) (*input, error) {
	f, err := features(s.Features)
	if err != nil {
		return nil, err
	}
	in := &input{
		features: f,
		state:    allocatedState(s.AllocatedDevices, f),
		node: &v1.Node{ObjectMeta: metav1.ObjectMeta{
			Name:   s.Node.Name,
			Labels: s.Node.Labels,
		}},
	}
	for i := range s.DeviceClasses {
		in.classes = append(in.classes, &s.DeviceClasses[i])
	}
	patched, err := patchedSlices(context.Background(), s.ResourceSlices, s.DeviceTaintRules,
		slices.Contains(s.Features, "DRADeviceTaintRules"))
	if err != nil {
		return nil, err
	}
	in.slices = patched
	for i := range s.Claims {
		in.claims = append(in.claims, &s.Claims[i])
	}
	return in, nil
}

// allocatedState builds what the scheduler plugin derives from existing
// allocations (schedstate, a port of the plugin's code). A device reference
// stands for one result of an allocated claim: exclusive, or with `shared` a
// share (with its shareID, or a made-up one unique to the entry) that consumed
// what consumedCapacity says.
func allocatedState(entries []allocatedEntry, f structured.Features) structured.AllocatedState {
	claims := make([]*resourceapi.ResourceClaim, 0, len(entries))
	for i, e := range entries {
		if e.Claim != nil {
			claims = append(claims, e.Claim)
			continue
		}
		d := e.Device
		result := resourceapi.DeviceRequestAllocationResult{Driver: d.Driver, Pool: d.Pool, Device: d.Device}
		if d.Shared {
			result.ShareID = d.ShareID
			if result.ShareID == nil {
				result.ShareID = ptr.To(types.UID(fmt.Sprintf("allocatedDevices-%d", i)))
			}
			result.ConsumedCapacity = d.ConsumedCapacity
		}
		claims = append(claims, &resourceapi.ResourceClaim{Status: resourceapi.ResourceClaimStatus{
			Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{
				Results: []resourceapi.DeviceRequestAllocationResult{result},
			}},
		}})
	}
	return schedstate.FromClaims(claims, f.ConsumableCapacity)
}

// allocate runs upstream's allocator once, exactly as kube-scheduler does per node,
// and reports upstream's count of allocateOne invocations.
func allocate(ctx context.Context, in *input, cache *cel.Cache) ([]resourceapi.AllocationResult, int64, error) {
	allocator, err := structured.NewAllocator(ctx, in.features, in.state, in.classes, in.slices, cache)
	if err != nil {
		return nil, 0, err
	}
	results, err := allocator.Allocate(ctx, in.node, in.claims)
	return results, searchSteps(allocator), err
}

// searchSteps reads GetStats().NumAllocateOneInvocations, which every variant
// implements although the public Allocator interface does not declare it (the
// Stats type lives in an internal package, hence reflection).
func searchSteps(allocator structured.Allocator) int64 {
	m := reflect.ValueOf(allocator).MethodByName("GetStats")
	if !m.IsValid() {
		return 0
	}
	return m.Call(nil)[0].FieldByName("NumAllocateOneInvocations").Int()
}

// classLister serves the scenario's device classes like an informer lister.
type classLister []*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) {
	return l, nil
}

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	for _, c := range l {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("deviceclass"), name)
}
