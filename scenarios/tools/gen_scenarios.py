#!/usr/bin/env python3
"""Writes dra4j's own scenarios (../*.yaml) and the scenario table of ../README.md.

usage: python3 scenarios/tools/gen_scenarios.py
The YAML files are the artefacts the test suite and the CLI read; this script only keeps them consistent.
Expected outcomes are upstream's (Kubernetes 1.37, k8s.io/dynamic-resource-allocation v0.37.2), checked
with the Go oracle, never derived from dra4j's own output.
"""
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OUT = os.path.dirname(HERE)

import s_fleet  # noqa: E402
import s_taint_mig  # noqa: E402
import s_capacity_binding_node  # noqa: E402
import s_admin_config_error  # noqa: E402
import s_more  # noqa: E402
import s_taint_rules  # noqa: E402
import s_share_counters  # noqa: E402

HEADER = "# dra4j allocation scenario (format: shared/design/SCENARIO-FORMAT.md). Expected outcome = upstream v0.37.2.\n"

GROUPS = [
    ("example", "Bundled example"),
    ("fleet", "Realistic GPU fleets (NVLink, NUMA, PCIe root, CEL on attributes)"),
    ("fallback", "Prioritized lists (firstAvailable) and the 32-result limit"),
    ("taint", "Device taints and tolerations"),
    ("mig", "Partitionable (MIG-style) devices and shared counters"),
    ("capacity", "Consumable capacity and shared devices"),
    ("binding", "Binding conditions and bindsToNode"),
    ("node", "Node selection of network-attached devices"),
    ("pool", "Pools: generations, completeness, search order"),
    ("admin", "Admin access"),
    ("config", "Configuration in the allocation result"),
    ("cel", "CEL evaluation order"),
    ("limit", "Result limit"),
    ("error", "Error paths"),
    ("variant", "Where upstream's stable and incubating variants differ"),
]


class Dumper(yaml.SafeDumper):
    pass


def _str(dumper, data):
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


Dumper.add_representer(str, _str)
Dumper.ignore_aliases = lambda self, data: True


def outcome(sc):
    e = sc["expect"]
    if "error" in e:
        return "error: `%s`" % e["error"]
    if e.get("unschedulable"):
        return "unschedulable"
    parts = []
    for a in e["allocations"]:
        rs = a["results"]
        if len(rs) > 4:
            parts.append("%s: %d devices" % (a["claim"], len(rs)))
        else:
            parts.append("%s: %s" % (a["claim"], ", ".join("%s→%s" % (r["request"], r["device"]) for r in rs)))
    return "allocated — " + "; ".join(parts)


def gates(sc):
    from lib import GATES_137
    f = sc["features"]
    if f == GATES_137:
        return "1.37 defaults"
    missing = [g for g in GATES_137 if g not in f]
    extra = [g for g in f if g not in GATES_137]
    short = lambda gs: ", ".join(g.replace("DRA", "", 1) for g in gs)
    if len(missing) <= 2 and len(extra) <= 2:
        text = "1.37 defaults"
        if missing:
            text += " minus " + short(missing)
        if extra:
            text += " plus " + short(extra)
        return text
    return ", ".join(g.replace("DRA", "", 1) for g in f) or "–"


def main():
    scenarios = s_fleet.S + s_taint_mig.S + s_capacity_binding_node.S + s_admin_config_error.S + s_more.S + s_taint_rules.S + s_share_counters.S
    names = [sc["name"] for sc in scenarios]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup
    for sc in scenarios:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", sc["name"]), sc["name"]
        prefix = sc["name"].split("-")[0]
        assert prefix in dict(GROUPS), sc["name"]
    for f in os.listdir(OUT):
        if f.endswith(".yaml"):
            os.remove(os.path.join(OUT, f))
    for sc in scenarios:
        with open(os.path.join(OUT, sc["name"] + ".yaml"), "w") as fh:
            fh.write(HEADER)
            yaml.dump(sc, fh, Dumper=Dumper, sort_keys=False, width=120, allow_unicode=True)

    lines = []
    for prefix, title in GROUPS:
        group = [sc for sc in scenarios if sc["name"].split("-")[0] == prefix]
        if not group:
            continue
        lines += ["", "### %s" % title, "", "| scenario | gates | expected outcome | conf. |", "| --- | --- | --- | --- |"]
        for sc in sorted(group, key=lambda x: x["name"]):
            lines.append("| [%s](%s.yaml) | %s | %s | %s |" % (sc["name"], sc["name"], gates(sc), outcome(sc),
                                                              sc["confidence"]))
    table = "\n".join(lines) + "\n"
    readme = os.path.join(OUT, "README.md")
    text = open(readme).read()
    start, end = "<!-- scenario-table:start -->", "<!-- scenario-table:end -->"
    i, j = text.index(start) + len(start), text.index(end)
    text = text[:i] + "\n" + "%d scenarios.\n" % len(scenarios) + table + text[j:]
    open(readme, "w").write(text)
    print("wrote %d scenarios" % len(scenarios))


if __name__ == "__main__":
    main()
