// Package plugincheck runs allocated claims through kube-scheduler's own
// DynamicResources plugin code (DefaultDRAManager.ResourceClaims().
// GatherAllocatedState, k8s.io/kubernetes v1.37.2) and compares the state with
// what the oracle's port (dra4j.io/oracle/schedstate) builds from the same
// claims. It is its own module so that the oracle does not build kube-scheduler.
package plugincheck

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"dra4j.io/oracle/schedstate"
)

func result(device string, shareID string, adminAccess bool, consumed map[string]string) resourceapi.DeviceRequestAllocationResult {
	r := resourceapi.DeviceRequestAllocationResult{Request: "req", Driver: "driver-a", Pool: "pool-1", Device: device}
	if shareID != "" {
		r.ShareID = ptr.To(types.UID(shareID))
	}
	if adminAccess {
		r.AdminAccess = ptr.To(true)
	}
	if consumed != nil {
		r.ConsumedCapacity = map[resourceapi.QualifiedName]resource.Quantity{}
		for k, v := range consumed {
			r.ConsumedCapacity[resourceapi.QualifiedName(k)] = resource.MustParse(v)
		}
	}
	return r
}

func allocated(results ...resourceapi.DeviceRequestAllocationResult) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: results}},
	}}
}

// handWritten covers every branch of foreachAllocatedDevice.
func handWritten() map[string][]*resourceapi.ResourceClaim {
	return map[string][]*resourceapi.ResourceClaim{
		"dedicated":                      {allocated(result("d0", "", false, nil), result("d1", "", false, nil))},
		"admin access":                   {allocated(result("d0", "", true, nil))},
		"admin access share":             {allocated(result("d0", "s1", true, map[string]string{"memory": "1Gi"}))},
		"share with consumed capacity":   {allocated(result("d0", "s1", false, map[string]string{"memory": "1Gi"}))},
		"share without consumedCapacity": {allocated(result("d0", "s1", false, nil))},
		"share with empty capacity map":  {allocated(result("d0", "s1", false, map[string]string{}))},
		"two shares of one device": {
			allocated(result("d0", "s1", false, map[string]string{"memory": "1Gi"})),
			allocated(result("d0", "s2", false, map[string]string{"memory": "2Gi", "cores": "1"})),
		},
		"share and dedicated": {allocated(result("d0", "s1", false, nil)), allocated(result("d1", "", false, nil))},
		"not allocated":       {{}},
	}
}

// fromScenarios collects the allocated claims of every scenario file.
func fromScenarios(t *testing.T) map[string][]*resourceapi.ResourceClaim {
	out := map[string][]*resourceapi.ResourceClaim{}
	var files []string
	for _, dir := range []string{"../../scenarios", "../../scenarios/regressions", "../../../shared/conformance/cases"} {
		matches, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		files = append(files, matches...)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			AllocatedDevices []json.RawMessage `json:"allocatedDevices"`
		}
		if err := yaml.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var claims []*resourceapi.ResourceClaim
		for _, raw := range s.AllocatedDevices {
			var probe map[string]any
			if err := json.Unmarshal(raw, &probe); err != nil || probe["kind"] != "ResourceClaim" {
				continue
			}
			claim := new(resourceapi.ResourceClaim)
			if err := json.Unmarshal(raw, claim); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			claims = append(claims, claim)
		}
		if len(claims) > 0 {
			out[filepath.Base(file)] = claims
		}
	}
	if len(out) == 0 {
		t.Fatal("no scenario with allocated claims found")
	}
	return out
}

// viaPlugin runs the claims through the scheduler plugin's DRA manager, fed by
// informers over a fake clientset as in kube-scheduler.
func viaPlugin(t *testing.T, claims []*resourceapi.ResourceClaim) *structured.AllocatedState {
	ctx, cancel := context.WithCancel(context.Background())
	objects := make([]runtime.Object, 0, len(claims))
	for i, c := range claims {
		c = c.DeepCopy()
		c.ObjectMeta = metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("claim-%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))}
		objects = append(objects, c)
	}
	factory := informers.NewSharedInformerFactory(fake.NewClientset(objects...), 0)
	defer factory.Shutdown()
	defer cancel()
	logger := klog.Background()
	claimCache := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	sliceTracker, err := tracker.StartTracker(ctx, tracker.Options{SliceInformer: factory.Resource().V1().ResourceSlices()})
	if err != nil {
		t.Fatal(err)
	}
	manager := dynamicresources.NewDRAManager(ctx, claimCache, sliceTracker, factory)
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	// The informer delivers the claims to the assume cache, and it to the
	// manager's handler, asynchronously: wait until every claim is there.
	deadline := time.Now().Add(10 * time.Second)
	for len(claimCache.List(nil)) < len(claims) {
		if time.Now().After(deadline) {
			t.Fatalf("assume cache has %d of %d claims", len(claimCache.List(nil)), len(claims))
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	state, err := manager.ResourceClaims().GatherAllocatedState()
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// comparable turns a state into sorted strings.
func comparable(s *structured.AllocatedState) map[string][]string {
	out := map[string][]string{"dedicated": {}, "shared": {}, "capacity": {}}
	for id := range s.AllocatedDevices {
		out["dedicated"] = append(out["dedicated"], id.String())
	}
	for id := range s.AllocatedSharedDeviceIDs {
		out["shared"] = append(out["shared"], id.String())
	}
	for id, capacity := range s.AggregatedCapacity {
		for name, q := range capacity {
			out["capacity"] = append(out["capacity"], fmt.Sprintf("%s %s=%s", id, name, q.String()))
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

func TestPortMatchesPlugin(t *testing.T) {
	cases := handWritten()
	for name, claims := range fromScenarios(t) {
		cases["scenario "+name] = claims
	}
	for name, claims := range cases {
		for _, consumable := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/DRAConsumableCapacity=%v", name, consumable), func(t *testing.T) {
				featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.DRAConsumableCapacity, consumable)
				want := comparable(viaPlugin(t, claims))
				port := schedstate.FromClaims(claims, consumable)
				if got := comparable(&port); !reflect.DeepEqual(got, want) {
					t.Errorf("port: %v\nplugin: %v", got, want)
				}
			})
		}
	}
}
