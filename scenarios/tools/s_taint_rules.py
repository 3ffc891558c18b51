"""taint-rule- scenarios: DeviceTaintRules as the scheduler's ResourceSlice tracker applies them."""
from lib import *  # noqa: F401,F403

S = []

EXAMPLE = "gpu.example.com"
NODE_NAME = "gpu-node-01"
NODE = node(NODE_NAME)
ANY = dclass("any-device")
MAINT = "example.com/maintenance"
XID = "gpu.nvidia.com/xid"
RULE_GATES = GATES_137 + ["DRADeviceTaintRules"]


def rule(name, taint_, **selector):
    """A DeviceTaintRule; selector=None for a rule without deviceSelector."""
    spec = {"taint": taint_}
    if selector.get("selector", True) is not None:
        spec["deviceSelector"] = {k: v for k, v in selector.items() if k in ("driver", "pool", "device")}
    return {"apiVersion": V1, "kind": "DeviceTaintRule", "metadata": {"name": name}, "spec": spec}


def fleet(example_gpu0_taints=None):
    """Pools in search order: gpu.example.com/rack-1, gpu.nvidia.com/rack-1, gpu.nvidia.com/rack-2, each with
    gpu-0 and gpu-1, so that every selector field alone matches devices of more than one pool."""
    gpu0 = dev("gpu-0", taints=example_gpu0_taints) if example_gpu0_taints else dev("gpu-0")
    return [
        rslice("example-rack-1", EXAMPLE, "rack-1", [gpu0, dev("gpu-1")], node_name=NODE_NAME),
        rslice("nvidia-rack-1", NVIDIA, "rack-1", [dev("gpu-0"), dev("gpu-1")], node_name=NODE_NAME),
        rslice("nvidia-rack-2", NVIDIA, "rack-2", [dev("gpu-0"), dev("gpu-1")], node_name=NODE_NAME),
    ]


def pick(*devices, tolerations=None):
    """Results of request "gpu" for (driver, pool, device) triples."""
    out = []
    for driver, pool, device in devices:
        extra = {"tolerations": tolerations} if tolerations else {}
        out.append(res("gpu", device, pool, driver=driver, **extra))
    return out


def add(name, rules, count, expect, notes, features=RULE_GATES, tolerations=None, slices=None):
    sc = scenario(name, features=features, node=NODE, classes=[ANY], slices=slices or fleet(),
                  claims=[claim("job", [exact("gpu", "any-device", count=count, tolerations=tolerations)])],
                  expect=expect, notes=notes, taint_rules=rules)
    S.append(sc)


ALL = [(EXAMPLE, "rack-1", "gpu-0"), (EXAMPLE, "rack-1", "gpu-1"), (NVIDIA, "rack-1", "gpu-0"),
       (NVIDIA, "rack-1", "gpu-1"), (NVIDIA, "rack-2", "gpu-0"), (NVIDIA, "rack-2", "gpu-1")]

add("taint-rule-without-selector-taints-no-device",
    [rule("no-selector", taint(MAINT, "true"), selector=None)], 6,
    allocated(alloc("job", pick(*ALL), local(NODE_NAME))),
    "A DeviceTaintRule without deviceSelector matches no device (resourceslice/tracker: 'No selector matches no "
    "devices'), so all six devices stay usable.")

add("taint-rule-empty-selector-taints-every-device",
    [rule("empty-selector", taint(MAINT, "true"))], 1, UNSCHEDULABLE,
    "An empty deviceSelector sets no field, so every device of every driver and pool matches and gets the "
    "NoSchedule taint; nothing tolerates it.")

add("taint-rule-driver-selector",
    [rule("example-driver", taint(MAINT, "true"), driver=EXAMPLE)], 1,
    allocated(alloc("job", pick((NVIDIA, "rack-1", "gpu-0")), local(NODE_NAME))),
    "The rule selects by driver: both gpu.example.com devices are tainted, the first gpu.nvidia.com device is "
    "used.")

add("taint-rule-pool-selector",
    [rule("rack-1", taint(MAINT, "true"), pool="rack-1")], 1,
    allocated(alloc("job", pick((NVIDIA, "rack-2", "gpu-0")), local(NODE_NAME))),
    "The rule selects by pool name only, so pool rack-1 of both drivers is tainted; pool rack-2 is used.")

add("taint-rule-device-selector",
    [rule("every-gpu-0", taint(MAINT, "true"), device="gpu-0")], 3,
    allocated(alloc("job", pick((EXAMPLE, "rack-1", "gpu-1"), (NVIDIA, "rack-1", "gpu-1"),
                                (NVIDIA, "rack-2", "gpu-1")), local(NODE_NAME))),
    "The rule selects by device name only: gpu-0 of every pool is tainted, the three gpu-1 devices are used.")

add("taint-rule-driver-pool-device-selector",
    [rule("one-device", taint(MAINT, "true"), driver=NVIDIA, pool="rack-1", device="gpu-1")], 5,
    allocated(alloc("job", pick(*[d for d in ALL if d != (NVIDIA, "rack-1", "gpu-1")]), local(NODE_NAME))),
    "With driver, pool and device set the rule taints exactly one device; the five others are allocated.")

add("taint-rule-gate-off-not-applied",
    [rule("empty-selector", taint(MAINT, "true"))], 1,
    allocated(alloc("job", pick(ALL[0]), local(NODE_NAME))),
    "With DRADeviceTaintRules off the scheduler's slice tracker does not apply DeviceTaintRules at all.",
    features=GATES_137)

add("taint-rule-device-taints-gate-off",
    [rule("empty-selector", taint(MAINT, "true"))], 1,
    allocated(alloc("job", pick(ALL[0]), local(NODE_NAME))),
    "The tracker applies the rule, but with DRADeviceTaints off the allocator does not look at taints.",
    features=[g for g in RULE_GATES if g != "DRADeviceTaints"])

add("taint-rule-none-effect-ignored",
    [rule("informational", taint(MAINT, "true", "None"))], 1,
    allocated(alloc("job", pick(ALL[0]), local(NODE_NAME))),
    "A rule's taint with effect None is informational: the tainted device is used without a toleration.")

TOL = [tol(MAINT, "Exists", effect="NoExecute")]
add("taint-rule-noexecute-tolerated",
    [rule("example-driver", taint(MAINT, "drain", "NoExecute"), driver=EXAMPLE)], 1,
    allocated(alloc("job", pick(ALL[0], tolerations=TOL), local(NODE_NAME))),
    "The request tolerates the rule's NoExecute taint, so the first device is used and the result carries the "
    "toleration.", tolerations=TOL)

XID_TOL = [tol(XID, "Exists", effect="NoSchedule")]
add("taint-rule-appends-to-device-taints",
    [rule("example-gpu-0", taint(MAINT, "true"), driver=EXAMPLE, device="gpu-0")], 1,
    allocated(alloc("job", pick(ALL[1], tolerations=XID_TOL), local(NODE_NAME))),
    "The rule's taint is added to the device's own taints: the toleration covers the published XID taint of "
    "gpu.example.com/rack-1/gpu-0 but not the rule's, so gpu-1 is used.",
    tolerations=XID_TOL, slices=fleet([taint(XID, "79")]))
