package main

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
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
	// scheduler's slice tracker applies DeviceTaintRules; see prepare().
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
	// The slice tracker applies DeviceTaintRules only when DRADeviceTaintRules is on.
	var rules []resourceapi.DeviceTaintRule
	if slices.Contains(s.Features, "DRADeviceTaintRules") {
		rules = s.DeviceTaintRules
	}
	for i := range s.ResourceSlices {
		in.slices = append(in.slices, withTaintRules(&s.ResourceSlices[i], rules))
	}
	for i := range s.Claims {
		in.claims = append(in.claims, &s.Claims[i])
	}
	return in, nil
}

// allocatedState builds what the scheduler plugin derives from existing
// allocations: results with admin access do not make a device busy, and with
// consumable capacity on, shared results only add to the consumed capacity of
// their device instead of reserving it.
func allocatedState(entries []allocatedEntry, f structured.Features) structured.AllocatedState {
	state := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	add := func(driver, pool, device string, shared bool, consumed map[resourceapi.QualifiedName]resource.Quantity) {
		id := structured.MakeDeviceID(driver, pool, device)
		switch {
		case !shared || !f.ConsumableCapacity:
			state.AllocatedDevices.Insert(id)
		case len(consumed) > 0:
			state.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, consumed))
		}
	}
	for _, e := range entries {
		if d := e.Device; d != nil {
			add(d.Driver, d.Pool, d.Device, d.Shared, d.ConsumedCapacity)
			continue
		}
		if e.Claim.Status.Allocation == nil {
			continue
		}
		for _, r := range e.Claim.Status.Allocation.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				continue
			}
			add(r.Driver, r.Pool, r.Device, r.ShareID != nil, r.ConsumedCapacity)
		}
	}
	return state
}

// withTaintRules returns the slice with the taint of every matching rule
// appended to its devices, as the scheduler's slice tracker presents it. A rule
// without a device selector matches every device.
func withTaintRules(slice *resourceapi.ResourceSlice, rules []resourceapi.DeviceTaintRule) *resourceapi.ResourceSlice {
	if len(rules) == 0 {
		return slice
	}
	slice = slice.DeepCopy()
	for i := range slice.Spec.Devices {
		device := &slice.Spec.Devices[i]
		for _, rule := range rules {
			if sel := rule.Spec.DeviceSelector; sel == nil ||
				matches(sel.Driver, slice.Spec.Driver) && matches(sel.Pool, slice.Spec.Pool.Name) && matches(sel.Device, device.Name) {
				device.Taints = append(device.Taints, rule.Spec.Taint)
			}
		}
	}
	return slice
}

func matches(want *string, actual string) bool {
	return want == nil || *want == actual
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
