package main

import (
	"context"
	"fmt"
	"strconv"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
)

// patchedSlices returns the slices as the scheduler sees them: through upstream's
// ResourceSlice tracker (resourceslice/tracker), which kube-scheduler starts with
// EnableDeviceTaintRules set from the DRADeviceTaintRules gate and which applies
// the DeviceTaintRules to the slices' devices. The tracker reads the objects from
// informers, here over a fake clientset holding the scenario's slices and rules.
func patchedSlices(ctx context.Context, slices []resourceapi.ResourceSlice, rules []resourceapi.DeviceTaintRule, enableRules bool) ([]*resourceapi.ResourceSlice, error) {
	// The informers key objects by name. Upstream-derived scenarios may repeat a
	// slice name (the allocator never looks at it), so the tracker gets each
	// slice under its index; the names are put back below.
	objects := make([]runtime.Object, 0, len(slices)+len(rules))
	for i := range slices {
		slice := slices[i].DeepCopy()
		slice.Name = strconv.Itoa(i)
		objects = append(objects, slice)
	}
	for i := range rules {
		objects = append(objects, &rules[i])
	}
	factory := informers.NewSharedInformerFactory(fake.NewClientset(objects...), 0)
	ctx, cancel := context.WithCancel(ctx)
	// Deferred calls run last first: stop the informers, then wait for them.
	defer factory.Shutdown()
	defer cancel()
	t, err := tracker.StartTracker(ctx, tracker.Options{
		EnableDeviceTaintRules: enableRules,
		SliceInformer:          factory.Resource().V1().ResourceSlices(),
		TaintInformer:          factory.Resource().V1().DeviceTaintRules(),
	})
	if err != nil {
		return nil, fmt.Errorf("resource slice tracker: %w", err)
	}
	defer t.Stop()
	factory.StartWithContext(ctx)
	factory.WaitForCacheSyncWithContext(ctx)
	if enableRules {
		<-t.HasSyncedChecker().Done()
	}
	patched, err := t.ListPatchedResourceSlices()
	if err != nil {
		return nil, fmt.Errorf("resource slice tracker: %w", err)
	}
	// The informer's list has no order; give the allocator the slices in the
	// scenario's order, with their names.
	out := make([]*resourceapi.ResourceSlice, len(slices))
	for _, s := range patched {
		i, err := strconv.Atoi(s.Name)
		if err != nil || i < 0 || i >= len(slices) || out[i] != nil {
			return nil, fmt.Errorf("resource slice tracker: unexpected slice %q in the patched slices", s.Name)
		}
		s.Name = slices[i].Name
		out[i] = s
	}
	for i, s := range out {
		if s == nil {
			return nil, fmt.Errorf("resource slice tracker: slice %q is missing from the patched slices", slices[i].Name)
		}
	}
	return out, nil
}
