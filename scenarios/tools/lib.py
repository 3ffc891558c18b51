"""Building blocks for dra4j's own allocation scenarios (see ../README.md).

Each scenario is a plain dict in the format of shared/design/SCENARIO-FORMAT.md; gen_scenarios.py
creates them with these helpers and writes one YAML file per scenario.
"""
import copy

V1 = "resource.k8s.io/v1"
NVIDIA = "gpu.nvidia.com"

# The DRA gates that are on by default in Kubernetes 1.37 and matter to the allocator
# (DRAFractionalCapacityRange left out: no scenario here depends on fractional ranges).
# With DRAConsumableCapacity or the binding-condition pair on, upstream runs its
# "incubating" allocator variant (sorted pools, sorted slices).
GATES_137 = [
    "DRAAdminAccess",
    "DRAPrioritizedList",
    "DRADeviceTaints",
    "DRAPartitionableDevices",
    "DRAConsumableCapacity",
    "DRADeviceBindingConditions",
    "DRAResourceClaimDeviceStatus",
]


def gates_without(*off):
    for g in off:
        assert g in GATES_137, g
    return [g for g in GATES_137 if g not in off]


def node(name, **labels):
    base = {"kubernetes.io/hostname": name}
    base.update(labels)
    return {"name": name, "labels": base}


def dclass(name, *expressions, config=None):
    spec = {}
    if expressions:
        spec["selectors"] = [{"cel": {"expression": e}} for e in expressions]
    if config:
        spec["config"] = config
    return {"apiVersion": V1, "kind": "DeviceClass", "metadata": {"name": name}, "spec": spec}


def opaque(driver, params):
    return {"opaque": {"driver": driver, "parameters": params}}


def attrs(**kw):
    """Attribute map; keys may contain '__' for '/' and '_DOT_' for '.' when not plain ids."""
    out = {}
    for k, v in kw.items():
        out[k] = v
    return out


def s(v):
    return {"string": v}


def i(v):
    return {"int": v}


def b(v):
    return {"bool": v}


def ver(v):
    return {"version": v}


PCIE = "resource.kubernetes.io/pcieRoot"

GPU_MODELS = {
    # product: (memory, compute capability, architecture)
    "H100": ("80Gi", "9.0.0", "Hopper"),
    "A100": ("80Gi", "8.0.0", "Ampere"),
    "L4": ("24Gi", "8.9.0", "Ada Lovelace"),
}


def gpu(index, product="H100", driver_version="550.54.15", nvlink=None, numa=None, pcie=None,
        name=None, taints=None, extra_attrs=None, memory=None, **fields):
    """One whole GPU as the NVIDIA DRA driver would publish it (simplified)."""
    mem, cc, arch = GPU_MODELS[product]
    if nvlink is None:
        nvlink = index // 4
    if numa is None:
        numa = index // 4
    if pcie is None:
        pcie = "pci0000:%02x" % (index // 2)
    a = {
        "type": s("gpu"),
        "productName": s(product),
        "architecture": s(arch),
        "index": i(index),
        "uuid": s("GPU-%s-%04d" % (product.lower(), index)),
        "nvlinkDomain": i(nvlink),
        "numaNode": i(numa),
        PCIE: s(pcie),
        "driverVersion": ver(driver_version),
        "cudaComputeCapability": ver(cc),
    }
    if extra_attrs:
        a.update(extra_attrs)
    d = {"name": name or "gpu-%d" % index, "attributes": a, "capacity": {"memory": {"value": memory or mem}}}
    if taints:
        d["taints"] = taints
    d.update(fields)
    return d


def dev(name, attributes=None, capacity=None, **fields):
    d = {"name": name}
    if attributes:
        d["attributes"] = attributes
    if capacity:
        d["capacity"] = capacity
    d.update(fields)
    return d


def rslice(name, driver, pool, devices=None, node_name=None, generation=1, count=1, node_selector=None,
           all_nodes=None, per_device=None, shared_counters=None):
    spec = {"driver": driver, "pool": {"name": pool, "generation": generation, "resourceSliceCount": count}}
    if node_name:
        spec["nodeName"] = node_name
    if node_selector:
        spec["nodeSelector"] = node_selector
    if all_nodes:
        spec["allNodes"] = True
    if per_device:
        spec["perDeviceNodeSelection"] = True
    if devices is not None:
        spec["devices"] = devices
    if shared_counters is not None:
        spec["sharedCounters"] = shared_counters
    return {"apiVersion": V1, "kind": "ResourceSlice", "metadata": {"name": name}, "spec": spec}


def gpu_node_slice(node_name, devices, driver=NVIDIA, pool=None, name=None, **kw):
    return rslice(name or "%s-gpus" % node_name, driver, pool or node_name, devices, node_name=node_name, **kw)


def dgx(node_name, product="H100", n=8, **gpu_kw):
    return gpu_node_slice(node_name, [gpu(k, product, **gpu_kw) for k in range(n)])


def claim(name, requests, constraints=None, config=None):
    devices = {"requests": requests}
    if constraints:
        devices["constraints"] = constraints
    if config:
        devices["config"] = config
    return {"apiVersion": V1, "kind": "ResourceClaim", "metadata": {"name": name}, "spec": {"devices": devices}}


def exact(name, cls, count=1, selectors=(), all_mode=False, tolerations=None, admin=None, capacity=None):
    e = {"deviceClassName": cls}
    if selectors:
        e["selectors"] = [{"cel": {"expression": x}} for x in selectors]
    if all_mode:
        e["allocationMode"] = "All"
    else:
        e["allocationMode"] = "ExactCount"
        e["count"] = count
    if admin is not None:
        e["adminAccess"] = admin
    if tolerations:
        e["tolerations"] = tolerations
    if capacity:
        e["capacity"] = {"requests": capacity}
    return {"name": name, "exactly": e}


def sub(name, cls, count=1, selectors=(), all_mode=False, tolerations=None, capacity=None):
    e = exact(name, cls, count, selectors, all_mode, tolerations, None, capacity)
    out = {"name": name}
    out.update(e["exactly"])
    return out


def first(name, *subs):
    return {"name": name, "firstAvailable": list(subs)}


def match(attr, *requests):
    c = {"matchAttribute": attr}
    if requests:
        c["requests"] = list(requests)
    return c


def distinct(attr, *requests):
    c = {"distinctAttribute": attr}
    if requests:
        c["requests"] = list(requests)
    return c


def tol(key=None, operator="Equal", value=None, effect=None):
    t = {}
    if key:
        t["key"] = key
    t["operator"] = operator
    if value is not None:
        t["value"] = value
    if effect:
        t["effect"] = effect
    return t


def taint(key, value=None, effect="NoSchedule"):
    t = {"key": key}
    if value is not None:
        t["value"] = value
    t["effect"] = effect
    return t


def busy(driver, pool, *devices):
    return [{"driver": driver, "pool": pool, "device": d} for d in devices]


def shared_busy(driver, pool, device, **consumed):
    return {"driver": driver, "pool": pool, "device": device, "shared": True, "consumedCapacity": consumed}


def local(node_name):
    return {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}


def expr_term(*reqs):
    """One node selector term from (key, operator, values) triples."""
    return {"matchExpressions": [{"key": k, "operator": op, "values": list(v)} for k, op, v in reqs]}


def res(request, device, pool, driver=NVIDIA, **extra):
    r = {"request": request, "driver": driver, "pool": pool, "device": device}
    r.update(extra)
    return r


def alloc(claim_name, results, node_selector, config=None):
    a = {"claim": claim_name, "results": results, "nodeSelector": node_selector}
    if config is not None:
        a["config"] = config
    return a


def scenario(name, *, features, node, classes, slices, claims, expect, notes, allocated=None,
             confidence="high", ordered=True, taint_rules=None):
    if "allocations" in expect:
        expect = dict(expect)
        expect["resultOrderAsserted"] = ordered
    sc = {
        "name": name,
        "source": "dra4j",
        "features": list(features),
        "confidence": confidence,
        "node": node,
        "deviceClasses": copy.deepcopy(classes),
        "resourceSlices": copy.deepcopy(slices),
        "allocatedDevices": copy.deepcopy(allocated or []),
    }
    if taint_rules is not None:
        sc["deviceTaintRules"] = copy.deepcopy(taint_rules)
    sc.update({"claims": copy.deepcopy(claims), "expect": expect, "notes": notes})
    return sc


def allocated(*allocs):
    return {"allocations": list(allocs)}


UNSCHEDULABLE = {"unschedulable": True}


def error(msg):
    return {"error": msg}
