"""Shared fleets, device classes and nodes used by several scenarios."""
from lib import *  # noqa: F401,F403
from lib import NVIDIA, PCIE, dclass, dgx, gpu, gpu_node_slice, node, rslice, dev, s, i, b, ver, opaque

H100_SEL = 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "H100"'
A100_SEL = 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "A100"'
L4_SEL = 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "L4"'
WHOLE_GPU_SEL = 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu"'

CLASS_H100 = dclass("gpu-h100", H100_SEL)
CLASS_A100 = dclass("gpu-a100", A100_SEL)
CLASS_L4 = dclass("gpu-l4", L4_SEL)
CLASS_GPU = dclass("gpu.nvidia.com", WHOLE_GPU_SEL)
CLASS_NIC = dclass("rdma-nic", 'device.driver == "dra.net" && device.attributes["dra.net"].rdma')

NVLINK = "gpu.nvidia.com/nvlinkDomain"
NUMA = "gpu.nvidia.com/numaNode"

DGX1 = "dgx-h100-01"
DGX2 = "dgx-h100-02"
DGX_NODE = node(DGX1, **{"topology.kubernetes.io/zone": "zone-a", "nvidia.com/gpu.product": "H100"})


def dgx_fleet():
    """This node's 8 H100s plus the slices the driver published for two other nodes."""
    return [
        dgx(DGX1),
        dgx(DGX2),
        dgx("dgx-a100-01", "A100"),
    ]


MIXED1 = "gpu-mixed-01"
MIXED_NODE = node(MIXED1, **{"topology.kubernetes.io/zone": "zone-a"})


def mixed_slice(node_name=MIXED1):
    """2 x H100 (gpu-0, gpu-1), 2 x A100 (gpu-2, gpu-3), 2 x L4 (gpu-4, gpu-5, PCIe only)."""
    return gpu_node_slice(node_name, [
        gpu(0, "H100", nvlink=0, numa=0),
        gpu(1, "H100", nvlink=0, numa=0),
        gpu(2, "A100", nvlink=1, numa=0),
        gpu(3, "A100", nvlink=1, numa=1),
        gpu(4, "L4", nvlink=2, numa=1),
        gpu(5, "L4", nvlink=3, numa=1),
    ])


def nic(index, pcie, rdma=True, name=None):
    return dev(name or "nic-%d" % index,
               attributes={"ifName": s("ens%df0np0" % (index + 1)), "rdma": b(rdma), PCIE: s(pcie)})


def nic_slice(node_name, nics, name=None, **kw):
    return rslice(name or "%s-nics" % node_name, "dra.net", node_name, nics, node_name=node_name, **kw)


# --- partitionable (MIG-style) H100 --------------------------------------------------------------

CLASS_MIG_1G = dclass("mig-1g.10gb", 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].profile == "1g.10gb"')
CLASS_MIG_3G = dclass("mig-3g.40gb", 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].profile == "3g.40gb"')
CLASS_FULL = dclass("gpu-h100-full", 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].profile == "7g.80gb"')


def _consumes(g, compute, memory):
    return [{"counterSet": "gpu-%d-counters" % g,
             "counters": {"computeSlices": {"value": str(compute)}, "memory": {"value": memory}}}]


def mig_devices(g):
    """Whole GPU g, its two 3g.40gb and seven 1g.10gb partitions, all drawing on gpu-<g>-counters."""
    def part(name, profile, compute, memory):
        return dev(name,
                   attributes={"type": s("gpu" if profile == "7g.80gb" else "mig"), "productName": s("H100"),
                               "profile": s(profile), "parentIndex": i(g),
                               "parentUUID": s("GPU-h100-%04d" % g)},
                   capacity={"memory": {"value": memory}},
                   consumesCounters=_consumes(g, compute, memory))
    out = [part("gpu-%d" % g, "7g.80gb", 7, "80Gi")]
    out += [part("gpu-%d-mig-3g40gb-%d" % (g, k), "3g.40gb", 3, "40Gi") for k in range(2)]
    out += [part("gpu-%d-mig-1g10gb-%d" % (g, k), "1g.10gb", 1, "10Gi") for k in range(7)]
    return out


def counter_set(g):
    return {"name": "gpu-%d-counters" % g,
            "counters": {"computeSlices": {"value": "7"}, "memory": {"value": "80Gi"}}}


def mig_slices(node_name=DGX1, gpus=2, with_counters=True, count=2):
    out = []
    if with_counters:
        out.append(rslice("%s-counters" % node_name, NVIDIA, node_name, None, node_name=node_name, count=count,
                          shared_counters=[counter_set(g) for g in range(gpus)]))
    devices = []
    for g in range(gpus):
        devices += mig_devices(g)
    out.append(rslice("%s-devices" % node_name, NVIDIA, node_name, devices, node_name=node_name, count=count))
    return out


MIG_CLASSES = [CLASS_FULL, CLASS_MIG_3G, CLASS_MIG_1G]

# --- shareable devices (consumable capacity) ------------------------------------------------------

SHARE1 = "gpu-share-01"
SHARE_NODE = node(SHARE1, **{"topology.kubernetes.io/zone": "zone-a"})
CLASS_SHARED_GPU = dclass("gpu-shared", 'device.driver == "gpu.nvidia.com"')
CLASS_NET = dclass("net-bandwidth", 'device.driver == "dra.net"')


def shared_gpu(index, policy, memory="80Gi"):
    return dev("gpu-%d" % index,
               attributes={"type": s("gpu"), "productName": s("H100"), "uuid": s("GPU-h100-%04d" % index)},
               capacity={"memory": {"value": memory, "requestPolicy": policy}},
               allowMultipleAllocations=True)


VALID_VALUES_MEM = {"default": "10Gi", "validValues": ["10Gi", "20Gi", "40Gi", "80Gi"]}
RANGE_MEM = {"default": "1Gi", "validRange": {"min": "1Gi", "step": "1Gi"}}


def shared_nic(index, capacity):
    return dev("nic-%d" % index, attributes={"ifName": s("ens%df0" % (index + 1))},
               capacity=capacity, allowMultipleAllocations=True)


def bw_range(max_="50G"):
    return {"bandwidth": {"value": "100G",
                          "requestPolicy": {"default": "1G", "validRange": {"min": "1G", "max": max_, "step": "1G"}}}}


# --- binding conditions / network-attached --------------------------------------------------------

NODE1 = "gpu-node-1"
ZONE_NODE = node(NODE1, **{"topology.kubernetes.io/zone": "zone-a", "example.com/rack": "rack-7"})


def fabric_gpu(index, binding=True, binds_to_node=True):
    fields = {}
    if binding:
        fields["bindingConditions"] = ["FabricAttached"]
        fields["bindingFailureConditions"] = ["FabricAttachFailed"]
    if binds_to_node:
        fields["bindsToNode"] = True
    return gpu(index, "H100", name="fgpu-%d" % index, **fields)
