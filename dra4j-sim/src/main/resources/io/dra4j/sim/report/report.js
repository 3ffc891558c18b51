// Renders the report from the JSON blob: the --output json document of the run ("simulation") and the fleet as
// nodes x devices ("fleet"). Node pools start collapsed and are rendered when opened, so 5,000 nodes cost little.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("dra4j-data").textContent);
  const sim = data.simulation;
  const fleet = data.fleet;
  const PAGE = 200;
  let query = "";

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    });
    children.flat().forEach(c => e.append(c));
    return e;
  }

  function table(head, rows) {
    return el("table", {}, el("thead", {}, el("tr", {}, head.map(h => el("th", {class: h.num ? "num" : ""}, h.label)))),
      el("tbody", {}, rows));
  }

  function num(value, attrs) {
    return el("td", Object.assign({class: "num"}, attrs), String(value));
  }

  function chart(id, categories, series) {
    const c = echarts.init(document.getElementById(id));
    c.setOption({
      animation: false, tooltip: {trigger: "axis"}, legend: {top: 0}, grid: {left: 48, right: 16, top: 32, bottom: 48},
      xAxis: {type: "category", data: categories, axisLabel: {interval: 0, rotate: categories.length > 4 ? 20 : 0}},
      yAxis: {type: "value", minInterval: 1},
      series: series.map(s => Object.assign({type: "bar", barMaxWidth: 48}, s))
    });
    window.addEventListener("resize", () => c.resize());
  }

  function summary() {
    const s = sim.summary;
    const cards = [["nodes", "nodes"], ["pods", "pods"], ["placed", "placed"], ["pending", "pending"],
      ["boundBefore", "bound before"], ["deleted", "deleted"]];
    document.getElementById("summary").append(...cards.map(([k, label]) =>
      el("div", {class: "card"}, el("span", {class: "value", "data-metric": k}, String(s[k])), label)));
  }

  function utilisation() {
    const classes = fleet.classes;
    document.getElementById("class-table").replaceWith(table(
      [{label: "device class"}, {label: "allocated", num: 1}, {label: "admin access", num: 1},
        {label: "devices matching", num: 1}],
      classes.map(c => el("tr", {"data-class": c.deviceClass}, el("td", {text: c.deviceClass}),
        num(c.allocated, {"data-field": "allocated"}), num(c.adminAccess, {"data-field": "adminAccess"}),
        num(c.matching, {"data-field": "matching"})))));
    chart("class-chart", classes.map(c => c.deviceClass), [
      {name: "allocated", stack: "d", data: classes.map(c => c.allocated)},
      {name: "not allocated", stack: "d", data: classes.map(c => Math.max(0, c.matching - c.allocated))}]);
    const pools = fleet.pools;
    document.getElementById("pool-table").replaceWith(table(
      [{label: "node pool (" + fleet.poolLabel + ")"}, {label: "nodes", num: 1}, {label: "devices", num: 1},
        {label: "allocated", num: 1}, {label: "tainted", num: 1}],
      pools.map(p => el("tr", {"data-node-pool": p.name}, el("td", {text: p.name || "<none>"}),
        num(p.nodes, {"data-field": "nodes"}), num(p.devices, {"data-field": "devices"}),
        num(p.allocated, {"data-field": "allocated"}), num(p.tainted, {"data-field": "tainted"})))));
    chart("pool-chart", pools.map(p => p.name || "<none>"), [
      {name: "allocated", stack: "d", data: pools.map(p => p.allocated)},
      {name: "free", stack: "d", data: pools.map(p => p.devices - p.allocated)},
      {name: "tainted", data: pools.map(p => p.tainted)}]);
  }

  function comparison() {
    const cmp = sim.comparison;
    if (!cmp) return;
    const section = document.getElementById("comparison");
    section.hidden = false;
    const gib = b => (b / 2 ** 30).toFixed(0) + "Gi";
    const rows = [["placed", "pods placed"], ["pending", "pods pending"], ["boundBefore", "pods bound before"],
      ["strandedDevices", "GPUs stranded (free, GPU pods pending)"], ["strandedGpuMemory", "GPU memory stranded", gib],
      ["crossDomainJobs", "multi-GPU pods across interconnect domains"],
      ["migStrandedMemory", "MIG memory stranded (MIG pods pending)", gib],
      ["healthyGpusLostToCordoning", "healthy GPUs lost to cordoning"]];
    const cell = (side, k, f) => num(f ? f(cmp[side][k]) : cmp[side][k], {"data-side": side, "data-metric": k});
    section.append(el("div", {class: "pair"},
      el("div", {}, table([{label: ""}, {label: "DRA", num: 1}, {label: "device plugins", num: 1}],
        rows.map(([k, label, f]) => el("tr", {}, el("td", {text: label}), cell("dra", k, f),
          cell("devicePlugins", k, f))))),
      el("div", {id: "comparison-chart", class: "chart"})));
    const counted = ["placed", "pending", "strandedDevices", "crossDomainJobs", "healthyGpusLostToCordoning"];
    chart("comparison-chart", counted, [
      {name: "DRA", data: counted.map(k => cmp.dra[k])},
      {name: "device plugins", data: counted.map(k => cmp.devicePlugins[k])}]);
    section.append(el("details", {}, el("summary", {text: "Device-plugin form of each claim request"}),
      el("pre", {text: cmp.mapping.join("\n")})));
  }

  // The migration decision tree of --compare device-plugins: each question, answered from the run's workloads.
  function decision() {
    const answers = sim.comparison && sim.comparison.decision;
    if (!answers) return;
    const section = document.getElementById("decision");
    section.hidden = false;
    section.append(table([{label: "does a workload need"}, {label: "answer"}, {label: "workloads"}, {label: "uses"}],
      answers.map(a => el("tr", {"data-need": a.need}, el("td", {text: a.question}),
        el("td", {"data-field": "needed", text: a.needed ? "yes" : "no"}),
        el("td", {"data-field": "workloads", text: a.workloads.join(", ")}),
        el("td", {}, el("pre", {text: a.uses.join("\n")}))))));
  }

  // Gangs, placed all or nothing: whether each fits and, if not, what is missing.
  function gangs() {
    if (!sim.gangs || sim.gangs.length === 0) return;
    const section = document.getElementById("gangs");
    section.hidden = false;
    section.append(table([{label: "gang"}, {label: "members", num: 1}, {label: "placed", num: 1},
      {label: "missing", num: 1}, {label: "why not"}],
      sim.gangs.map(g => el("tr", {"data-gang": g.name}, el("td", {text: g.name}),
        num(g.members.length, {"data-field": "members"}), num(g.placed, {"data-field": "placed"}),
        num(g.missing, {"data-field": "missing"}),
        el("td", {text: [g.reason, g.firstUnfit && g.firstUnfit + ": " + g.unfitDraReason].filter(x => x)
          .join("; ")})))));
  }

  function whatIf() {
    if (!sim.whatIf) return;
    const section = document.getElementById("whatif");
    section.hidden = false;
    section.append(el("pre", {text: data.whatIfLines.join("\n")}));
    const show = v => typeof v === "object" && v !== null
      ? (Array.isArray(v) ? v.join(", ") : Object.entries(v).map(([k, x]) => k + ": " + x).join("\n")) : String(v);
    section.append(table([{label: "field"}, {label: "value"}], Object.entries(sim.whatIf).map(([k, v]) =>
      el("tr", {}, el("td", {text: k}), el("td", {"data-whatif": k}, el("pre", {text: show(v)}))))));
  }

  const pending = sim.pods.filter(p => p.placement === "PENDING");
  const podText = pending.map(p => [p.namespace + "/" + p.name, p.node || "", p.workload, p.reason, p.draReason]
    .join(" ").toLowerCase());

  function pendingPods() {
    const section = document.getElementById("pending");
    const shown = pending.filter((p, i) => !query || podText[i].includes(query));
    let body = section.querySelector(".body");
    if (body) body.remove();
    body = el("div", {class: "body"}, el("p", {class: "muted", "data-count": "pending"},
      shown.length + " of " + pending.length + " pending pod(s)" + (query ? " match" : "")));
    section.append(body);
    const tbody = el("tbody");
    const addRows = from => {
      shown.slice(from, from + PAGE).forEach(p => tbody.append(el("tr", {"data-pod": p.namespace + "/" + p.name},
        el("td", {text: p.namespace + "/" + p.name}), el("td", {text: p.workload}), el("td", {text: p.reason}),
        el("td", {text: p.draReason}))));
      more(body, shown.length - from - PAGE, () => addRows(from + PAGE));
    };
    body.append(el("table", {}, el("thead", {}, el("tr", {}, ["pod", "workload", "scheduler message", "why (DRA)"]
      .map(h => el("th", {text: h})))), tbody));
    addRows(0);
  }

  function more(parent, left, next) {
    const old = parent.querySelector(":scope > .more");
    if (old) old.remove();
    if (left > 0) {
      const b = el("button", {class: "more", text: "show " + Math.min(left, PAGE) + " more of " + left});
      b.addEventListener("click", next);
      parent.append(b);
    }
  }

  const nodeText = new Map();
  fleet.pools.forEach(p => p.nodeRows.forEach(n => nodeText.set(n, [p.name, n.name, ...n.taints,
    ...n.devices.flatMap(d => [d.device, d.pool, ...d.claims, ...d.pods])].join(" ").toLowerCase())));
  const matches = n => !query || nodeText.get(n).includes(query);

  function deviceChip(d) {
    const tip = [d.pool + "/" + d.device, d.kind, "classes: " + (d.classes.join(", ") || "none"),
      d.taints.length ? "taints: " + d.taints.join(", ") : "", d.claims.length ? "claims: " + d.claims.join(", ") : "",
      d.pods.length ? "pods: " + d.pods.join(", ") : "",
      d.adminClaims.length ? "admin access: " + d.adminClaims.join(", ") : ""].filter(Boolean).join("\n");
    const chip = el("span", {class: "dev " + d.state, "data-state": d.state, "data-device": d.device, title: tip},
      d.device);
    d.consumed.forEach(c => chip.append(el("span", {class: "use", text: c.capacity + " " + c.used + "/" + c.total})));
    return chip;
  }

  function nodeRow(n) {
    const groups = new Map();
    const chips = [];
    n.devices.forEach(d => {
      if (!d.counterSet) { chips.push(deviceChip(d)); return; }
      if (!groups.has(d.counterSet)) {
        const cs = n.counterSets.find(c => c.name === d.counterSet);
        const use = cs ? cs.counters.filter(c => !c.capacity.startsWith("memory-slice"))
          .map(c => c.capacity + " " + c.used + "/" + c.total).join(", ") : "";
        const box = el("span", {class: "partitionable", title: d.counterSet, "data-counter-set": d.counterSet},
          el("span", {class: "use", text: d.counterSet.split("/").pop() + (use ? ": " + use : "")}));
        groups.set(d.counterSet, box);
        chips.push(box);
      }
      groups.get(d.counterSet).append(deviceChip(d));
    });
    const head = el("div", {class: "name"}, n.name || "(no node)",
      el("div", {class: "muted", text: n.pods + " pod(s)"}));
    if (n.cordoned) head.append(el("span", {class: "badge", text: "cordoned"}));
    n.taints.forEach(t => head.append(el("span", {class: "badge", text: t})));
    return el("div", {class: "node", "data-node": n.name}, head,
      el("div", {class: "devices"}, chips.length ? chips : el("span", {class: "muted", text: "no devices"})));
  }

  function poolBody(details, pool) {
    details.querySelectorAll(":scope > .node, :scope > .more").forEach(e => e.remove());
    if (!details.open) return;
    const shown = pool.nodeRows.filter(matches);
    const addRows = from => {
      details.append(...shown.slice(from, from + PAGE).map(nodeRow));
      more(details, shown.length - from - PAGE, () => addRows(from + PAGE));
    };
    addRows(0);
  }

  const poolViews = [];

  function pools() {
    const root = document.getElementById("pools");
    fleet.pools.forEach(p => {
      const matchCount = el("span", {class: "counts match"});
      const details = el("details", {class: "pool", "data-node-pool": p.name},
        el("summary", {}, p.name || "<none>", el("span", {class: "counts",
          text: p.nodes + " node(s), " + p.allocated + " of " + p.devices + " device(s) allocated, " + p.tainted
            + " tainted"}), matchCount));
      details.addEventListener("toggle", () => poolBody(details, p));
      poolViews.push({details, pool: p, matchCount});
      root.append(details);
    });
  }

  function filter() {
    poolViews.forEach(v => {
      const n = query ? v.pool.nodeRows.filter(matches).length : v.pool.nodeRows.length;
      v.details.hidden = query !== "" && n === 0;
      v.matchCount.textContent = query ? n + " match" : "";
      v.matchCount.setAttribute("data-matches", String(n));
      poolBody(v.details, v.pool);
    });
    pendingPods();
  }

  summary();
  whatIf();
  comparison();
  decision();
  gangs();
  utilisation();
  pools();
  pendingPods();
  let timer;
  document.getElementById("search").addEventListener("input", e => {
    clearTimeout(timer);
    timer = setTimeout(() => { query = e.target.value.trim().toLowerCase(); filter(); }, 120);
  });
  document.body.setAttribute("data-rendered", "true");
})();
