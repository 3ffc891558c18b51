"""admin-, config-, cel- and error- scenarios."""
from lib import *  # noqa: F401,F403
from fixtures import *  # noqa: F401,F403

S = []


def add(sc):
    S.append(sc)


WS1 = "ws-l4-01"
WS_NODE = node(WS1, **{"topology.kubernetes.io/zone": "zone-a"})
WS_SLICE = gpu_node_slice(WS1, [gpu(0, "L4")])

add(scenario(
    "admin-all-gpus-including-busy",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-1", "gpu-2"),
    claims=[claim("dcgm-exporter", [exact("gpus", "gpu-h100", all_mode=True, admin=True)])],
    expect=allocated(alloc("dcgm-exporter", [res("gpus", "gpu-%d" % k, DGX1, adminAccess=True) for k in range(8)],
                           local(DGX1))),
    notes="A monitoring claim with adminAccess and allocationMode All gets every GPU of the node, including the two "
          "in use by workloads; every result has adminAccess: true.",
))

add(scenario(
    "admin-same-claim-conflict",
    features=GATES_137, node=WS_NODE, classes=[CLASS_L4], slices=[WS_SLICE],
    claims=[claim("work-and-watch", [exact("work", "gpu-l4"), exact("watch", "gpu-l4", admin=True)])],
    expect=UNSCHEDULABLE,
    notes="Admin access may share a device with other claims, but not with another request of the same claim: "
          "'work' takes the only L4 and 'watch' cannot use it.",
))

add(scenario(
    "admin-other-claim-in-same-call-shares-device",
    features=GATES_137, node=WS_NODE, classes=[CLASS_L4], slices=[WS_SLICE],
    claims=[claim("work", [exact("gpu", "gpu-l4")]), claim("watch", [exact("gpu", "gpu-l4", admin=True)])],
    expect=allocated(alloc("work", [res("gpu", "gpu-0", WS1)], local(WS1)),
                     alloc("watch", [res("gpu", "gpu-0", WS1, adminAccess=True)], local(WS1))),
    notes="Two claims of one pod: the admin-access claim may use the device that the first claim is just "
          "allocating.",
))

add(scenario(
    "admin-allocated-admin-claim-does-not-block",
    features=GATES_137, node=WS_NODE, classes=[CLASS_L4], slices=[WS_SLICE],
    allocated=[{
        "apiVersion": V1, "kind": "ResourceClaim",
        "metadata": {"name": "node-monitor", "namespace": "monitoring"},
        "spec": {"devices": {"requests": [exact("gpu", "gpu-l4", admin=True)]}},
        "status": {"allocation": {"devices": {"results": [res("gpu", "gpu-0", WS1, adminAccess=True)]},
                                  "nodeSelector": local(WS1)}},
    }],
    claims=[claim("work", [exact("gpu", "gpu-l4")])],
    expect=allocated(alloc("work", [res("gpu", "gpu-0", WS1)], local(WS1))),
    notes="The only L4 is allocated to a monitoring claim with admin access; such results do not make the device "
          "busy, so a normal claim still gets it.",
))

# ---------------------------------------------------------------------------------------------
GPU_CLASS_CFG = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
                 "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Default"}}}
NIC_CLASS_CFG = {"apiVersion": "dra.net/v1alpha1", "kind": "NetworkConfig", "interface": {"mtu": 9000}}
GPU_CLAIM_CFG = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
                 "sharing": {"strategy": "MPS", "mpsConfig": {"defaultActiveThreadPercentage": 50}}}
NIC_CLAIM_CFG = {"apiVersion": "dra.net/v1alpha1", "kind": "NetworkConfig", "rdma": {"enabled": True}}

CLASS_H100_CFG = dclass("gpu-h100", H100_SEL, config=[opaque(NVIDIA, GPU_CLASS_CFG)])
A100_CLASS_CFG = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
                  "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}}}
A100_CLAIM_CFG = {"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
                  "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Short"}}}
CLASS_A100_CFG = dclass("gpu-a100", A100_SEL, config=[opaque(NVIDIA, A100_CLASS_CFG)])
CLASS_NIC_CFG = dclass("rdma-nic", 'device.driver == "dra.net" && device.attributes["dra.net"].rdma',
                       config=[opaque("dra.net", NIC_CLASS_CFG)])


def cfg(source, o, requests=None):
    c = {"source": source}
    if requests is not None:
        c["requests"] = requests
    c.update(o)
    return c


add(scenario(
    "config-class-and-claim-order",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100_CFG, CLASS_NIC_CFG],
    slices=[dgx(DGX1), nic_slice(DGX1, [nic(k, "pci0000:%02x" % k) for k in range(4)])],
    claims=[claim("worker", [exact("gpu", "gpu-h100"), exact("nic", "rdma-nic")], config=[
        dict({"requests": ["gpu"]}, **opaque(NVIDIA, GPU_CLAIM_CFG)),
        opaque("dra.net", NIC_CLAIM_CFG),
    ])],
    expect=allocated(alloc("worker", [res("gpu", "gpu-0", DGX1), res("nic", "nic-0", DGX1, driver="dra.net")],
                           local(DGX1), config=[
        cfg("FromClass", opaque(NVIDIA, GPU_CLASS_CFG), ["gpu"]),
        cfg("FromClass", opaque("dra.net", NIC_CLASS_CFG), ["nic"]),
        cfg("FromClaim", opaque(NVIDIA, GPU_CLAIM_CFG), ["gpu"]),
        cfg("FromClaim", opaque("dra.net", NIC_CLAIM_CFG)),
    ])),
    notes="Result config: first the class configs in request order (each tagged with the requests using that "
          "class), then the claim configs in claim order. A claim config without requests applies to all requests "
          "and keeps no requests list.",
))

add(scenario(
    "config-class-shared-by-all-requests-compacted",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100_CFG], slices=[dgx(DGX1)],
    claims=[claim("two-stage", [exact("prefill", "gpu-h100"), exact("decode", "gpu-h100")], config=[
        dict({"requests": ["prefill", "decode"]}, **opaque(NVIDIA, GPU_CLAIM_CFG))])],
    expect=allocated(alloc("two-stage", [res("prefill", "gpu-0", DGX1), res("decode", "gpu-1", DGX1)], local(DGX1),
                           config=[cfg("FromClass", opaque(NVIDIA, GPU_CLASS_CFG)),
                                   cfg("FromClaim", opaque(NVIDIA, GPU_CLAIM_CFG))])),
    notes="Both requests use the same class: its config appears once. Because it (and the claim config naming "
          "both requests) covers every request of the claim, the requests list is dropped (empty means all).",
))

add(scenario(
    "config-chosen-subrequest-only",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_H100_CFG, CLASS_A100_CFG], slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("inference", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100"))], config=[
        dict({"requests": ["gpu/h100"]}, **opaque(NVIDIA, GPU_CLAIM_CFG)),
        dict({"requests": ["gpu/a100"]}, **opaque(NVIDIA, A100_CLAIM_CFG)),
    ])],
    expect=allocated(alloc("inference", [res("gpu/a100", "gpu-2", MIXED1)], local(MIXED1), config=[
        cfg("FromClass", opaque(NVIDIA, A100_CLASS_CFG)),
        cfg("FromClaim", opaque(NVIDIA, A100_CLAIM_CFG)),
    ])),
    notes="Only configs of the chosen subrequest (gpu/a100) are included: the class config of gpu-a100, not of "
          "gpu-h100, and the claim config naming gpu/a100, not the one naming gpu/h100. Both cover the claim's only "
          "request, so their requests lists are dropped.",
))

# ---------------------------------------------------------------------------------------------
add(scenario(
    "cel-compile-error-never-evaluated",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_L4], slices=dgx_fleet(),
    claims=[claim("job", [exact("gpu", "gpu-l4", selectors=['device.attributes["gpu.nvidia.com"].memory >'])])],
    expect=UNSCHEDULABLE,
    notes="The claim selector does not compile, but selectors are only evaluated for devices that passed the "
          "class selectors first. No L4 exists on this H100 node, so the broken expression is never compiled or "
          "reported.",
))

add(scenario(
    "cel-runtime-error-not-reached",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(0, extra_attrs={"migCapable": b(True)})] + [gpu(k) for k in range(1, 8)])],
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=['device.attributes["gpu.nvidia.com"].migCapable'])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-0", DGX1)], local(DGX1))),
    notes="Only gpu-0 publishes migCapable; the selector would fail on gpu-1, but first fit is satisfied by gpu-0 "
          "and no other device is evaluated.",
))

add(scenario(
    "cel-optional-chaining-avoids-runtime-error",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(DGX1, [gpu(k) for k in range(7)] + [gpu(7, extra_attrs={"migCapable": b(True)})])],
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=[
        'device.attributes["gpu.nvidia.com"].?migCapable.orValue(false)'])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-7", DGX1)], local(DGX1))),
    notes="With optional chaining a missing attribute is not an error: gpu-0..6 simply do not match.",
))

# ---------------------------------------------------------------------------------------------
def dgx_err(name, claims, expect, notes, classes=(CLASS_H100,), features=GATES_137, slices=None, **kw):
    return scenario(name, features=features, node=DGX_NODE, classes=list(classes),
                    slices=slices or dgx_fleet(), claims=claims, expect=expect, notes=notes, **kw)


add(dgx_err(
    "error-empty-class-name",
    claims=[claim("job", [exact("gpu", "")])],
    expect=error("claim job, request gpu: missing device class name (unsupported request type?)"),
    notes="An exactly request without deviceClassName (some future request type) is refused.",
))

add(dgx_err(
    "error-missing-device-class",
    claims=[claim("job", [exact("gpu", "gpu-h100-sxm")])],
    expect=error("claim job, request gpu: could not retrieve device class gpu-h100-sxm"),
    notes="The class does not exist. Upstream wraps the lister's error (typically NotFound), so only this prefix "
          "is asserted.",
))

add(dgx_err(
    "error-subrequest-missing-class",
    classes=[CLASS_H100, CLASS_A100],
    claims=[claim("job", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100"), sub("l4", "gpu-l4"))])],
    expect=error("claim job, request l4: could not retrieve device class gpu-l4"),
    notes="All subrequests are validated before the search, so a missing class of the last subrequest is an error "
          "even though the first subrequest could be satisfied. The message names the subrequest (without its "
          "parent).",
))

add(dgx_err(
    "error-cel-compile-error-in-class",
    classes=[dclass("gpu-h100", H100_SEL + " &&")],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=error("class gpu-h100: selector #0: CEL compile error: compilation failed"),
    notes="A class selector that does not compile is reported when the first device is checked.",
))

add(dgx_err(
    "error-cel-compile-error-in-claim",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=[
        'device.attributes["gpu.nvidia.com"].index >= 0',
        'device.attributes["gpu.nvidia.com"].index in [0, 1',
    ])])],
    expect=error("claim job: selector #1: CEL compile error: compilation failed"),
    notes="The second claim selector has a syntax error; it is reached after the first selector matched gpu-0.",
))

add(dgx_err(
    "error-cel-undeclared-reference",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=['device.attributes["gpu.nvidia.com"].productName == H100'])])],
    expect=error("undeclared reference to 'H100'"),
    notes="Unquoted H100 is an identifier, not a string: a compile (type-check) error.",
))

add(dgx_err(
    "error-cel-runtime-missing-attribute",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=['device.attributes["gpu.nvidia.com"].migCapable'])])],
    expect=error("CEL runtime error: no such key: migCapable"),  # upstream: "claim job: selector #0 on device gpu.nvidia.com/dgx-h100-01/gpu-0: CEL runtime error: ...",
    notes="No GPU publishes migCapable: evaluating the selector on the first candidate is a runtime error, which "
          "aborts the allocation (it is not 'device does not match'). Upstream appends a hint about optional "
          "chaining.",
))

add(dgx_err(
    "error-cel-runtime-missing-attribute-in-class",
    classes=[dclass("gpu-mig-capable", 'device.attributes["gpu.nvidia.com"].migCapable')],
    claims=[claim("job", [exact("gpu", "gpu-mig-capable")])],
    expect=error("CEL runtime error: no such key: migCapable"),  # upstream: "class gpu-mig-capable: selector #0 on device gpu.nvidia.com/dgx-h100-01/gpu-0: CEL runtime error: ...",
    notes="As error-cel-runtime-missing-attribute, in a class selector: the message names the class.",
))

add(dgx_err(
    "error-cel-non-bool-result",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=['device.attributes["gpu.nvidia.com"].productName'])])],
    expect=error("CEL result of type string could not be converted to bool"),
    notes="An attribute value has a dynamic type, so the expression compiles; at runtime the string result is not "
          "a bool, which is an error.",
))

add(dgx_err(
    "error-cel-quantity-result",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=['device.capacity["gpu.nvidia.com"].memory'])])],
    expect=error("claim job: selector #0: CEL compile error: must evaluate to bool or the unknown type, not kubernetes.Quantity"),
    notes="A capacity has the static type Quantity (unlike attributes, whose type is dynamic), so the compile-time "
          "type check already rejects the expression.",
))

add(dgx_err(
    "error-empty-cel-expression",
    claims=[claim("job", [exact("gpu", "gpu-h100", selectors=[""])])],
    expect=error("claim job: selector #0: CEL compile error: compilation failed: ERROR: <input>:1:0: Syntax error"),
    notes="An empty expression does not parse. (The API server would reject it; the allocator reports it as a "
          "compile error when it evaluates the first device.)",
))

SELECTOR_WITHOUT_CEL = claim("job", [exact("gpu", "gpu-h100", selectors=['device.attributes["gpu.nvidia.com"].index >= 0'])])
SELECTOR_WITHOUT_CEL["spec"]["devices"]["requests"][0]["exactly"]["selectors"].append({})

add(dgx_err(
    "error-selector-without-cel",
    claims=[SELECTOR_WITHOUT_CEL],
    expect=error("claim job, request gpu, selector #1: CEL expression empty (unsupported selector type?)"),
    notes="A selector without a cel field (an unknown future selector type) is refused before any device is "
          "looked at.",
))

EMPTY_CONSTRAINT = claim("job", [exact("gpus", "gpu-h100", 2)], constraints=[match(NVLINK), {"requests": ["gpus"]}])

add(dgx_err(
    "error-empty-constraint",
    claims=[EMPTY_CONSTRAINT],
    expect=error("claim job, constraint #1: empty constraint (unsupported constraint type?)"),
    notes="The second constraint has neither matchAttribute nor distinctAttribute.",
))

add(dgx_err(
    "error-prioritized-list-disabled",
    features=gates_without("DRAPrioritizedList"),
    claims=[claim("job", [first("gpu", sub("h100", "gpu-h100"))])],
    expect=error("claim job, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled"),
    notes="firstAvailable with DRAPrioritizedList off is an error, not an unsatisfiable request.",
))

add(dgx_err(
    "error-admin-access-disabled",
    features=gates_without("DRAAdminAccess"),
    claims=[claim("monitor", [exact("gpus", "gpu-h100", all_mode=True, admin=True)])],
    expect=error("claim monitor, request gpus: admin access is requested, but the feature is disabled"),
    notes="adminAccess with DRAAdminAccess off.",
))

add(dgx_err(
    "error-admin-access-false-with-gate-off",
    features=gates_without("DRAAdminAccess"),
    claims=[claim("job", [exact("gpu", "gpu-h100", admin=False)])],
    expect=error("claim job, request gpu: admin access is requested, but the feature is disabled"),
    notes="Even adminAccess: false is refused when the gate is off: upstream checks whether the field is set, not "
          "its value.",
))

add(scenario(
    "error-consumable-capacity-disabled",
    features=gates_without("DRAConsumableCapacity"), node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[rslice("gpu-share-01-gpus", NVIDIA, SHARE1, [shared_gpu(0, VALID_VALUES_MEM)], node_name=SHARE1)],
    claims=[claim("notebook", [exact("gpu", "gpu-shared", capacity={"memory": "10Gi"})])],
    expect=error("claim notebook, request gpu: has capacity requests, but the DRAConsumableCapacity feature is disabled"),
    notes="Capacity requests with DRAConsumableCapacity off. (Upstream only checks this in its incubating/"
          "experimental allocators; the binding-condition gates kept on here select the incubating one.)",
))

add(scenario(
    "error-consumable-capacity-disabled-subrequest",
    features=gates_without("DRAConsumableCapacity"), node=SHARE_NODE, classes=[CLASS_SHARED_GPU],
    slices=[rslice("gpu-share-01-gpus", NVIDIA, SHARE1, [shared_gpu(0, VALID_VALUES_MEM)], node_name=SHARE1)],
    claims=[claim("notebook", [first("gpu", sub("whole", "gpu-shared"),
                                     sub("slice", "gpu-shared", capacity={"memory": "10Gi"}))])],
    expect=error("claim notebook, subrequest slice: has capacity requests, but the DRAConsumableCapacity feature is disabled"),
    notes="The same check for a subrequest; the message says 'subrequest' and names it without its parent.",
))

add(dgx_err(
    "error-all-mode-incomplete-pool-of-other-driver",
    classes=[CLASS_H100],
    slices=dgx_fleet() + [nic_slice(DGX1, [nic(0, "pci0000:00"), nic(1, "pci0000:01")], name="dgx-h100-01-nics-a",
                                    count=2)],
    claims=[claim("whole-node", [exact("gpus", "gpu-h100", all_mode=True)])],
    expect=error("claim whole-node, request gpus: asks for all devices, but resource pool dra.net/dgx-h100-01 is currently being updated"),
    notes="allocationMode All refuses to run while ANY pool visible from the node is incomplete, even a NIC pool of "
          "another driver that the GPU class would never match.",
))

add(dgx_err(
    "error-all-mode-invalid-pool",
    slices=[gpu_node_slice(DGX1, [gpu(k) for k in range(4)], name="dgx-h100-01-gpus-a", count=2),
            gpu_node_slice(DGX1, [gpu(k) for k in range(3, 8)], name="dgx-h100-01-gpus-b", count=2)],
    claims=[claim("whole-node", [exact("gpus", "gpu-h100", all_mode=True)])],
    expect=error("claim whole-node, request gpus: asks for all devices, but resource pool gpu.nvidia.com/dgx-h100-01 is currently invalid"),
    notes="gpu-3 is published in both slices of the pool, which makes the pool invalid; All reports it.",
))

add(dgx_err(
    "error-invalid-pool-no-other-solution",
    slices=[gpu_node_slice(DGX1, [gpu(k) for k in range(4)], name="dgx-h100-01-gpus-a", count=2),
            gpu_node_slice(DGX1, [gpu(k) for k in range(3, 8)], name="dgx-h100-01-gpus-b", count=2),
            dgx(DGX2)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=error("invalid resource pools were encountered"),
    notes="With ExactCount an invalid pool is skipped; only because nothing else can satisfy the claim the "
          "allocator reports the invalid pool.",
))

add(scenario(
    "error-duplicate-counter-set-invalid-pool",
    features=GATES_137, node=DGX_NODE, classes=MIG_CLASSES,
    slices=[rslice("dgx-h100-01-counters-a", NVIDIA, DGX1, None, node_name=DGX1, count=3,
                   shared_counters=[counter_set(0)]),
            rslice("dgx-h100-01-counters-b", NVIDIA, DGX1, None, node_name=DGX1, count=3,
                   shared_counters=[counter_set(0)]),
            rslice("dgx-h100-01-devices", NVIDIA, DGX1, mig_devices(0), node_name=DGX1, count=3)],
    claims=[claim("small", [exact("mig", "mig-1g.10gb")])],
    expect=error("invalid resource pools were encountered"),
    notes="Two slices of the pool define the counter set gpu-0-counters: the pool is invalid and, with no other "
          "pool to allocate from, that is reported as an error.",
))

add(dgx_err(
    "error-too-many-devices",
    claims=[claim("job", [exact("gpus", "gpu-h100", 33)])],
    expect=error("claim job, request gpus: adding 33 devices exceeds the claim limit of 32, with 0 already accounted for"),
    notes="More than 32 devices in one claim is an error even before the search (the node has only 8 anyway).",
))

add(dgx_err(
    "error-too-many-devices-across-requests",
    claims=[claim("job", [exact("a", "gpu-h100", 20), exact("b", "gpu-h100", 13)])],
    expect=error("claim job, request b: adding 13 devices exceeds the claim limit of 32, with 20 already accounted for"),
    notes="The limit applies to the sum over all requests of the claim.",
))

add(dgx_err(
    "error-all-mode-too-many-devices",
    slices=[gpu_node_slice(DGX1, [dev("vf-%d" % k, attributes={"productName": s("H100"), "type": s("gpu")})
                                        for k in range(40)])],
    claims=[claim("all-vfs", [exact("vfs", "gpu-h100", all_mode=True)])],
    expect=error("claim all-vfs, request vfs: adding 40 devices exceeds the claim limit of 32, with 0 already accounted for"),
    notes="allocationMode All over 40 matching devices exceeds the 32-result limit: an error, not 'unschedulable'.",
))

add(dgx_err(
    "error-constraint-fails-for-all-mode-device",
    claims=[claim("whole-node", [exact("gpus", "gpu-h100", all_mode=True)], constraints=[match(NVLINK)])],
    expect=error("claim whole-node, request gpus: cannot add device gpu.nvidia.com/dgx-h100-01/gpu-4 because a claim constraint would not be satisfied"),
    notes="All 8 GPUs are required but they span two NVLink domains; the first device that breaks the constraint "
          "(gpu-4) is named in the error.",
))

add(scenario(
    "error-node-selector-several-terms",
    features=GATES_137, node=ZONE_NODE, classes=[CLASS_H100],
    slices=[rslice("fabric-slice", NVIDIA, "fabric", [gpu(0, name="fgpu-0")], node_selector={"nodeSelectorTerms": [
        expr_term(("topology.kubernetes.io/zone", "In", ["zone-a"])),
        expr_term(("topology.kubernetes.io/zone", "In", ["zone-b"])),
    ]})],
    claims=[claim("inference", [exact("gpu", "gpu-h100")])],
    expect=error("create NodeSelector for claim inference: unsupported ResourceSlice.NodeSelector with 2 terms"),
    notes="A slice node selector with two terms (OR) matches this node and the device is allocated, but the result "
          "selector cannot be built from more than one term: an error after the search.",
))
