"""taint- and mig- scenarios."""
from lib import *  # noqa: F401,F403
from fixtures import *  # noqa: F401,F403

S = []


def add(sc):
    S.append(sc)


XID = "gpu.nvidia.com/xid"
MAINT = "example.com/maintenance"


def dgx_with(taints_by_index, node_name=DGX1):
    return gpu_node_slice(node_name, [gpu(k, taints=taints_by_index.get(k)) for k in range(8)])


# ---------------------------------------------------------------------------------------------
add(scenario(
    "taint-noschedule-skips-device",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(XID, "79", "NoSchedule")]}), dgx(DGX2)],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "gpu-1", DGX1)], local(DGX1))),
    notes="gpu-0 carries a NoSchedule taint (XID 79, 'fallen off the bus'); without a toleration the next GPU is used.",
))

add(scenario(
    "taint-exists-operator-tolerates-any-value",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({k: [taint(MAINT, "window-%d" % k, "NoSchedule")] for k in range(8)})],
    claims=[claim("maintenance-test", [exact("gpu", "gpu-h100", tolerations=[
        tol(MAINT, "Exists", effect="NoSchedule")])])],
    expect=allocated(alloc("maintenance-test", [res("gpu", "gpu-0", DGX1, tolerations=[
        tol(MAINT, "Exists", effect="NoSchedule")])], local(DGX1))),
    notes="Operator Exists matches the key whatever the value. The result copies the request's tolerations.",
))

add(scenario(
    "taint-none-effect-is-ignored",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({k: [taint("gpu.nvidia.com/ecc-corrected", "high", "None")] for k in range(8)})],
    claims=[claim("job", [exact("gpu", "gpu-h100")])],
    expect=allocated(alloc("job", [res("gpu", "gpu-0", DGX1)], local(DGX1))),
    notes="Effect None is informational: it never prevents allocation, no toleration needed, and the result has "
          "no tolerations.",
))

add(scenario(
    "taint-empty-key-exists-tolerates-everything",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(XID, "48", "NoExecute"), taint(MAINT, "true", "NoSchedule")]})],
    allocated=busy(NVIDIA, DGX1, *["gpu-%d" % k for k in range(1, 8)]),
    claims=[claim("debug", [exact("gpu", "gpu-h100", tolerations=[tol(operator="Exists")])])],
    expect=allocated(alloc("debug", [res("gpu", "gpu-0", DGX1, tolerations=[tol(operator="Exists")])], local(DGX1))),
    notes="A toleration with empty key, operator Exists and no effect tolerates every taint: both the NoExecute "
          "and the NoSchedule taint of the only free GPU are tolerated.",
))

TAINTED_ONLY_FREE = dict(
    node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(XID, "79", "NoSchedule")]})],
    allocated=busy(NVIDIA, DGX1, *["gpu-%d" % k for k in range(1, 8)]),
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[tol(XID, "Equal", "48", "NoSchedule")])])],
)

add(scenario(
    "taint-equal-value-mismatch",
    features=GATES_137, expect=UNSCHEDULABLE,
    notes="The only free GPU has xid=79:NoSchedule; the toleration (Equal) is for value 48, so it does not apply.",
    **TAINTED_ONLY_FREE,
))

add(scenario(
    "taint-gate-off-ignores-taints",
    features=gates_without("DRADeviceTaints"),
    expect=allocated(alloc("job", [res("gpu", "gpu-0", DGX1, tolerations=[tol(XID, "Equal", "48", "NoSchedule")])],
                           local(DGX1))),
    notes="Same input as taint-equal-value-mismatch with DRADeviceTaints off: taints are not checked at all. The "
          "request's tolerations are still copied into the result.",
    **TAINTED_ONLY_FREE,
))

add(scenario(
    "taint-effect-mismatch-not-tolerated",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(XID, "79", "NoExecute")]})],
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[tol(XID, "Exists", effect="NoSchedule")])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-1", DGX1, tolerations=[tol(XID, "Exists", effect="NoSchedule")])],
                           local(DGX1))),
    notes="The toleration names effect NoSchedule; gpu-0's taint is NoExecute, so it is not tolerated and gpu-1 "
          "(untainted) is used. The toleration is still copied to the result.",
))

add(scenario(
    "taint-toleration-without-effect-matches-noexecute",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(XID, "79", "NoExecute")]})],
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[tol(XID, "Exists")])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-0", DGX1, tolerations=[tol(XID, "Exists")])], local(DGX1))),
    notes="A toleration without effect matches all effects, so the NoExecute taint of gpu-0 is tolerated.",
))

add(scenario(
    "taint-two-taints-one-tolerated",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({0: [taint(MAINT, "true", "NoSchedule"), taint(XID, "79", "NoSchedule")]})],
    claims=[claim("job", [exact("gpu", "gpu-h100", tolerations=[tol(MAINT, "Equal", "true", "NoSchedule")])])],
    expect=allocated(alloc("job", [res("gpu", "gpu-1", DGX1, tolerations=[tol(MAINT, "Equal", "true", "NoSchedule")])],
                           local(DGX1))),
    notes="Every NoSchedule/NoExecute taint must be tolerated; gpu-0's XID taint is not, so gpu-1 is used.",
))

add(scenario(
    "taint-all-mode-with-toleration",
    features=GATES_137, node=MIXED_NODE, classes=[CLASS_H100],
    slices=[gpu_node_slice(MIXED1, [gpu(0, taints=[taint(MAINT, "true", "NoSchedule")]),
                                    gpu(1, taints=[taint(MAINT, "true", "NoExecute")]),
                                    gpu(2, "L4")])],
    claims=[claim("drain-check", [exact("gpus", "gpu-h100", all_mode=True, tolerations=[tol(MAINT, "Exists")])])],
    expect=allocated(alloc("drain-check", [
        res("gpus", "gpu-0", MIXED1, tolerations=[tol(MAINT, "Exists")]),
        res("gpus", "gpu-1", MIXED1, tolerations=[tol(MAINT, "Exists")]),
    ], local(MIXED1))),
    notes="allocationMode All over both (tainted) H100s; the toleration covers both effects. Each result carries "
          "the tolerations.",
))

add(scenario(
    "taint-fallback-to-tolerating-subrequest",
    features=GATES_137, node=DGX_NODE, classes=[CLASS_H100],
    slices=[dgx_with({k: [taint(MAINT, "true", "NoSchedule")] for k in range(8)})],
    claims=[claim("job", [first("gpu",
                                sub("strict", "gpu-h100"),
                                sub("tolerant", "gpu-h100", tolerations=[tol(MAINT, "Exists", effect="NoSchedule")]))])],
    expect=allocated(alloc("job", [res("gpu/tolerant", "gpu-0", DGX1, tolerations=[
        tol(MAINT, "Exists", effect="NoSchedule")])], local(DGX1))),
    notes="Tolerations are per subrequest: every GPU is tainted, 'strict' finds nothing, 'tolerant' gets gpu-0 and "
          "its result carries the subrequest's tolerations.",
))

# ---------------------------------------------------------------------------------------------
MIG_NODE = DGX_NODE


def mig_scenario(name, claims, expect, notes, allocated=None, gpus=2, features=GATES_137, slices=None, **kw):
    return scenario(name, features=features, node=MIG_NODE, classes=MIG_CLASSES,
                    slices=slices or mig_slices(gpus=gpus) + mig_slices(DGX2, gpus=gpus),
                    claims=claims, expect=expect, notes=notes, allocated=allocated, **kw)


add(mig_scenario(
    "mig-full-gpu-blocked-by-allocated-partition",
    allocated=busy(NVIDIA, DGX1, "gpu-0-mig-1g10gb-0"),
    claims=[claim("full", [exact("gpu", "gpu-h100-full")])],
    expect=allocated(alloc("full", [res("gpu", "gpu-1", DGX1)], local(DGX1))),
    notes="Partitionable H100s: the whole GPU consumes all 7 compute slices and 80Gi of its counter set. A 1g.10gb "
          "partition of gpu-0 is already allocated, so gpu-0 lacks one compute slice; gpu-1 is used. Counters live in "
          "a separate slice of the same pool (resourceSliceCount 2).",
))

add(mig_scenario(
    "mig-1g-four-fit-after-3g",
    gpus=1, allocated=busy(NVIDIA, DGX1, "gpu-0-mig-3g40gb-0"),
    claims=[claim("small", [exact("mig", "mig-1g.10gb", 4)])],
    expect=allocated(alloc("small", [res("mig", "gpu-0-mig-1g10gb-%d" % k, DGX1) for k in range(4)], local(DGX1))),
    notes="After a 3g.40gb partition (3 compute, 40Gi) 4 compute slices and 40Gi remain: exactly four 1g.10gb.",
))

add(mig_scenario(
    "mig-1g-five-do-not-fit-after-3g",
    gpus=1, allocated=busy(NVIDIA, DGX1, "gpu-0-mig-3g40gb-0"),
    claims=[claim("small", [exact("mig", "mig-1g.10gb", 5)])],
    expect=UNSCHEDULABLE,
    notes="As mig-1g-four-fit-after-3g, but five 1g.10gb need 5 compute slices; only 4 are left.",
))

add(mig_scenario(
    "mig-fallback-full-then-3g-then-1g",
    gpus=1, allocated=busy(NVIDIA, DGX1, "gpu-0-mig-1g10gb-0"),
    claims=[claim("flex", [first("gpu", sub("full", "gpu-h100-full"), sub("half", "mig-3g.40gb"),
                                 sub("slice", "mig-1g.10gb"))])],
    expect=allocated(alloc("flex", [res("gpu/half", "gpu-0-mig-3g40gb-0", DGX1)], local(DGX1))),
    notes="Prioritized list over partition sizes: the whole GPU is blocked by an allocated 1g.10gb, the 3g.40gb "
          "still fits (1+3 compute, 10+40Gi).",
))

add(mig_scenario(
    "mig-memory-exhausted-before-compute",
    gpus=1,
    claims=[claim("mixed", [exact("half", "mig-3g.40gb", 2), exact("slice", "mig-1g.10gb", 1)])],
    expect=UNSCHEDULABLE,
    notes="Two 3g.40gb use 6 of 7 compute slices but all 80Gi of memory, so a further 1g.10gb fails on the memory "
          "counter although a compute slice is left.",
))

add(mig_scenario(
    "mig-1g-spill-to-second-gpu",
    claims=[claim("many", [exact("mig", "mig-1g.10gb", 8)])],
    expect=allocated(alloc("many", [res("mig", "gpu-0-mig-1g10gb-%d" % k, DGX1) for k in range(7)]
                           + [res("mig", "gpu-1-mig-1g10gb-0", DGX1)], local(DGX1))),
    notes="Eight 1g.10gb partitions: gpu-0 offers seven, the eighth comes from gpu-1's own counter set.",
))

add(mig_scenario(
    "mig-all-mode-blocked-by-counters",
    gpus=1, allocated=busy(NVIDIA, DGX1, "gpu-0-mig-3g40gb-0"),
    claims=[claim("all-slices", [exact("mig", "mig-1g.10gb", all_mode=True)])],
    expect=UNSCHEDULABLE,
    notes="'All' 1g.10gb devices are the seven partitions; after the allocated 3g.40gb only four fit the counters. "
          "Running out of counters is not a constraint violation, so this is 'no solution', not an error.",
))

add(mig_scenario(
    "mig-partitionable-gate-off",
    gpus=1, features=gates_without("DRAPartitionableDevices"),
    claims=[claim("small", [exact("mig", "mig-1g.10gb")])],
    expect=UNSCHEDULABLE,
    notes="With DRAPartitionableDevices off, slices with sharedCounters are dropped and devices that consume "
          "counters are never allocated, so none of the partitions is usable.",
))

add(mig_scenario(
    "mig-distinct-parent-gpu",
    claims=[claim("spread", [exact("mig", "mig-1g.10gb", 2)],
                  constraints=[distinct("gpu.nvidia.com/parentUUID")])],
    expect=allocated(alloc("spread", [res("mig", "gpu-0-mig-1g10gb-0", DGX1), res("mig", "gpu-1-mig-1g10gb-0", DGX1)],
                           local(DGX1))),
    notes="Two 1g.10gb partitions on different physical GPUs (distinct parentUUID).",
))

PRIOR_FULL = {
    "apiVersion": V1, "kind": "ResourceClaim",
    "metadata": {"name": "earlier-training", "namespace": "ml"},
    "spec": {"devices": {"requests": [exact("gpu", "gpu-h100-full")]}},
    "status": {"allocation": {
        "devices": {"results": [res("gpu", "gpu-0", DGX1)]},
        "nodeSelector": local(DGX1)}},
}

add(mig_scenario(
    "mig-allocated-claim-blocks-partitions",
    allocated=[PRIOR_FULL],
    claims=[claim("small", [exact("mig", "mig-1g.10gb")])],
    expect=allocated(alloc("small", [res("mig", "gpu-1-mig-1g10gb-0", DGX1)], local(DGX1))),
    notes="An earlier claim (given with its status.allocation) holds the whole gpu-0, which consumed gpu-0's "
          "counters completely; the 1g.10gb comes from gpu-1.",
))

add(mig_scenario(
    "mig-admin-access-still-needs-counters",
    gpus=1, allocated=busy(NVIDIA, DGX1, "gpu-0-mig-1g10gb-0"),
    claims=[claim("inspect", [exact("gpu", "gpu-h100-full", admin=True)])],
    expect=UNSCHEDULABLE,
    notes="Admin access ignores that a device is in use, but not the shared counters: the whole GPU still needs 7 "
          "free compute slices and one is consumed by the allocated partition.",
))

add(mig_scenario(
    "mig-counter-slice-missing-pool-incomplete",
    gpus=1, slices=mig_slices(gpus=1, with_counters=False),
    claims=[claim("small", [exact("mig", "mig-1g.10gb")])],
    expect=UNSCHEDULABLE,
    notes="The pool declares 2 slices but the counter slice has not been published (yet): the pool is incomplete "
          "and ExactCount requests silently skip it.",
))

add(mig_scenario(
    "mig-two-3g-on-one-gpu-full-on-other",
    claims=[claim("mixed", [exact("half", "mig-3g.40gb", 2), exact("full", "gpu-h100-full")])],
    expect=allocated(alloc("mixed", [res("half", "gpu-0-mig-3g40gb-0", DGX1), res("half", "gpu-0-mig-3g40gb-1", DGX1),
                                     res("full", "gpu-1", DGX1)], local(DGX1))),
    notes="Counters consumed earlier in the same claim count: after two 3g.40gb on gpu-0, the whole-GPU request "
          "cannot use gpu-0 and takes gpu-1.",
))
