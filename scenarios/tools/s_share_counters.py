"""mig-share- scenarios: a share of a multi-allocatable device that consumes counters, left by an earlier allocation
without consumedCapacity."""
from lib import *  # noqa: F401,F403

S = []

NODE_NAME = "gpu-node-01"
NODE = node(NODE_NAME)
SHARE_ID = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
CLASS_SHARED = dclass("gpu-time-sliced", 'device.attributes["gpu.nvidia.com"].profile == "time-sliced"')
CLASS_3G = dclass("mig-3g.40gb", 'device.attributes["gpu.nvidia.com"].profile == "3g.40gb"')


def consumes(compute, memory):
    return [{"counterSet": "gpu-0-counters",
             "counters": {"computeSlices": {"value": str(compute)}, "memory": {"value": memory}}}]


def slices():
    """GPU 0 as one time-sliced device that many claims may share (it draws the whole GPU's counters) or as 3g.40gb
    partitions."""
    return [
        rslice("gpu-node-01-counters", NVIDIA, NODE_NAME, None, node_name=NODE_NAME, count=2, shared_counters=[
            {"name": "gpu-0-counters", "counters": {"computeSlices": {"value": "7"}, "memory": {"value": "80Gi"}}}]),
        rslice("gpu-node-01-devices", NVIDIA, NODE_NAME, [
            dev("gpu-0-time-sliced", attributes={"profile": s("time-sliced")}, allowMultipleAllocations=True,
                consumesCounters=consumes(7, "80Gi")),
            dev("gpu-0-mig-3g40gb-0", attributes={"profile": s("3g.40gb")}, consumesCounters=consumes(3, "40Gi")),
            dev("gpu-0-mig-3g40gb-1", attributes={"profile": s("3g.40gb")}, consumesCounters=consumes(3, "40Gi")),
        ], node_name=NODE_NAME, count=2),
    ]


EARLIER = {"apiVersion": V1, "kind": "ResourceClaim", "metadata": {"name": "earlier", "namespace": "default"},
           "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
               "deviceClassName": "gpu-time-sliced", "allocationMode": "ExactCount", "count": 1}}]}},
           "status": {"allocation": {"devices": {"results": [
               {"request": "gpu", "driver": NVIDIA, "pool": NODE_NAME, "device": "gpu-0-time-sliced",
                "shareID": SHARE_ID}]}}}}


def add(name, allocated_, cls, expect, notes):
    S.append(scenario(name, features=GATES_137, node=NODE, classes=[CLASS_SHARED, CLASS_3G], slices=slices(),
                      allocated=allocated_, claims=[claim("job", [exact("gpu", cls)])], expect=expect, notes=notes))


add("mig-share-without-consumed-capacity-holds-counters", [EARLIER], "mig-3g.40gb", UNSCHEDULABLE,
    "The earlier claim's result has a shareID and no consumedCapacity. The scheduler plugin still records the share "
    "(AllocatedSharedDeviceIDs), so the time-sliced device counts as allocated and its counters (the whole GPU) are "
    "consumed: no 3g.40gb partition fits.")

add("mig-share-reference-without-consumed-capacity-holds-counters",
    [{"driver": NVIDIA, "pool": NODE_NAME, "device": "gpu-0-time-sliced", "shared": True}], "mig-3g.40gb",
    UNSCHEDULABLE,
    "The same as a device reference: `shared: true` without consumedCapacity is one share that consumed nothing, and "
    "it still holds the device's counters.")

add("mig-share-second-share-skips-counter-check", [EARLIER], "gpu-time-sliced",
    allocated(alloc("job", [res("gpu", "gpu-0-time-sliced", NODE_NAME, shareID="*")], local(NODE_NAME))),
    "Another share of a multi-allocatable device that is already in use does not charge its counters again, so it "
    "fits although the counter set is exhausted.")
