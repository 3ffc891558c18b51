"""capacity-, binding-, node- and pool- scenarios."""
from lib import *  # noqa: F401,F403
from fixtures import *  # noqa: F401,F403

S = []


def add(sc):
    S.append(sc)


def share_slice(devices, node_name=SHARE1, driver=NVIDIA, name=None):
    return rslice(name or "%s-%s" % (node_name, "gpus" if driver == NVIDIA else "nics"), driver, node_name, devices,
                  node_name=node_name)


VV_GPUS = [shared_gpu(0, VALID_VALUES_MEM), shared_gpu(1, VALID_VALUES_MEM)]
SHARE_FEATURES = GATES_137

add(scenario(
    "capacity-valid-values-round-up",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    claims=[claim("notebook", [exact("gpu", "gpu-shared", capacity={"memory": "15Gi"})])],
    expect=allocated(alloc("notebook", [res("gpu", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi"})],
                           local(SHARE1))),
    notes="A GPU shared by several claims (allowMultipleAllocations) with memory validValues 10/20/40/80Gi: a "
          "request for 15Gi is rounded up to the next valid value. The result gets a fresh shareID.",
))

add(scenario(
    "capacity-default-when-not-requested",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    claims=[claim("notebook", [exact("gpu", "gpu-shared")])],
    expect=allocated(alloc("notebook", [res("gpu", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "10Gi"})],
                           local(SHARE1))),
    notes="Without a capacity request the policy default (10Gi) is consumed and reported.",
))

add(scenario(
    "capacity-valid-values-above-largest-next-device",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[share_slice([shared_gpu(0, {"default": "10Gi", "validValues": ["10Gi", "20Gi", "40Gi"]}, memory="40Gi"),
                         shared_gpu(1, VALID_VALUES_MEM)])],
    claims=[claim("training", [exact("gpu", "gpu-shared", capacity={"memory": "60Gi"})])],
    expect=allocated(alloc("training", [res("gpu", "gpu-1", SHARE1, shareID="*", consumedCapacity={"memory": "80Gi"})],
                           local(SHARE1))),
    notes="60Gi is above every valid value of the 40Gi gpu-0, so gpu-0 is not eligible; on gpu-1 it rounds up "
          "to 80Gi.",
))

add(scenario(
    "capacity-previously-consumed-insufficient",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    allocated=[shared_busy(NVIDIA, SHARE1, "gpu-0", memory="70Gi")],
    claims=[claim("notebook", [exact("gpu", "gpu-shared", capacity={"memory": "20Gi"})])],
    expect=allocated(alloc("notebook", [res("gpu", "gpu-1", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi"})],
                           local(SHARE1))),
    notes="Earlier allocations already consume 70Gi of gpu-0's 80Gi; 20Gi more does not fit there.",
))

NIC_NO_POLICY = [shared_nic(0, {"bandwidth": {"value": "100G"}}), shared_nic(1, {"bandwidth": {"value": "100G"}})]

add(scenario(
    "capacity-no-policy-consumes-full-capacity",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_NET],
    slices=[share_slice(NIC_NO_POLICY, driver="dra.net")],
    allocated=[shared_busy("dra.net", SHARE1, "nic-0", bandwidth="10G")],
    claims=[claim("net", [exact("nic", "net-bandwidth")])],
    expect=allocated(alloc("net", [res("nic", "nic-1", SHARE1, driver="dra.net", shareID="*",
                                       consumedCapacity={"bandwidth": "100G"})], local(SHARE1))),
    notes="A shared NIC whose bandwidth capacity has no requestPolicy: a claim without a capacity request consumes "
          "the full 100G. nic-0 already has 10G consumed, so it cannot take another 100G; nic-1 can.",
))

NIC_RANGE = [shared_nic(0, bw_range("50G")), shared_nic(1, bw_range("100G"))]

add(scenario(
    "capacity-valid-range-step-round-up",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_NET], slices=[share_slice(NIC_RANGE, driver="dra.net")],
    claims=[claim("net", [exact("nic", "net-bandwidth", capacity={"bandwidth": "2500M"})])],
    expect=allocated(alloc("net", [res("nic", "nic-0", SHARE1, driver="dra.net", shareID="*",
                                       consumedCapacity={"bandwidth": "3G"})], local(SHARE1))),
    notes="validRange min 1G, step 1G: 2500M is rounded up to the next step, 3G.",
))

add(scenario(
    "capacity-valid-range-below-min",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_NET], slices=[share_slice(NIC_RANGE, driver="dra.net")],
    claims=[claim("net", [exact("nic", "net-bandwidth", capacity={"bandwidth": "100M"})])],
    expect=allocated(alloc("net", [res("nic", "nic-0", SHARE1, driver="dra.net", shareID="*",
                                       consumedCapacity={"bandwidth": "1G"})], local(SHARE1))),
    notes="A request below validRange.min consumes min (1G).",
))

add(scenario(
    "capacity-valid-range-above-max-next-device",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_NET], slices=[share_slice(NIC_RANGE, driver="dra.net")],
    claims=[claim("net", [exact("nic", "net-bandwidth", capacity={"bandwidth": "60G"})])],
    expect=allocated(alloc("net", [res("nic", "nic-1", SHARE1, driver="dra.net", shareID="*",
                                       consumedCapacity={"bandwidth": "60G"})], local(SHARE1))),
    notes="nic-0's validRange.max is 50G, so 60G is not allowed there; nic-1 (max 100G) takes it.",
))

RANGE_GPUS = [shared_gpu(0, RANGE_MEM), shared_gpu(1, RANGE_MEM)]

add(scenario(
    "capacity-requests-of-one-claim-share-then-spill",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(RANGE_GPUS)],
    claims=[claim("pipeline", [
        exact("encoder", "gpu-shared", capacity={"memory": "30Gi"}),
        exact("decoder", "gpu-shared", capacity={"memory": "40Gi"}),
        exact("cache", "gpu-shared", capacity={"memory": "20Gi"}),
    ])],
    expect=allocated(alloc("pipeline", [
        res("encoder", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "30Gi"}),
        res("decoder", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "40Gi"}),
        res("cache", "gpu-1", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi"}),
    ], local(SHARE1))),
    notes="Requests of the same claim can share one device: encoder and decoder fit on gpu-0 (70Gi of 80Gi), cache "
          "(20Gi) does not and goes to gpu-1. Each share has its own shareID.",
))

SHARED_DEFAULT = dict(
    node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[share_slice([shared_gpu(0, VALID_VALUES_MEM)])],
    claims=[claim("two-workers", [exact("a", "gpu-shared"), exact("b", "gpu-shared")])],
)

add(scenario(
    "capacity-shared-device-gate-on",
    features=SHARE_FEATURES,
    expect=allocated(alloc("two-workers", [
        res("a", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "10Gi"}),
        res("b", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "10Gi"}),
    ], local(SHARE1))),
    notes="One shareable GPU, two requests without capacity requests: both get the default 10Gi share of gpu-0.",
    **SHARED_DEFAULT,
))

add(scenario(
    "capacity-shared-device-gate-off",
    features=gates_without("DRAConsumableCapacity"),
    expect=UNSCHEDULABLE,
    notes="Same input as capacity-shared-device-gate-on with DRAConsumableCapacity off: allowMultipleAllocations "
          "is ignored, the GPU is exclusive, and the second request finds no device.",
    **SHARED_DEFAULT,
))

add(scenario(
    "capacity-request-names-unknown-capacity",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    claims=[claim("notebook", [exact("gpu", "gpu-shared", capacity={"vram": "10Gi"})])],
    expect=UNSCHEDULABLE,
    notes="A device that does not have every requested capacity (here 'vram') is not eligible; this is not an error.",
))

add(scenario(
    "capacity-dedicated-device-request-checked",
    features=SHARE_FEATURES, node=MIXED_NODE, classes=[CLASS_A100],
    slices=[gpu_node_slice(MIXED1, [gpu(0, "A100", memory="40Gi"), gpu(1, "A100")])],
    claims=[claim("training", [exact("gpu", "gpu-a100", capacity={"memory": "60Gi"})])],
    expect=allocated(alloc("training", [res("gpu", "gpu-1", MIXED1)], local(MIXED1))),
    notes="Capacity requests also filter ordinary (dedicated) devices: the A100 40GB is too small, the 80GB fits. "
          "Dedicated devices get neither shareID nor consumedCapacity in the result.",
))

add(scenario(
    "capacity-distinct-attribute-forces-two-devices",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    claims=[claim("replicas", [exact("a", "gpu-shared", capacity={"memory": "10Gi"}),
                               exact("b", "gpu-shared", capacity={"memory": "10Gi"})],
                  constraints=[distinct("gpu.nvidia.com/uuid")])],
    expect=allocated(alloc("replicas", [
        res("a", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "10Gi"}),
        res("b", "gpu-1", SHARE1, shareID="*", consumedCapacity={"memory": "10Gi"}),
    ], local(SHARE1))),
    notes="Both shares would fit on gpu-0, but distinctAttribute on the GPU uuid forces them onto different devices.",
))

add(scenario(
    "capacity-all-mode-exhausted-device-still-counts",
    features=SHARE_FEATURES, node=SHARE_NODE, classes=[CLASS_SHARED_GPU], slices=[share_slice(VV_GPUS)],
    allocated=[shared_busy(NVIDIA, SHARE1, "gpu-0", memory="80Gi")],
    claims=[claim("everywhere", [exact("gpu", "gpu-shared", all_mode=True, capacity={"memory": "10Gi"})])],
    expect=UNSCHEDULABLE,
    notes="allocationMode All decides the set of devices from their static capacity only: gpu-0 is fully consumed "
          "by earlier allocations but still belongs to 'all', so All cannot be satisfied. (Upstream's test "
          "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient asserts the same in "
          "v0.37.2; older versions returned only the remaining device.)",
))

# ---------------------------------------------------------------------------------------------
FABRIC_POOL = "composable-fabric"


def fabric_slice(devices, **kw):
    if not any(k in kw for k in ("node_selector", "all_nodes", "node_name")):
        kw["all_nodes"] = True
    return rslice("fabric-gpus", NVIDIA, FABRIC_POOL, devices, **kw)


LOCAL_AND_FABRIC = [gpu_node_slice(NODE1, [gpu(0)]), fabric_slice([fabric_gpu(0), fabric_gpu(1)])]
BC = dict(bindingConditions=["FabricAttached"], bindingFailureConditions=["FabricAttachFailed"])

add(scenario(
    "binding-pool-with-conditions-searched-last",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=LOCAL_AND_FABRIC,
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "gpu-0", NODE1)], local(NODE1))),
    notes="The composable-fabric pool sorts before gpu-node-1 by name, but pools with devices that have binding "
          "conditions are searched after all others, so the local GPU wins.",
))

add(scenario(
    "binding-fabric-device-when-local-busy",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=LOCAL_AND_FABRIC,
    allocated=busy(NVIDIA, NODE1, "gpu-0"),
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", FABRIC_POOL, **BC)], local(NODE1))),
    notes="The local GPU is busy, so a fabric GPU (allNodes slice) is used. The result copies bindingConditions and "
          "bindingFailureConditions, and bindsToNode pins the allocation to this node although the slice is "
          "available on all nodes.",
))

add(scenario(
    "binding-count-two-local-then-fabric",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=LOCAL_AND_FABRIC,
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "gpu-0", NODE1), res("gpus", "fgpu-0", FABRIC_POOL, **BC)],
                           local(NODE1))),
    notes="Two GPUs: the local one first (its pool is searched first), then a fabric GPU with binding conditions.",
))

BINDING_GATE_OFF = dict(node=ZONE_NODE, classes=[CLASS_H100], slices=LOCAL_AND_FABRIC,
                        allocated=busy(NVIDIA, NODE1, "gpu-0"),
                        claims=[claim("job", [exact("gpu", "gpu-h100")])], expect=UNSCHEDULABLE)

add(scenario(
    "binding-conditions-gate-off-device-skipped",
    features=gates_without("DRADeviceBindingConditions"),
    notes="Same input as binding-fabric-device-when-local-busy with DRADeviceBindingConditions off: devices with "
          "binding conditions are never selected.",
    **BINDING_GATE_OFF,
))

add(scenario(
    "binding-conditions-need-device-status-gate",
    features=gates_without("DRAResourceClaimDeviceStatus"),
    notes="Same input as binding-fabric-device-when-local-busy with only DRAResourceClaimDeviceStatus off: binding "
          "conditions need both gates, so the fabric GPUs are skipped.",
    **BINDING_GATE_OFF,
))

add(scenario(
    "binding-conditions-without-binds-to-node",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[fabric_slice([fabric_gpu(0, binds_to_node=False)],
                         node_selector={"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-a"]))]})],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", FABRIC_POOL, **BC)],
                           {"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-a"]))]})),
    notes="A fabric GPU with binding conditions but without bindsToNode, in a slice for zone-a: the allocation keeps "
          "the slice's node selector instead of being pinned to the node.",
))

# ---------------------------------------------------------------------------------------------
ZONE_A = ("topology.kubernetes.io/zone", "In", ["zone-a"])
RACK_7 = ("example.com/rack", "In", ["rack-7"])


def net_pool(pool, devices, **kw):
    return rslice("%s-slice" % pool, NVIDIA, pool, devices, **kw)


add(scenario(
    "node-network-attached-zone-selector",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("zone-a-fabric", [gpu(0, name="fgpu-0")], node_selector={"nodeSelectorTerms": [expr_term(ZONE_A)]})],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "zone-a-fabric")], {"nodeSelectorTerms": [expr_term(ZONE_A)]})),
    notes="A network-attached GPU offered to all nodes of zone-a: the allocation's node selector is the slice's.",
))

add(scenario(
    "node-two-network-pools-merge-into-one-term",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("rack-7-fabric", [gpu(0, name="rgpu-0")], node_selector={"nodeSelectorTerms": [expr_term(RACK_7)]}),
            net_pool("zone-a-fabric", [gpu(0, name="zgpu-0")], node_selector={"nodeSelectorTerms": [expr_term(ZONE_A)]})],
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "rgpu-0", "rack-7-fabric"), res("gpus", "zgpu-0", "zone-a-fabric")],
                           {"nodeSelectorTerms": [expr_term(RACK_7, ZONE_A)]})),
    notes="Devices from two network pools with different single-term selectors: the requirements are combined into "
          "ONE term (AND), so the claim is usable only on nodes in rack-7 and zone-a.",
))

add(scenario(
    "node-identical-requirements-deduplicated",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("zone-a-fabric-1", [gpu(0, name="fgpu-0")],
                     node_selector={"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-a", "zone-b"]))]}),
            net_pool("zone-a-fabric-2", [gpu(1, name="fgpu-1")],
                     node_selector={"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-b", "zone-a"]))]})],
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "fgpu-0", "zone-a-fabric-1"), res("gpus", "fgpu-1", "zone-a-fabric-2")],
                           {"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-a", "zone-b"]))]})),
    notes="Two requirements with the same key and operator and the same values in another order count as the same "
          "requirement: the merged term holds it once.",
))

add(scenario(
    "node-all-nodes-device-has-no-selector",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("cluster-fabric", [gpu(0, name="fgpu-0")], all_nodes=True)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "cluster-fabric")], None)),
    notes="A device from an allNodes slice is usable everywhere: the allocation has no node selector (null).",
))

add(scenario(
    "node-local-device-pins-mixed-allocation",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(NODE1, [gpu(0)]),
            net_pool("cluster-fabric", [gpu(0, name="fgpu-0")], all_nodes=True),
            net_pool("zone-a-fabric", [gpu(0, name="zgpu-0")], node_selector={"nodeSelectorTerms": [expr_term(ZONE_A)]})],
    claims=[claim("job", [exact("gpus", "gpu-h100", 3)])],
    expect=allocated(alloc("job", [res("gpus", "fgpu-0", "cluster-fabric"), res("gpus", "gpu-0", NODE1),
                                   res("gpus", "zgpu-0", "zone-a-fabric")], local(NODE1))),
    notes="One node-local device among network-attached ones pins the whole allocation to the node. Pools are "
          "searched by name: cluster-fabric, gpu-node-1, zone-a-fabric.",
))

add(scenario(
    "node-selector-not-matching-node",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("zone-b-fabric", [gpu(0, name="fgpu-0")],
                     node_selector={"nodeSelectorTerms": [expr_term(("topology.kubernetes.io/zone", "In", ["zone-b"]))]})],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=UNSCHEDULABLE,
    notes="The only GPU is offered to zone-b nodes; this node is in zone-a.",
))

NOT_BROKEN = {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["gpu-node-9"]}],
                                     "matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In",
                                                           "values": ["zone-a"]}]}]}

add(scenario(
    "node-matchfields-selector-copied",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("zone-a-fabric", [gpu(0, name="fgpu-0")], node_selector=NOT_BROKEN)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "zone-a-fabric")], NOT_BROKEN)),
    notes="A slice selector term with matchFields (metadata.name NotIn [gpu-node-9]) and matchExpressions (zone-a) "
          "matches this node; the allocation keeps both requirements in one term instead of pinning to the node.",
))

add(scenario(
    "error-matchfields-several-node-names",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[net_pool("pair-fabric", [gpu(0, name="fgpu-0")], node_selector={"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [NODE1, "gpu-node-2"]}]}]})],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=error("gather pool information: failed to perform node selection for slice pair-fabric-slice"),
    notes="matchFields on metadata.name accepts exactly one value for In/NotIn. A slice selector listing two node "
          "names cannot be parsed, and upstream aborts the whole allocation while gathering pools (full message "
          "ends with 'values: Invalid value: [\"gpu-node-1\",\"gpu-node-2\"]: must have one element'). Lesson "
          "from the oracle: this scenario was first written expecting the selector to be copied.",
))

PER_DEVICE = rslice("fabric-per-device", NVIDIA, "fabric", [
    gpu(0, name="fgpu-0", nodeName="gpu-node-2"),
    gpu(1, name="fgpu-1", nodeSelector={"nodeSelectorTerms": [expr_term(ZONE_A)]}),
    gpu(2, name="fgpu-2", allNodes=True),
    gpu(3, name="fgpu-3", nodeName=NODE1),
], per_device=True)

add(scenario(
    "node-per-device-selection-merges-selectors",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=[PER_DEVICE],
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "fgpu-1", "fabric"), res("gpus", "fgpu-2", "fabric")],
                           {"nodeSelectorTerms": [expr_term(ZONE_A)]})),
    notes="perDeviceNodeSelection: fgpu-0 belongs to another node and is skipped; fgpu-1 (zone-a selector) and "
          "fgpu-2 (allNodes) are used. Their selectors merge to the zone-a term; allNodes adds nothing.",
))

add(scenario(
    "node-per-device-node-name-pins",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=[PER_DEVICE],
    claims=[claim("job", [exact("gpus", "gpu-h100", 3)])],
    expect=allocated(alloc("job", [res("gpus", "fgpu-1", "fabric"), res("gpus", "fgpu-2", "fabric"),
                                   res("gpus", "fgpu-3", "fabric")], local(NODE1))),
    notes="As node-per-device-selection-merges-selectors with 3 GPUs: fgpu-3 has nodeName of this node, which pins "
          "the whole allocation to the node.",
))

# ---------------------------------------------------------------------------------------------
add(scenario(
    "pool-newer-generation-replaces-devices",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(k) for k in range(8)], name="dgx-h100-01-gpus-old", generation=1),
            gpu_node_slice(DGX1, [gpu(k) for k in range(4, 8)], name="dgx-h100-01-gpus", generation=2)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "gpu-4", DGX1)], local(DGX1))),
    notes="The driver republished the pool with generation 2 after gpu-0..3 were removed; the outdated generation-1 "
          "slice is still in the cluster but only the highest generation counts.",
))

add(scenario(
    "pool-incomplete-skipped-other-pool-used",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(NODE1, [gpu(k) for k in range(4)], name="gpu-node-1-gpus-a", count=2),
            net_pool("cluster-fabric", [gpu(0, name="fgpu-0")], all_nodes=True)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "cluster-fabric")], None)),
    notes="The node's own pool declares 2 slices but only one is published (the driver is mid-update): ExactCount "
          "silently skips the incomplete pool and takes the network-attached GPU.",
))

add(scenario(
    "pool-order-driver-then-pool-name",
    features=GATES_137, node=MIXED_NODE, classes=[dclass("any-accelerator")],
    slices=[gpu_node_slice(MIXED1, [gpu(0)]),
            rslice("%s-amd" % MIXED1, "gpu.amd.com", MIXED1, [dev("gpu-0", attributes={"productName": s("MI300X")})],
                   node_name=MIXED1)],
    claims=[claim("job", [exact("accel", "any-accelerator")])],
    expect=allocated(alloc("job", [res("accel", "gpu-0", MIXED1, driver="gpu.amd.com")], local(MIXED1))),
    notes="A class without selectors matches every device. Pools are searched by driver name, then pool name: "
          "gpu.amd.com sorts before gpu.nvidia.com, whatever the slice order.",
))

add(scenario(
    "pool-multi-node-all-mode-only-local-devices",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[rslice("rack-7-node-1", NVIDIA, "rack-7", [gpu(0), gpu(1)], node_name=NODE1, count=2),
            rslice("rack-7-node-2", NVIDIA, "rack-7", [gpu(2), gpu(3)], node_name="gpu-node-2", count=2)],
    claims=[claim("all-local", [exact("gpus", "gpu-h100", all_mode=True)])],
    expect=allocated(alloc("all-local", [res("gpus", "gpu-0", "rack-7"), res("gpus", "gpu-1", "rack-7")], local(NODE1))),
    notes="One pool spans two nodes (resourceSliceCount 2). The slice for gpu-node-2 makes the pool complete, but "
          "'all' covers only the devices reachable from this node.",
))
