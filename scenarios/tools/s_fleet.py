"""example-, fleet- and fallback- scenarios."""
from lib import *  # noqa: F401,F403
from fixtures import *  # noqa: F401,F403

S = []


def add(sc):
    S.append(sc)


# ---------------------------------------------------------------------------------------------
add(scenario(
    "example-gpu-node",
    features=GATES_137, node=DGX_NODE,
    classes=[CLASS_H100],
    slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-1"),
    claims=[claim("llm-training", [
        exact("train", "gpu-h100", 4),
        first("inference",
              sub("four-h100", "gpu-h100", 4),
              sub("one-h100", "gpu-h100", 1)),
    ], constraints=[match(NVLINK, "train")])],
    expect=allocated(alloc("llm-training", [
        res("train", "gpu-4", DGX1), res("train", "gpu-5", DGX1),
        res("train", "gpu-6", DGX1), res("train", "gpu-7", DGX1),
        res("inference/one-h100", "gpu-0", DGX1),
    ], local(DGX1))),
    notes="8 x H100 in two NVLink domains (gpu-0..3, gpu-4..7), gpu-1 already in use. 'train' needs 4 GPUs "
          "with one nvlinkDomain: domain 0 has only 3 free GPUs, so the search backtracks to domain 1. "
          "'inference' prefers 4 more H100s (only gpu-0, gpu-2, gpu-3 are left) and falls back to one. "
          "Slices of dgx-h100-02 and dgx-a100-01 belong to other nodes and are never considered.",
))

add(scenario(
    "fleet-nvlink-domain-no-complete-domain",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-2", "gpu-6"),
    claims=[claim("train", [exact("gpus", "gpu-h100", 4)], constraints=[match(NVLINK)])],
    expect=UNSCHEDULABLE,
    notes="One busy GPU in each NVLink domain leaves 3+3 free GPUs: 6 free H100s, but no 4 share a domain. "
          "A constraint without a requests list applies to all requests. The identical free GPUs of "
          "dgx-h100-02 do not help: its slice is for another node.",
))

add(scenario(
    "fleet-same-numa-distinct-pcie-root",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-2", "gpu-3"),
    claims=[claim("pair", [exact("gpus", "gpu-h100", 2)],
                  constraints=[match(NUMA, "gpus"), distinct(PCIE, "gpus")])],
    expect=allocated(alloc("pair", [res("gpus", "gpu-4", DGX1), res("gpus", "gpu-6", DGX1)], local(DGX1))),
    notes="Two GPUs on one NUMA node but behind different PCIe root complexes (pairs of GPUs share a root: "
          "gpu-0/1 pci0000:00, gpu-2/3 pci0000:01, ...). NUMA node 0 only has gpu-0 and gpu-1 free, which share "
          "a root; on NUMA node 1, gpu-4 + gpu-5 share a root, so gpu-4 + gpu-6 is the first fit. "
          "distinctAttribute names the standard attribute resource.kubernetes.io/pcieRoot, published with its "
          "full name.",
))

add(scenario(
    "fleet-gpu-and-nic-same-pcie-root",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100, CLASS_NIC],
    slices=dgx_fleet() + [
        nic_slice(DGX1, [nic(k, "pci0000:%02x" % k) for k in range(4)]),
        nic_slice(DGX2, [nic(k, "pci0000:%02x" % k) for k in range(4)]),
    ],
    allocated=busy("dra.net", DGX1, "nic-0"),
    claims=[claim("gpu-with-nic", [exact("gpu", "gpu-h100"), exact("nic", "rdma-nic")],
                  constraints=[match(PCIE)])],
    expect=allocated(alloc("gpu-with-nic", [res("gpu", "gpu-2", DGX1), res("nic", "nic-1", DGX1, driver="dra.net")],
                           local(DGX1))),
    notes="GPUDirect RDMA: a GPU and an RDMA NIC of another driver (dra.net) on the same PCIe root, matched via "
          "resource.kubernetes.io/pcieRoot. nic-0 (root pci0000:00) is busy, so gpu-0 and gpu-1 find no NIC; the "
          "search backtracks over the GPU request and takes gpu-2 with nic-1 (pci0000:01).",
))

add(scenario(
    "fleet-other-node-slices-not-used",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, *["gpu-%d" % k for k in range(7)]),
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=UNSCHEDULABLE,
    notes="Only gpu-7 is free on dgx-h100-01. dgx-h100-02 has 8 free H100s but its slice has nodeName "
          "dgx-h100-02, so allocation for this node never sees them.",
))

add(scenario(
    "fleet-pool-split-across-slices-sorted-by-name",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[
        gpu_node_slice(DGX1, [gpu(k) for k in range(4, 8)], name="dgx-h100-01-gpus-b", count=2),
        gpu_node_slice(DGX1, [gpu(k) for k in range(0, 4)], name="dgx-h100-01-gpus-a", count=2),
        dgx(DGX2),
    ],
    claims=[claim("job", [exact("gpus", "gpu-h100", 2)])],
    expect=allocated(alloc("job", [res("gpus", "gpu-0", DGX1), res("gpus", "gpu-1", DGX1)], local(DGX1))),
    notes="The node's pool is published as two slices (resourceSliceCount 2), the one with gpu-4..7 listed first. "
          "Slices of a pool are searched in slice-name order, so dgx-h100-01-gpus-a (gpu-0..3) comes first.",
))

add(scenario(
    "fleet-backtracking-across-claims",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-5"),
    claims=[
        claim("small-job", [exact("gpus", "gpu-h100", 2)], constraints=[match(NVLINK)]),
        claim("large-job", [exact("gpus", "gpu-h100", 4)], constraints=[match(NVLINK)]),
    ],
    expect=allocated(
        alloc("small-job", [res("gpus", "gpu-4", DGX1), res("gpus", "gpu-6", DGX1)], local(DGX1)),
        alloc("large-job", [res("gpus", "gpu-0", DGX1), res("gpus", "gpu-1", DGX1),
                            res("gpus", "gpu-2", DGX1), res("gpus", "gpu-3", DGX1)], local(DGX1)),
    ),
    notes="A pod with two claims, each wanting GPUs of one NVLink domain. gpu-5 is busy, so domain 1 has only 3 "
          "free GPUs and large-job needs all of domain 0. Every choice for small-job inside domain 0 fails "
          "large-job; the search backtracks into the first claim until small-job sits in domain 1 (gpu-4, gpu-6).",
))

add(scenario(
    "fleet-cel-compute-capability-semver",
    features=GATES_137, node=MIXED_NODE,
    classes=[dclass("gpu-fp8", WHOLE_GPU_SEL,
                    'device.attributes["gpu.nvidia.com"].cudaComputeCapability.compareTo(semver("8.9.0")) >= 0')],
    slices=[mixed_slice(), mixed_slice("gpu-mixed-02")],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("fp8-inference", [exact("gpu", "gpu-fp8")])],
    expect=allocated(alloc("fp8-inference", [res("gpu", "gpu-4", MIXED1)], local(MIXED1))),
    notes="Class with two selectors; the second compares the version attribute cudaComputeCapability with "
          "semver(\"8.9.0\"). The H100s (9.0) are busy, the A100s (8.0) are too old, the first L4 (8.9) fits.",
))

add(scenario(
    "fleet-cel-memory-quantity",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_GPU],
    slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("big-model", [exact("gpu", "gpu.nvidia.com", 2, selectors=[
        'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0'])])],
    expect=allocated(alloc("big-model", [res("gpu", "gpu-2", MIXED1), res("gpu", "gpu-3", MIXED1)], local(MIXED1))),
    notes="Claim selector on the memory capacity (quantity comparison). H100s busy, L4s have 24Gi, so the two "
          "80Gi A100s are chosen.",
))

add(scenario(
    "fleet-driver-version-too-old",
    features=GATES_137, node=DGX_NODE,
    classes=[dclass("gpu-h100-new-driver", H100_SEL,
                    'device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0"))')],
    slices=[dgx(DGX1, driver_version="535.161.8"), dgx(DGX2)],
    claims=[claim("job", [exact("gpu", "gpu-h100-new-driver")])],
    expect=UNSCHEDULABLE,
    notes="This node still runs driver 535.161.8 (a version attribute); the class wants > 550.0.0. "
          "dgx-h100-02 has 550.54.15 but is another node.",
))

add(scenario(
    "fleet-distinct-pcie-root-four-gpus",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    claims=[claim("spread", [exact("gpus", "gpu-h100", 4)], constraints=[distinct(PCIE)])],
    expect=allocated(alloc("spread", [res("gpus", "gpu-%d" % k, DGX1) for k in (0, 2, 4, 6)], local(DGX1))),
    notes="distinctAttribute: four GPUs, each behind a different PCIe root. Pairs share a root, so first fit "
          "takes every second GPU.",
))

add(scenario(
    "fleet-distinct-pcie-root-five-gpus",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    claims=[claim("spread", [exact("gpus", "gpu-h100", 5)], constraints=[distinct(PCIE)])],
    expect=UNSCHEDULABLE,
    notes="Only four distinct PCIe roots exist among the 8 GPUs, so five GPUs with distinct roots are impossible; "
          "the combination search exhausts all candidates and reports no solution (not an error).",
))

add(scenario(
    "fleet-numa-match-across-two-requests",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-1", "gpu-2", "gpu-3"),
    claims=[claim("numa-local", [exact("gpus", "gpu-h100", 2), exact("extra", "gpu-h100", 1)],
                  constraints=[match(NUMA, "gpus", "extra")])],
    expect=allocated(alloc("numa-local", [res("gpus", "gpu-4", DGX1), res("gpus", "gpu-5", DGX1),
                                          res("extra", "gpu-6", DGX1)], local(DGX1))),
    notes="A matchAttribute constraint over two requests: all three GPUs on one NUMA node. NUMA node 0 only has "
          "gpu-0 free, so everything comes from NUMA node 1.",
))

add(scenario(
    "fleet-all-gpus-of-node",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    claims=[claim("whole-node", [exact("gpus", "gpu-h100", all_mode=True)])],
    expect=allocated(alloc("whole-node", [res("gpus", "gpu-%d" % k, DGX1) for k in range(8)], local(DGX1))),
    notes="allocationMode All takes the 8 H100s of this node only; the H100s of dgx-h100-02 are in a slice for "
          "another node and are not part of 'all'.",
))

add(scenario(
    "fleet-match-attribute-skips-devices-without-attribute",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_GPU],
    slices=[gpu_node_slice(MIXED1, [
        dev("gpu-0", attributes={"type": s("gpu"), "productName": s("L4"), PCIE: s("pci0000:00")},
            capacity={"memory": {"value": "24Gi"}}),
        dev("gpu-1", attributes={"type": s("gpu"), "productName": s("L4"), PCIE: s("pci0000:01")},
            capacity={"memory": {"value": "24Gi"}}),
        gpu(2, "A100", nvlink=0),
        gpu(3, "A100", nvlink=0),
    ])],
    claims=[claim("nvlinked-pair", [exact("gpus", "gpu.nvidia.com", 2)], constraints=[match(NVLINK)])],
    expect=allocated(alloc("nvlinked-pair", [res("gpus", "gpu-2", MIXED1), res("gpus", "gpu-3", MIXED1)],
                           local(MIXED1))),
    notes="The PCIe-only L4 cards publish no nvlinkDomain attribute. A device without the constrained attribute "
          "never satisfies matchAttribute, even as the first device, so the pair comes from the A100s.",
))

# ---------------------------------------------------------------------------------------------
FALLBACK_CLASSES = [CLASS_H100, CLASS_A100, CLASS_L4]


def chain(count=1):
    return first("gpu", sub("h100", "gpu-h100", count), sub("a100", "gpu-a100", count), sub("l4", "gpu-l4", count))


add(scenario(
    "fallback-h100-first-choice",
    features=GATES_137, node=MIXED_NODE, classes=FALLBACK_CLASSES, slices=[mixed_slice(), mixed_slice("gpu-mixed-02")],
    claims=[claim("inference", [chain()])],
    expect=allocated(alloc("inference", [res("gpu/h100", "gpu-0", MIXED1)], local(MIXED1))),
    notes="firstAvailable H100 -> A100 -> L4: with everything free the first subrequest wins; the result names "
          "<request>/<subrequest>.",
))

add(scenario(
    "fallback-h100-busy-takes-a100",
    features=GATES_137, node=MIXED_NODE, classes=FALLBACK_CLASSES, slices=[mixed_slice(), mixed_slice("gpu-mixed-02")],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-1"),
    claims=[claim("inference", [chain()])],
    expect=allocated(alloc("inference", [res("gpu/a100", "gpu-2", MIXED1)], local(MIXED1))),
    notes="Both H100s of this node are in use (the free H100s of gpu-mixed-02 do not count), so the A100 "
          "subrequest is used.",
))

add(scenario(
    "fallback-count-two-falls-to-l4",
    features=GATES_137, node=MIXED_NODE, classes=FALLBACK_CLASSES, slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-0", "gpu-2"),
    claims=[claim("inference", [chain(2)])],
    expect=allocated(alloc("inference", [res("gpu/l4", "gpu-4", MIXED1), res("gpu/l4", "gpu-5", MIXED1)],
                           local(MIXED1))),
    notes="Every subrequest wants 2 GPUs. One H100 and one A100 are busy, so only the L4 subrequest can be "
          "satisfied; both results carry gpu/l4.",
))

DGX_CHAIN = first("gpus", sub("four", "gpu-h100", 4), sub("two", "gpu-h100", 2))

add(scenario(
    "fallback-constraint-on-parent-applies-to-every-subrequest",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-1", "gpu-5"),
    claims=[claim("train", [DGX_CHAIN], constraints=[match(NVLINK, "gpus")])],
    expect=allocated(alloc("train", [res("gpus/two", "gpu-0", DGX1), res("gpus/two", "gpu-2", DGX1)], local(DGX1))),
    notes="The constraint names the parent request 'gpus', so it applies to whichever subrequest is tried. Each "
          "NVLink domain has only 3 free GPUs, 'four' fails, 'two' gets gpu-0 + gpu-2 (domain 0).",
))

add(scenario(
    "fallback-constraint-on-other-subrequest-does-not-apply",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100], slices=dgx_fleet(),
    allocated=busy(NVIDIA, DGX1, "gpu-1", "gpu-5"),
    claims=[claim("train", [DGX_CHAIN], constraints=[match(NVLINK, "gpus/two")])],
    expect=allocated(alloc("train", [res("gpus/four", "gpu-%d" % k, DGX1) for k in (0, 2, 3, 4)], local(DGX1))),
    notes="Same input as fallback-constraint-on-parent-applies-to-every-subrequest, but the constraint names only "
          "the subrequest gpus/two. 'four' is unconstrained and spans both NVLink domains.",
))


def neuron_node():
    return gpu_node_slice("trn-node-01", [dev("core-%d" % k, attributes={"type": s("neuroncore"), "index": i(k)})
                                          for k in range(40)], driver="neuron.amazonaws.com")


NEURON_NODE = node("trn-node-01", **{"topology.kubernetes.io/zone": "zone-b"})
CLASS_NEURON = dclass("neuroncore", 'device.driver == "neuron.amazonaws.com"')

add(scenario(
    "fallback-result-limit-picks-smaller-subrequest",
    features=GATES_137, node=NEURON_NODE, classes=[CLASS_NEURON], slices=[neuron_node()],
    claims=[claim("training", [
        exact("workers", "neuroncore", 30),
        first("extra", sub("big", "neuroncore", 4), sub("small", "neuroncore", 2)),
    ])],
    expect=allocated(alloc("training",
                           [res("workers", "core-%d" % k, "trn-node-01", driver="neuron.amazonaws.com") for k in range(30)]
                           + [res("extra/small", "core-%d" % k, "trn-node-01", driver="neuron.amazonaws.com")
                              for k in (30, 31)],
                           local("trn-node-01"))),
    notes="A claim may hold at most 32 results. The up-front check uses the smallest subrequest (30 + 2 = 32 is "
          "fine). 'big' would need 34 results; the search treats that as 'try the next subrequest', and 'small' "
          "fits exactly. 40 devices exist, so only the limit rules out 'big'.",
))

add(scenario(
    "fallback-result-limit-every-subrequest-too-big",
    features=GATES_137, node=NEURON_NODE, classes=[CLASS_NEURON], slices=[neuron_node()],
    claims=[claim("training", [
        exact("workers", "neuroncore", 30),
        first("extra", sub("big", "neuroncore", 4), sub("small", "neuroncore", 3)),
    ])],
    expect=error("claim training, request extra: adding 3 devices exceeds the claim limit of 32, with 30 already accounted for"),
    notes="Even the smallest subrequest (3) pushes the claim to 33 results. This is detected before the search "
          "and reported as an error naming the parent request.",
))

add(scenario(
    "fallback-backtracking-across-claims",
    features=GATES_137, node=MIXED_NODE, classes=FALLBACK_CLASSES, slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-1"),
    claims=[
        claim("flexible", [first("gpu", sub("h100", "gpu-h100"), sub("a100", "gpu-a100"))]),
        claim("h100-only", [exact("gpu", "gpu-h100")]),
    ],
    expect=allocated(
        alloc("flexible", [res("gpu/a100", "gpu-2", MIXED1)], local(MIXED1)),
        alloc("h100-only", [res("gpu", "gpu-0", MIXED1)], local(MIXED1)),
    ),
    notes="One H100 is free. The first claim takes it, the second claim then fails; backtracking moves the first "
          "claim to its A100 subrequest so that both claims fit.",
))

add(scenario(
    "fallback-all-mode-subrequest-with-busy-device",
    features=GATES_137, node=MIXED_NODE, classes=FALLBACK_CLASSES, slices=[mixed_slice()],
    allocated=busy(NVIDIA, MIXED1, "gpu-1"),
    claims=[claim("benchmark", [first("gpus", sub("all-h100", "gpu-h100", all_mode=True),
                                      sub("one-a100", "gpu-a100"))])],
    expect=allocated(alloc("benchmark", [res("gpus/one-a100", "gpu-2", MIXED1)], local(MIXED1))),
    notes="'All' H100s of the node are gpu-0 and gpu-1 (in-use devices still belong to 'all'); gpu-1 is busy, so "
          "the All subrequest cannot be satisfied, which is not an error: the next subrequest is tried.",
))
