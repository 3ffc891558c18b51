// Package schedstate builds the allocated state that kube-scheduler's
// DynamicResources plugin hands to the structured allocator.
//
// The plugin's code for this is unexported (and importing it drags in all of
// kube-scheduler), so this is a line-by-line port of two functions of
// k8s.io/kubernetes v1.37.2, pkg/scheduler/framework/plugins/dynamicresources:
// foreachAllocatedDevice (allocateddevices.go) and
// claimTracker.GatherAllocatedState (dra_manager.go), without the in-flight
// allocations and revisions, which a single allocation does not have.
// ../plugincheck runs the same claims through the plugin's DefaultDRAManager
// and compares the results.
package schedstate

import (
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"
)

// FromClaims is GatherAllocatedState over the allocated devices of claims,
// with DRAConsumableCapacity as given.
func FromClaims(claims []*resourceapi.ResourceClaim, enabledConsumableCapacity bool) structured.AllocatedState {
	// allocatedDevices.addDevices for every claim the informer knows.
	allocated := sets.New[structured.DeviceID]()
	allocatedSharedDeviceIDs := sets.New[structured.SharedDeviceID]()
	aggregatedCapacity := structured.NewConsumedCapacityCollection()
	for _, claim := range claims {
		foreachAllocatedDevice(claim,
			func(deviceID structured.DeviceID) { allocated.Insert(deviceID) },
			enabledConsumableCapacity,
			func(sharedDeviceID structured.SharedDeviceID) { allocatedSharedDeviceIDs.Insert(sharedDeviceID) },
			func(capacity structured.DeviceConsumedCapacity) { aggregatedCapacity.Insert(capacity) })
	}
	// GatherAllocatedState: with the gate off, shares count as dedicated devices.
	if !enabledConsumableCapacity {
		for sharedDeviceID := range allocatedSharedDeviceIDs {
			allocated.Insert(sharedDeviceID.GetDeviceID())
		}
		allocatedSharedDeviceIDs = sets.New[structured.SharedDeviceID]()
		aggregatedCapacity = structured.NewConsumedCapacityCollection()
	}
	return structured.AllocatedState{
		AllocatedDevices:         allocated,
		AllocatedSharedDeviceIDs: allocatedSharedDeviceIDs,
		AggregatedCapacity:       aggregatedCapacity,
	}
}

// foreachAllocatedDevice: admin-access results are skipped; with consumable
// capacity on, a result with a shareID is a share (and adds its consumed
// capacity when it has one); every other result is a dedicated device.
func foreachAllocatedDevice(claim *resourceapi.ResourceClaim,
	dedicatedDeviceCallback func(deviceID structured.DeviceID),
	enabledConsumableCapacity bool,
	sharedDeviceCallback func(structured.SharedDeviceID),
	consumedCapacityCallback func(structured.DeviceConsumedCapacity)) {
	if claim.Status.Allocation == nil {
		return
	}
	for _, result := range claim.Status.Allocation.Devices.Results {
		if ptr.Deref(result.AdminAccess, false) {
			continue
		}
		deviceID := structured.MakeDeviceID(result.Driver, result.Pool, result.Device)
		if enabledConsumableCapacity {
			if result.ShareID != nil {
				sharedDeviceCallback(structured.MakeSharedDeviceID(deviceID, result.ShareID))
				if result.ConsumedCapacity != nil {
					consumedCapacityCallback(structured.NewDeviceConsumedCapacity(deviceID, result.ConsumedCapacity))
				}
				continue
			}
		}
		dedicatedDeviceCallback(deviceID)
	}
}
