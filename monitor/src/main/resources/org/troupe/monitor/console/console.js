// The Troupe console: reads the run's state from the launcher's event stream and draws it. No framework: the
// page is a few tables, a tree, an SVG graph and uPlot charts, rebuilt at each update (about once a second).
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const q = "token=" + encodeURIComponent(token);
  const $ = (sel) => document.querySelector(sel);
  const charts = new Map(); // "panel/series" -> uPlot
  let previous = null; // the last state, for rates

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }

  function bytes(n) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return (i === 0 ? n.toFixed(0) : n.toFixed(1)) + " " + units[i];
  }

  function number(n) {
    if (typeof n !== "number" || !isFinite(n)) return "\u2014";
    if (Math.abs(n) >= 1e6 || (n !== 0 && Math.abs(n) < 1e-3)) return n.toExponential(2);
    return Number.isInteger(n) ? String(n) : n.toFixed(2);
  }

  // Viridis at 9 stops, interpolated: a perceptually uniform map, as the applications' pictures use.
  const VIRIDIS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];
  function viridis(t) {
    t = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
    const i = Math.min(VIRIDIS.length - 2, Math.floor(t)), f = t - i;
    const c = VIRIDIS[i].map((v, k) => Math.round(v + f * (VIRIDIS[i + 1][k] - v)));
    return "rgb(" + c.join(",") + ")";
  }

  // A scale that shows the data however small its values or their spread (an energy drift near 1e-14).
  function range(u, min, max) {
    if (min == null || max == null) return [0, 1];
    if (min === max) {
      const d = Math.abs(min) * 0.1 || 1;
      return [min - d, max + d];
    }
    const pad = (max - min) * 0.05;
    return [min - pad, max + pad];
  }

  function post(params) {
    return fetch("api/control?" + params + "&" + q, {method: "POST"});
  }

  function drawTree(entities, jvmControls) {
    const build = (list) => list.map((e) => {
      const li = el("li", {"data-kind": e.kind, "data-name": e.name, "data-state": e.state},
        el("span", {"class": "kind"}, e.kind + " "), el("b", {}, e.name),
        el("span", {"class": "state state-" + e.state}, e.state));
      if (e.detail) li.append(el("span", {"class": "detail"}, e.detail));
      if (e.kind === "jvm" && e.runtimeId && e.state === "registered") {
        for (const name of jvmControls) {
          const b = el("button", {"data-control": name}, name);
          b.onclick = () => {
            if (confirm(name + " " + e.name + "?")) post("name=" + encodeURIComponent(name) + "&jvm=" + encodeURIComponent(e.runtimeId));
          };
          li.append(b);
        }
      }
      if (e.children.length) li.append(el("ul", {}, ...build(e.children)));
      return li;
    });
    $("#tree").replaceChildren(...build(entities));
  }

  function rate(now, name, field) {
    if (!previous) return NaN;
    const before = previous.jvms.find((j) => j.name === name);
    const seconds = (now.time - previous.time) / 1000;
    return before && seconds > 0 ? Math.max(0, (now.jvms.find((j) => j.name === name)[field] - before[field]) / seconds) : NaN;
  }

  function orDash(n, text) {
    return isFinite(n) ? text : "\u2014";
  }

  function drawJvms(state) {
    $("#jvms tbody").replaceChildren(...state.jvms.map((j) => {
      const heap = j.heapMax > 0 ? j.heapUsed / j.heapMax : 0;
      return el("tr", {"data-jvm": j.name, "data-runtime": j.id},
        el("td", {"class": "name"}, j.name), el("td", {"class": "text"}, j.host),
        el("td", {"class": "text"}, j.nodes.join(", ")),
        el("td", {"class": "heap"}, el("span", {"class": "bar"}, el("span", {style: "width:" + (100 * heap).toFixed(0) + "%"})),
          bytes(j.heapUsed)),
        el("td", {"class": "cpu"}, (100 * j.cpu).toFixed(0) + " %"), el("td", {"class": "load"}, number(j.load)),
        el("td", {"class": "objects"}, j.activeObjects), el("td", {"class": "queued"}, j.queued),
        el("td", {"class": "served"}, j.served), el("td", {"class": "rate"}, orDash(rate(state, j.name, "served"), number(rate(state, j.name, "served")))),
        el("td", {"class": "sent"}, bytes(j.bytesSent)),
        el("td", {"class": "age"}, (j.ageMillis / 1000).toFixed(1) + " s"));
    }));
    $("#objects tbody").replaceChildren(...state.objects.map((o) =>
      el("tr", {"data-jvm": o.jvm, "data-class": o["class"]}, el("td", {}, o.jvm), el("td", {"class": "text"}, o.node),
        el("td", {"class": "text"}, o["class"].replace(/^.*\./, "")), el("td", {"class": "served"}, o.served),
        el("td", {}, o.queued), el("td", {}, o.meanWaitMillis > 0 ? number(o.meanWaitMillis) + " ms" : "\u2014"))));
  }

  // Calls between JVMs: the JVMs on a circle, an arrow per pair that called, as thick as its share of the calls.
  function drawCalls(state) {
    const svg = $("#calls");
    const ns = "http://www.w3.org/2000/svg";
    const jvms = state.jvms;
    const w = 420, h = 320, r = 120, cx = w / 2, cy = h / 2;
    const at = new Map(jvms.map((j, i) => {
      const a = 2 * Math.PI * i / Math.max(1, jvms.length) - Math.PI / 2;
      return [j.id, [cx + r * Math.cos(a), cy + r * Math.sin(a), j.name]];
    }));
    const max = Math.max(1, ...state.calls.map((c) => c.count));
    const shapes = [];
    const defs = document.createElementNS(ns, "defs");
    defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="#31688e"/></marker>';
    shapes.push(defs);
    for (const c of state.calls) {
      const a = at.get(c.from), b = at.get(c.to);
      if (!a || !b || c.count === 0) continue;
      const line = document.createElementNS(ns, "line");
      const dx = b[0] - a[0], dy = b[1] - a[1], d = Math.hypot(dx, dy) || 1;
      line.setAttribute("x1", a[0] + 14 * dx / d); line.setAttribute("y1", a[1] + 14 * dy / d);
      line.setAttribute("x2", b[0] - 14 * dx / d); line.setAttribute("y2", b[1] - 14 * dy / d);
      line.setAttribute("stroke", "#31688e");
      line.setAttribute("stroke-width", (1 + 5 * c.count / max).toFixed(1));
      line.setAttribute("marker-end", "url(#arrow)");
      line.setAttribute("data-from", a[2]); line.setAttribute("data-to", b[2]);
      const title = document.createElementNS(ns, "title");
      title.textContent = a[2] + " \u2192 " + b[2] + ": " + c.count + " calls";
      line.append(title);
      shapes.push(line);
    }
    for (const [x, y, name] of at.values()) {
      const g = document.createElementNS(ns, "g");
      const circle = document.createElementNS(ns, "circle");
      circle.setAttribute("cx", x); circle.setAttribute("cy", y); circle.setAttribute("r", 12);
      circle.setAttribute("fill", "#35b779");
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", x); text.setAttribute("y", y + 26); text.setAttribute("text-anchor", "middle");
      text.setAttribute("font-size", "11");
      text.textContent = name;
      g.append(circle, text);
      shapes.push(g);
    }
    svg.replaceChildren(...shapes);
  }

  function drawPanels(panels) {
    const root = $("#panels");
    for (const p of panels) {
      const id = "panel-" + p.title.replace(/[^A-Za-z0-9]+/g, "-");
      let section = document.getElementById(id);
      if (!section) {
        section = el("div", {id: id, "class": "panel"}, el("h2", {}, p.title),
          el("div", {"class": "charts"}), el("div", {"class": "tables"}), el("div", {"class": "matrices"}),
          el("h3", {}, "Events"), el("ol", {"class": "events"}));
        root.append(section);
      }
      for (const s of p.series) {
        const key = p.title + "/" + s.name;
        const data = [s.points.map((pt) => pt[0]), s.points.map((pt) => pt[1])];
        let chart = charts.get(key);
        if (!chart) {
          const box = el("div", {"class": "chart", "data-series": s.name});
          section.querySelector(".charts").append(box);
          chart = new uPlot({
            title: s.name, width: 420, height: 220,
            scales: {x: {time: false}, y: {range: range}},
            axes: [{label: s.x}, {label: s.unit, size: 70, values: (u, ticks) => ticks.map(number)}],
            series: [{label: s.x}, {label: s.name, stroke: "#31688e", width: 1.5,
              value: (u, v) => v == null ? "" : number(v)}],
          }, data, box);
          charts.set(key, chart);
        } else {
          chart.setData(data);
        }
      }
      section.querySelector(".tables").replaceChildren(...p.tables.map((t) =>
        el("div", {}, el("h3", {}, t.name), el("table", {"data-table": t.name},
          el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", {}, c)))),
          el("tbody", {}, ...t.rows.map((r) => el("tr", {"data-key": r[0]}, ...r.map((c) => el("td", {}, c)))))))));
      section.querySelector(".matrices").replaceChildren(...p.matrices.map((m) => {
        const max = Math.max(1e-300, ...m.values.flat());
        return el("div", {}, el("h3", {}, m.name + " (" + m.unit + ", row to column)"),
          el("table", {"class": "matrix", "data-matrix": m.name},
            el("thead", {}, el("tr", {}, el("th", {}, ""), ...m.labels.map((l) => el("th", {}, l)))),
            el("tbody", {}, ...m.values.map((row, i) => el("tr", {}, el("th", {}, m.labels[i]),
              ...row.map((v) => el("td", {style: "background:" + viridis(v / max), title: number(v) + " " + m.unit},
                number(v))))))));
      }));
      section.querySelector(".events").replaceChildren(...p.events.map((e) =>
        el("li", {}, new Date(e[0]).toLocaleTimeString() + "  " + e[1])));
    }
  }

  // The applications' own meters (jem3d.*, nozzle.*, ...), one table per application: a row per JVM and tags, a
  // column per meter; a meter without tags is also drawn over time, from what this page has seen.
  const history = new Map(); // "jvm/name" -> [[seconds], [values]]
  const appCharts = new Map(); // "jvm/name" -> {log, plot}: drawn again, not made again
  function drawAppMeters(state) {
    const groups = new Map();
    for (const m of state.appMeters) {
      const app = m.name.split(".")[0];
      if (!groups.has(app)) groups.set(app, []);
      groups.get(app).push(m);
    }
    const root = $("#applications");
    const chartsOf = new Map(); // app -> its charts' box
    root.replaceChildren(...[...groups.entries()].map(([app, meters]) => {
      const tagKeys = [...new Set(meters.flatMap((m) => Object.keys(m.tags)))].sort();
      const names = [...new Set(meters.map((m) => m.name))];
      const rows = new Map();
      for (const m of meters) {
        const key = m.jvm + "|" + tagKeys.map((k) => m.tags[k] || "").join("|");
        if (!rows.has(key)) rows.set(key, {jvm: m.jvm, tags: m.tags, values: {}});
        rows.get(key).values[m.name] = m;
      }
      const sorted = [...rows.values()].sort((a, b) => tagKeys.map((k) => (+a.tags[k] || 0) - (+b.tags[k] || 0))
        .find((d) => d !== 0) || a.jvm.localeCompare(b.jvm));
      const charts = el("div", {"class": "charts"});
      chartsOf.set(app, charts);
      const first = (n) => meters.find((m) => m.name === n);
      const label = (n) => (first(n).description || n.substring(app.length + 1)) + (first(n).unit ? " (" + first(n).unit + ")" : "");
      return el("div", {"class": "app", "data-app": app}, el("h2", {}, app + " (its JVMs' meters)"),
        el("table", {"data-table": app},
          el("thead", {}, el("tr", {}, el("th", {}, "JVM"), ...tagKeys.map((k) => el("th", {}, k)),
            ...names.map((n) => el("th", {title: n}, label(n))))),
          el("tbody", {}, ...sorted.map((r) => el("tr", {"data-key": tagKeys.map((k) => r.tags[k] || "").join("|")},
            el("td", {}, r.jvm), ...tagKeys.map((k) => el("td", {}, r.tags[k] || "")),
            ...names.map((n) => el("td", {"data-meter": n}, r.values[n] ? number(r.values[n].value) : "")))))),
        charts);
    }));
    const drawn = new Set();
    for (const m of state.appMeters) {
      if (Object.keys(m.tags).length !== 0 || !isFinite(m.value)) continue;
      const key = m.jvm + "/" + m.name;
      if (!history.has(key)) history.set(key, [[], []]);
      const h = history.get(key);
      h[0].push(state.time / 1000); h[1].push(m.value);
      if (h[0].length > 600) { h[0].shift(); h[1].shift(); }
      // values over two decades (a residual falling) on a log scale, others linear
      const positive = h[1].every((v) => v > 0);
      const log = positive && Math.max(...h[1]) > 100 * Math.min(...h[1]);
      drawn.add(key);
      let chart = appCharts.get(key);
      if (chart && chart.log === log) {
        chart.plot.setData(h);
        chartsOf.get(m.name.split(".")[0]).append(chart.plot.root.parentNode);
        continue;
      }
      if (chart) chart.plot.destroy();
      const box = el("div", {"class": "chart", "data-series": m.name});
      chartsOf.get(m.name.split(".")[0]).append(box);
      chart = {log: log, plot: new uPlot({title: m.name + " (" + m.jvm + ")", width: 420, height: 220,
        scales: {y: log ? {distr: 3} : {range: range}},
        axes: [{label: "time"}, {label: m.unit || m.name, size: 70, values: (u, ticks) => ticks.map(number)}],
        series: [{}, {label: m.name, stroke: "#31688e", width: 1.5}]}, h, box)};
      appCharts.set(key, chart);
    }
    for (const [key, chart] of appCharts) { // a meter no longer reported: its chart goes
      if (!drawn.has(key)) {
        chart.plot.destroy();
        appCharts.delete(key);
      }
    }
  }

  function drawControls(controls) {
    const box = $("#controls");
    if (box.childElementCount === controls.length) return;
    box.replaceChildren(...controls.map((name) => {
      const b = el("button", {"data-control": name}, name);
      b.onclick = () => post("name=" + encodeURIComponent(name));
      return b;
    }));
  }

  function draw(state) {
    document.title = state.title + " \u2014 Troupe console";
    $("#title").textContent = state.title;
    $("#metrics-off").hidden = state.metrics;
    drawTree(state.tree, state.jvmControls);
    drawJvms(state);
    drawCalls(state);
    drawPanels(state.panels);
    drawAppMeters(state);
    drawControls(state.controls);
    $("#failures").replaceChildren(...state.failures.map((f) =>
      el("li", {}, new Date(f[0]).toLocaleTimeString(), el("pre", {}, f[1]))));
    previous = state;
  }

  const events = new EventSource("api/events?" + q);
  events.onmessage = (m) => {
    $("#status").textContent = "live";
    $("#status").className = "status live";
    draw(JSON.parse(m.data));
  };
  events.onerror = () => {
    $("#status").textContent = "disconnected: the launcher has ended, or is unreachable";
    $("#status").className = "status down";
  };
})();
