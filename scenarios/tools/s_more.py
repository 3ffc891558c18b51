"""Further subtleties: attribute lookup, capacity without policy, per-claim limits, minimal gate sets and
the differences between upstream's stable and incubating allocator variants."""
from lib import *  # noqa: F401,F403
from fixtures import *  # noqa: F401,F403

S = []


def add(sc):
    S.append(sc)


add(scenario(
    "fleet-match-attribute-type-mismatch",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_GPU],
    slices=[gpu_node_slice(MIXED1, [
        gpu(0, "A100", extra_attrs={"nvlinkDomain": s("0")}),
        gpu(1, "A100", nvlink=0),
        gpu(2, "A100", nvlink=0),
    ])],
    claims=[claim("pair", [exact("gpus", "gpu.nvidia.com", 2)], constraints=[match(NVLINK)])],
    expect=allocated(alloc("pair", [res("gpus", "gpu-1", MIXED1), res("gpus", "gpu-2", MIXED1)], local(MIXED1))),
    notes="gpu-0 publishes nvlinkDomain as the string \"0\", the others as the int 0. Values of different types "
          "never match, so gpu-0 (first in the list) cannot be paired and the pair is gpu-1 + gpu-2.",
))

add(scenario(
    "fleet-match-attribute-domain-must-match-driver",
    features=GATES_137, node=MIXED_NODE, classes=[dclass("any-accelerator")],
    slices=[gpu_node_slice(MIXED1, [gpu(0)]),
            gpu_node_slice(MIXED1, [gpu(1)], name="gpu-mixed-01-gpus-b", pool="gpu-mixed-01-b"),
            rslice("%s-amd" % MIXED1, "gpu.amd.com", MIXED1,
                   [dev("gpu-0", attributes={"productName": s("H100")})], node_name=MIXED1)],
    claims=[claim("pair", [exact("accel", "any-accelerator", 2)],
                  constraints=[match("gpu.nvidia.com/productName")])],
    expect=allocated(alloc("pair", [res("accel", "gpu-0", MIXED1), res("accel", "gpu-1", "gpu-mixed-01-b")],
                           local(MIXED1))),
    notes="A constraint on gpu.nvidia.com/productName finds the short attribute name 'productName' only on devices "
          "of driver gpu.nvidia.com. The gpu.amd.com device (searched first: its driver sorts first) also says "
          "productName H100, but in its own domain, so it lacks gpu.nvidia.com/productName and cannot be part of "
          "the set.",
))

add(scenario(
    "fleet-match-version-attribute-local-and-fabric",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(NODE1, [gpu(0)]),
            rslice("cluster-fabric-slice", NVIDIA, "cluster-fabric",
                   [gpu(1, name="fgpu-1", driver_version="535.161.8"), gpu(2, name="fgpu-2")], all_nodes=True)],
    claims=[claim("job", [exact("first", "gpu-h100"), exact("second", "gpu-h100")],
                  constraints=[match("gpu.nvidia.com/driverVersion")])],
    expect=allocated(alloc("job", [res("first", "fgpu-2", "cluster-fabric"), res("second", "gpu-0", NODE1)],
                           local(NODE1))),
    notes="matchAttribute on a version attribute across a network-attached pool and the node-local pool. "
          "cluster-fabric sorts before gpu-node-1, so 'first' tries fgpu-1 (driver 535.161.8), for which 'second' "
          "finds no partner; backtracking gives first=fgpu-2 (550.54.15) and second=gpu-0 (550.54.15). The local "
          "device pins the allocation to the node.",
))

GPU_WITH_SM = [dev("gpu-%d" % k, attributes={"type": s("gpu"), "uuid": s("GPU-h100-%04d" % k)},
                   capacity={"memory": {"value": "80Gi", "requestPolicy": VALID_VALUES_MEM},
                             "multiprocessors": {"value": "132"}},
                   allowMultipleAllocations=True) for k in range(2)]

add(scenario(
    "capacity-unrequested-capacity-without-policy-consumed-fully",
    features=GATES_137, node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[rslice("gpu-share-01-gpus", NVIDIA, SHARE1, GPU_WITH_SM, node_name=SHARE1)],
    claims=[claim("two-workers", [exact("a", "gpu-shared", capacity={"memory": "20Gi"}),
                                  exact("b", "gpu-shared", capacity={"memory": "20Gi"})])],
    expect=allocated(alloc("two-workers", [
        res("a", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi", "multiprocessors": "132"}),
        res("b", "gpu-1", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi", "multiprocessors": "132"}),
    ], local(SHARE1))),
    notes="The GPUs have two capacities: memory (with a policy) and multiprocessors (132, no policy). A share that "
          "does not request multiprocessors consumes all of them, so the second share cannot go to gpu-0 although "
          "60Gi of memory are left. consumedCapacity lists every capacity of the device.",
))

add(scenario(
    "capacity-requested-capacity-without-policy-consumed-exactly",
    features=GATES_137, node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[rslice("gpu-share-01-gpus", NVIDIA, SHARE1, GPU_WITH_SM, node_name=SHARE1)],
    claims=[claim("two-workers", [exact("a", "gpu-shared", capacity={"memory": "20Gi", "multiprocessors": "66"}),
                                  exact("b", "gpu-shared", capacity={"memory": "20Gi", "multiprocessors": "66"})])],
    expect=allocated(alloc("two-workers", [
        res("a", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi", "multiprocessors": "66"}),
        res("b", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi", "multiprocessors": "66"}),
    ], local(SHARE1))),
    notes="As capacity-unrequested-capacity-without-policy-consumed-fully, but each share asks for half of the "
          "multiprocessors: without a policy the request is consumed as is, and both shares fit on gpu-0.",
))

add(scenario(
    "fallback-constraint-on-subrequest-and-other-request",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_H100, CLASS_A100, CLASS_NIC],
    slices=[mixed_slice(), nic_slice(MIXED1, [nic(0, "pci0000:07"), nic(1, "pci0000:01")])],
    claims=[claim("job", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100")), exact("nic", "rdma-nic")],
                  constraints=[match(PCIE, "gpu/a100", "nic")])],
    expect=allocated(alloc("job", [res("gpu/h100", "gpu-0", MIXED1), res("nic", "nic-0", MIXED1, driver="dra.net")],
                           local(MIXED1))),
    notes="The constraint names the subrequest gpu/a100 and the request nic. The H100 subrequest is chosen, so the "
          "constraint only sees the NIC and is trivially satisfied: nic-0 is used although its PCIe root differs "
          "from gpu-0's.",
))

add(scenario(
    "fallback-constraint-on-subrequest-binds-when-chosen",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_H100, CLASS_A100, CLASS_NIC],
    slices=[mixed_slice(), nic_slice(MIXED1, [nic(0, "pci0000:07"), nic(1, "pci0000:01")])],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("job", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100")), exact("nic", "rdma-nic")],
                  constraints=[match(PCIE, "gpu/a100", "nic")])],
    expect=allocated(alloc("job", [res("gpu/a100", "gpu-2", MIXED1), res("nic", "nic-1", MIXED1, driver="dra.net")],
                           local(MIXED1))),
    notes="Same claim as fallback-constraint-on-subrequest-and-other-request with both H100s busy: now gpu/a100 "
          "is chosen (gpu-2, root pci0000:01) and the constraint makes the NIC match its root: nic-1.",
))

NEURON = "neuron.amazonaws.com"
TRN = "trn-node-01"
TRN_NODE = node(TRN, **{"topology.kubernetes.io/zone": "zone-b"})
CLASS_NEURON = dclass("neuroncore", 'device.driver == "neuron.amazonaws.com"')
TRN_SLICE = gpu_node_slice(TRN, [dev("core-%d" % k, attributes={"type": s("neuroncore"), "index": i(k)})
                                 for k in range(40)], driver=NEURON)

add(scenario(
    "limit-is-per-claim-not-per-pod",
    features=GATES_137, node=TRN_NODE, classes=[CLASS_NEURON], slices=[TRN_SLICE],
    claims=[claim("trainer", [exact("cores", "neuroncore", 32)]), claim("evaluator", [exact("cores", "neuroncore", 8)])],
    expect=allocated(
        alloc("trainer", [res("cores", "core-%d" % k, TRN, driver=NEURON) for k in range(32)], local(TRN)),
        alloc("evaluator", [res("cores", "core-%d" % k, TRN, driver=NEURON) for k in range(32, 40)], local(TRN)),
    ),
    notes="32 results is the limit of one claim; exactly 32 is allowed, and another claim of the same pod may add "
          "more devices (40 in total).",
))

add(scenario(
    "pool-slice-without-node-selection-ignored",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[rslice("future-fabric-slice", NVIDIA, "future-fabric", [gpu(0, name="fgpu-0")]),
            rslice("cluster-fabric-slice", NVIDIA, "cluster-fabric", [gpu(1, name="fgpu-1")], all_nodes=True)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-1", "cluster-fabric")], None)),
    notes="A slice with none of nodeName, nodeSelector, allNodes, perDeviceNodeSelection (a future kind of node "
          "selection) is silently ignored; the other pool is used.",
))

# --- minimal gate sets (upstream's stable variant; single pool, so its result is deterministic) ---------

add(scenario(
    "fallback-minimal-gates",
    features=["DRAPrioritizedList"], node=MIXED_NODE, classes=[CLASS_H100, CLASS_A100, CLASS_L4],
    slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("inference", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100"), sub("l4", "gpu-l4"))])],
    expect=allocated(alloc("inference", [res("gpu/a100", "gpu-2", MIXED1)], local(MIXED1))),
    notes="Only DRAPrioritizedList on (upstream then runs its stable variant). One pool, so the outcome equals "
          "fallback-h100-busy-takes-a100.",
))

add(scenario(
    "taint-minimal-gates",
    features=["DRADeviceTaints"], node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(0, taints=[taint("gpu.nvidia.com/xid", "79", "NoSchedule")])]
                           + [gpu(k) for k in range(1, 8)])],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "gpu-1", DGX1)], local(DGX1))),
    notes="Only DRADeviceTaints on (stable variant): the tainted gpu-0 is skipped.",
))

add(scenario(
    "mig-minimal-gates",
    features=["DRAPartitionableDevices"], node=DGX_NODE, classes=MIG_CLASSES,
    slices=mig_slices(gpus=1),
    allocated=busy(NVIDIA, DGX1, "gpu-0-mig-1g10gb-0"),
    claims=[claim("mixed", [exact("half", "mig-3g.40gb"), exact("slice", "mig-1g.10gb")])],
    expect=allocated(alloc("mixed", [res("half", "gpu-0-mig-3g40gb-0", DGX1), res("slice", "gpu-0-mig-1g10gb-1", DGX1)],
                           local(DGX1))),
    notes="Only DRAPartitionableDevices on (stable variant). An allocated 1g.10gb plus a new 3g.40gb and 1g.10gb "
          "use 5 of 7 compute slices and 60Gi of 80Gi.",
))

add(scenario(
    "admin-minimal-gates",
    features=["DRAAdminAccess"], node=node("ws-l4-01", **{"topology.kubernetes.io/zone": "zone-a"}), classes=[CLASS_L4],
    slices=[gpu_node_slice("ws-l4-01", [gpu(0, "L4")])],
    allocated=busy(NVIDIA, "ws-l4-01", "gpu-0"),
    claims=[claim("watch", [exact("gpu", "gpu-l4", admin=True)])],
    expect=allocated(alloc("watch", [res("gpu", "gpu-0", "ws-l4-01", adminAccess=True)], local("ws-l4-01"))),
    notes="Only DRAAdminAccess on (stable variant): an admin-access request gets the busy L4.",
))

add(scenario(
    "fleet-no-gates",
    features=[], node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-2"),
    claims=[claim("train", [exact("gpus", "gpu-h100", 4)], constraints=[match(NVLINK)])],
    expect=allocated(alloc("train", [res("gpus", "gpu-%d" % k, DGX1) for k in range(4, 8)], local(DGX1))),
    notes="No DRA gate on at all (stable variant): structured parameters, CEL and matchAttribute work as usual.",
))

# --- where upstream's variants differ ----------------------------------------------------------------

add(scenario(
    "variant-stable-ignores-capacity-requests",
    features=["DRAPrioritizedList"], node=MIXED_NODE, classes=[CLASS_A100],
    slices=[gpu_node_slice(MIXED1, [gpu(0, "A100", memory="40Gi"), gpu(1, "A100")])],
    claims=[claim("training", [exact("gpu", "gpu-a100", capacity={"memory": "60Gi"})])],
    expect=allocated(alloc("training", [res("gpu", "gpu-0", MIXED1)], local(MIXED1))),
    notes="UPSTREAM VARIANT QUIRK. With DRAConsumableCapacity and both binding-condition gates off, kube-scheduler's "
          "NewAllocator picks the stable variant, which has no notion of capacity requests: it neither reports "
          "'has capacity requests, but the DRAConsumableCapacity feature is disabled' (only the incubating and "
          "experimental variants do, see error-consumable-capacity-disabled) nor filters by capacity, so the 40Gi "
          "A100 is taken. Exclude this file if dra4j deliberately follows the incubating variant for all gate sets.",
))

add(scenario(
    "variant-stable-keeps-slice-order",
    features=["DRAPrioritizedList"], node=DGX_NODE, classes=[CLASS_H100],
    slices=[
        gpu_node_slice(DGX1, [gpu(k) for k in range(4, 8)], name="dgx-h100-01-gpus-b", count=2),
        gpu_node_slice(DGX1, [gpu(k) for k in range(0, 4)], name="dgx-h100-01-gpus-a", count=2),
    ],
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "gpu-4", DGX1), res("gpus", "gpu-5", DGX1)], local(DGX1))),
    notes="UPSTREAM VARIANT QUIRK. Same pool as fleet-pool-split-across-slices-sorted-by-name, but with a gate set "
          "that selects upstream's stable variant: it searches the slices of a pool in the order they are listed "
          "(no sort by name), so gpu-4/gpu-5 of the first-listed slice win. The incubating variant returns gpu-0/"
          "gpu-1. Exclude this file if dra4j deliberately follows the incubating variant for all gate sets.",
))

# --- batch 3: combinations ----------------------------------------------------------------------------

CFG_A = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig", "sharing": {"strategy": "TimeSlicing"}}
CFG_B = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuHealthConfig", "xidPolicy": "Drain"}

add(scenario(
    "config-class-with-two-configs-used-by-two-requests",
    features=GATES_137, node=DGX_NODE,
    classes=[dclass("gpu-h100", H100_SEL, config=[opaque(NVIDIA, CFG_A), opaque(NVIDIA, CFG_B)]), CLASS_NIC],
    slices=[dgx(DGX1), nic_slice(DGX1, [nic(k, "pci0000:%02x" % k) for k in range(4)])],
    claims=[claim("job", [exact("train", "gpu-h100"), exact("nic", "rdma-nic"), exact("eval", "gpu-h100")])],
    expect=allocated(alloc("job", [res("train", "gpu-0", DGX1), res("nic", "nic-0", DGX1, driver="dra.net"),
                                   res("eval", "gpu-1", DGX1)], local(DGX1), config=[
        {"source": "FromClass", "requests": ["train", "eval"], "opaque": {"driver": NVIDIA, "parameters": CFG_A}},
        {"source": "FromClass", "requests": ["train", "eval"], "opaque": {"driver": NVIDIA, "parameters": CFG_B}},
    ])),
    notes="A class with two configs used by two requests: each config appears once, listing both requests (in "
          "request order). The NIC class has no config. The requests lists stay because they do not cover 'nic'.",
))

FABRIC_MAINT = "example.com/fabric-maintenance"

add(scenario(
    "binding-tainted-fabric-device-tolerated",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(NODE1, [gpu(0)]),
            rslice("fabric-gpus", NVIDIA, "composable-fabric",
                   [fabric_gpu(k) for k in range(2)], all_nodes=True)],
    allocated=busy(NVIDIA, NODE1, "gpu-0"),
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[tol(FABRIC_MAINT, "Exists")])])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "composable-fabric", tolerations=[tol(FABRIC_MAINT, "Exists")],
                                       bindingConditions=["FabricAttached"],
                                       bindingFailureConditions=["FabricAttachFailed"])], local(NODE1))),
    notes="Binding conditions and tolerations together: the result carries the request's tolerations and the "
          "device's binding conditions, and bindsToNode pins it to the node. (The toleration is not needed here — "
          "the fabric GPUs are untainted — but is copied anyway.)",
))

add(scenario(
    "capacity-fallback-smaller-share",
    features=GATES_137, node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[rslice("gpu-share-01-gpus", NVIDIA, SHARE1, [shared_gpu(0, VALID_VALUES_MEM), shared_gpu(1, VALID_VALUES_MEM)],
                   node_name=SHARE1)],
    allocated=[shared_busy(NVIDIA, SHARE1, "gpu-0", memory="60Gi"), shared_busy(NVIDIA, SHARE1, "gpu-1", memory="60Gi")],
    claims=[claim("notebook", [first("gpu", sub("big", "gpu-shared", capacity={"memory": "40Gi"}),
                                     sub("small", "gpu-shared", capacity={"memory": "20Gi"}))])],
    expect=allocated(alloc("notebook", [res("gpu/small", "gpu-0", SHARE1, shareID="*", consumedCapacity={"memory": "20Gi"})],
                           local(SHARE1))),
    notes="Both shared GPUs have 20Gi left: the 40Gi subrequest fits nowhere, the 20Gi one fits exactly on gpu-0.",
))


def shared_mig_devices():
    def part(name, profile, compute, memory, shared):
        d = dev(name, attributes={"type": s("gpu" if profile == "7g.80gb" else "mig"), "productName": s("H100"),
                                  "profile": s(profile), "parentIndex": i(0), "parentUUID": s("GPU-h100-0000")},
                capacity={"memory": {"value": memory}},
                consumesCounters=[{"counterSet": "gpu-0-counters",
                                   "counters": {"computeSlices": {"value": str(compute)}, "memory": {"value": memory}}}])
        if shared:
            d["allowMultipleAllocations"] = True
            d["capacity"]["memory"]["requestPolicy"] = {"default": "10Gi",
                                                        "validRange": {"min": "10Gi", "step": "10Gi"}}
        return d
    return [part("gpu-0", "7g.80gb", 7, "80Gi", False),
            part("gpu-0-mig-3g40gb-0", "3g.40gb", 3, "40Gi", True),
            part("gpu-0-mig-3g40gb-1", "3g.40gb", 3, "40Gi", True)]


SHARED_MIG_SLICES = [
    rslice("dgx-h100-01-counters", NVIDIA, DGX1, None, node_name=DGX1, count=2, shared_counters=[counter_set(0)]),
    rslice("dgx-h100-01-devices", NVIDIA, DGX1, shared_mig_devices(), node_name=DGX1, count=2),
]

add(scenario(
    "mig-shared-partition-counters-charged-once",
    features=GATES_137, node=DGX_NODE, classes=MIG_CLASSES, slices=SHARED_MIG_SLICES,
    claims=[claim("agents", [exact("a", "mig-3g.40gb", capacity={"memory": "20Gi"}),
                             exact("b", "mig-3g.40gb", capacity={"memory": "20Gi"}),
                             exact("c", "mig-3g.40gb", capacity={"memory": "20Gi"})])],
    expect=allocated(alloc("agents", [
        res("a", "gpu-0-mig-3g40gb-0", DGX1, shareID="*", consumedCapacity={"memory": "20Gi"}),
        res("b", "gpu-0-mig-3g40gb-0", DGX1, shareID="*", consumedCapacity={"memory": "20Gi"}),
        res("c", "gpu-0-mig-3g40gb-1", DGX1, shareID="*", consumedCapacity={"memory": "20Gi"}),
    ], local(DGX1))),
    notes="3g.40gb partitions that can be shared (allowMultipleAllocations, 40Gi memory capacity). a and b share "
          "3g-0; its counters (3 compute, 40Gi) are charged once, not per share, so c still fits on 3g-1 (6 compute, "
          "80Gi in total). Charging per share would exhaust the 80Gi before c.",
))

add(scenario(
    "mig-shared-partition-in-use-blocks-full-gpu",
    features=GATES_137, node=DGX_NODE, classes=MIG_CLASSES, slices=SHARED_MIG_SLICES,
    allocated=[shared_busy(NVIDIA, DGX1, "gpu-0-mig-3g40gb-0", memory="20Gi")],
    claims=[claim("agent", [first("gpu", sub("full", "gpu-h100-full"),
                                  sub("share", "mig-3g.40gb", capacity={"memory": "20Gi"}))])],
    expect=allocated(alloc("agent", [res("gpu/share", "gpu-0-mig-3g40gb-0", DGX1, shareID="*",
                                         consumedCapacity={"memory": "20Gi"})], local(DGX1))),
    notes="A partition shared by an earlier allocation consumes its counters, so the whole GPU no longer fits; the "
          "fallback shares the same partition again without charging its counters a second time.",
))

add(scenario(
    "taint-toleration-seconds-copied",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(0, taints=[taint("gpu.nvidia.com/xid", "48", "NoExecute")])])],
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[
        {"key": "gpu.nvidia.com/xid", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-0", DGX1, tolerations=[
        {"key": "gpu.nvidia.com/xid", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}])],
                           local(DGX1))),
    notes="A NoExecute toleration with tolerationSeconds: allocation only checks that the taint is tolerated; the "
          "toleration, including tolerationSeconds, is copied into the result for the eviction controller.",
))

add(scenario(
    "fallback-all-mode-no-match-next-subrequest",
    features=GATES_137, node=node("ws-l4-01", **{"topology.kubernetes.io/zone": "zone-a"}),
    classes=[CLASS_H100, CLASS_L4], slices=[gpu_node_slice("ws-l4-01", [gpu(0, "L4")])],
    claims=[claim("bench", [first("gpus", sub("all-h100", "gpu-h100", all_mode=True), sub("one-l4", "gpu-l4"))])],
    expect=allocated(alloc("bench", [res("gpus/one-l4", "gpu-0", "ws-l4-01")], local("ws-l4-01"))),
    notes="An All subrequest that matches no device at all cannot be satisfied (All needs at least one device); "
          "the next subrequest is used.",
))

OBSOLETE = [
    rslice("rack-7-node-1", NVIDIA, "rack-7", [gpu(0), gpu(1)], node_name=NODE1, count=2, generation=1),
    rslice("rack-7-node-2", NVIDIA, "rack-7", [gpu(2), gpu(3)], node_name="gpu-node-2", count=2, generation=1),
    rslice("rack-7-node-2-v2", NVIDIA, "rack-7", [gpu(2), gpu(3)], node_name="gpu-node-2", count=2, generation=2),
    rslice("cluster-fabric-slice", NVIDIA, "cluster-fabric", [gpu(4, name="fgpu-0")], all_nodes=True),
]

add(scenario(
    "pool-obsolete-generation-ignored",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=OBSOLETE,
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "fgpu-0", "cluster-fabric")], None)),
    notes="Pool rack-7 spans two nodes. Its driver has started publishing generation 2 (so far only the slice of "
          "gpu-node-2). This node's slice is still generation 1: that generation is complete (2 slices) but "
          "obsolete, so the whole pool is ignored and the network-attached GPU is used.",
))

add(scenario(
    "pool-obsolete-pool-not-an-error-for-all-mode",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100], slices=OBSOLETE,
    claims=[claim("all", [exact("gpus", "gpu-h100", all_mode=True)])],
    expect=allocated(alloc("all", [res("gpus", "fgpu-0", "cluster-fabric")], None)),
    notes="Same input as pool-obsolete-generation-ignored with allocationMode All. An obsolete pool is dropped, not "
          "'incomplete', so All does not fail (contrast error-all-mode-incomplete-pool-of-other-driver): 'all' "
          "matching devices are just the fabric GPU.",
))

add(scenario(
    "error-cel-runtime-error-all-mode-evaluates-every-device",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(0, extra_attrs={"migCapable": b(True)})] + [gpu(k) for k in range(1, 8)])],
    claims=[claim("job", [exact("gpus", "gpu-h100", all_mode=True,
                                selectors=['device.attributes["gpu.nvidia.com"].migCapable'])])],
    expect=error("CEL runtime error: no such key: migCapable"),  # upstream: "claim job: selector #0 on device gpu.nvidia.com/dgx-h100-01/gpu-1: CEL runtime error: ...",
    notes="Same devices as cel-runtime-error-not-reached, but allocationMode All evaluates the selectors on every "
          "device up front, so gpu-1's missing attribute is an error.",
))

LIST_FEATURES = GATES_137 + ["DRAListTypeAttributes"]


def clique_gpu(k, cliques):
    return gpu(k, "H100", extra_attrs={"fabricCliques": {"strings": cliques}})


CLIQUE_SLICE = gpu_node_slice(DGX1, [clique_gpu(0, ["a", "b"]), clique_gpu(1, ["a"]), clique_gpu(2, ["b"]),
                                     clique_gpu(3, ["b", "c"])])

add(scenario(
    "fleet-list-attribute-intersection",
    features=LIST_FEATURES, node=DGX_NODE, classes=[CLASS_H100], slices=[CLIQUE_SLICE],
    claims=[claim("trio", [exact("gpus", "gpu-h100", 3)], constraints=[match("gpu.nvidia.com/fabricCliques")])],
    expect=allocated(alloc("trio", [res("gpus", "gpu-0", DGX1), res("gpus", "gpu-2", DGX1), res("gpus", "gpu-3", DGX1)],
                           local(DGX1))),
    notes="DRAListTypeAttributes (upstream's experimental variant): matchAttribute on a list attribute needs a "
          "common element across all devices. gpu-0 {a,b} + gpu-1 {a} leave {a}, which no third GPU has; "
          "backtracking finds gpu-0, gpu-2, gpu-3 with common element b.",
))

add(scenario(
    "fleet-list-attribute-gate-off",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=[CLIQUE_SLICE],
    claims=[claim("trio", [exact("gpus", "gpu-h100", 3)], constraints=[match("gpu.nvidia.com/fabricCliques")])],
    expect=UNSCHEDULABLE,
    notes="Same input as fleet-list-attribute-intersection with DRAListTypeAttributes off (incubating variant). "
          "Devices with list attributes are still allocatable, and the first device of a matchAttribute set is "
          "accepted whatever its value type, but a list value never equals another device's value, so no second "
          "device can join: unschedulable (not an error). See fleet-list-attribute-gate-off-single-device.",
))

add(scenario(
    "fleet-list-attribute-gate-off-single-device",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=[CLIQUE_SLICE],
    claims=[claim("solo", [exact("gpus", "gpu-h100", 1)], constraints=[match("gpu.nvidia.com/fabricCliques")])],
    expect=allocated(alloc("solo", [res("gpus", "gpu-0", DGX1)], local(DGX1))),
    notes="As fleet-list-attribute-gate-off with one GPU: a matchAttribute set of one device only needs the "
          "attribute to exist, so the list-valued attribute is accepted even with DRAListTypeAttributes off.",
))
