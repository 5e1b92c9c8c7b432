// The dashboard page: draws what scripts/dashboard writes into data.js (glimpseData({runs, groups,
// skipped, pictures, stamp, every})) with uPlot, and keeps the reader's choices (metric, x axis,
// smoothing, log axis, pooling, hidden lines) when data.js is loaded again every `every` seconds.
// Errors and accuracies are fractions in the run files and percent here; minutes count training and
// evaluation (eval: /eval/train_s, training series: /train/wall_s).
"use strict";

const state = { task: "all", metric: "eval:val_error", x: "epoch", smooth: 0, logy: true, pooled: true, hidden: new Set() };
let data = null;
let chart = null;

// The colours of scripts/plot.py's KIND_COLOURS: one per attention kind, the controls in greys.
const KIND_COLOURS = { gaussian: "#1f77b4", categorical: "#ff7f0e", soft: "#2ca02c", draw: "#d62728",
  stn: "#9467bd", pathwise: "#8c564b", gumbel: "#e377c2", random: "#7f7f7f", centre: "#bcbd22", whole: "#17becf" };
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
  "#bcbd22", "#17becf"];
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
const PERCENT = /(error|accuracy)$/;  // fractions shown in percent
const NOT_METRICS = new Set(["epoch", "images", "minutes", "step", "wall_s", "train_s", "eval_s", "rss_mb"]);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("data-")) e.setAttribute(k, v); else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}

function fmt(v, digits = 2) { return v === null || v === undefined ? "-" : Number(v).toFixed(digits); }

function fmtTime(s) {
  if (s === null || s === undefined) return "-";
  const m = Math.floor(s / 60), h = Math.floor(m / 60);
  return h ? `${h}h${String(m % 60).padStart(2, "0")}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, "0")}s`;
}

// The metrics the runs log, as "eval:NAME" and "train:NAME".
function metrics() {
  const seen = new Map();
  for (const r of data.runs)
    for (const src of ["eval", "train"])
      for (const k of Object.keys(r[src])) if (!NOT_METRICS.has(k)) seen.set(`${src}:${k}`, true);
  return [...seen.keys()];
}

function metricLabel(m) {
  const [src, name] = m.split(":");
  return `${name.replace(/_/g, " ")}${PERCENT.test(name) ? " %" : ""}${src === "train" ? " (training)" : ""}`;
}

// One run's [x, y] for the chosen metric and x axis (y in percent for fractions), smoothed.
function runSeries(run) {
  const [src, name] = state.metric.split(":");
  const s = run[src];
  if (!s[name] || !s[state.x]) return null;
  const scale = PERCENT.test(name) ? 100 : 1;
  const xs = [], ys = [];
  for (let i = 0; i < s[name].length; i++) {
    const x = s[state.x][i], y = s[name][i];
    if (x === null || (xs.length && x <= xs[xs.length - 1])) continue;  // uPlot wants x ascending
    xs.push(x);
    ys.push(y === null ? null : y * scale);
  }
  return [xs, smooth(ys)];
}

// An exponential moving average with weight state.smooth on the past, debiased at the start.
function smooth(ys) {
  const a = state.smooth;
  if (!a) return ys;
  let m = 0, w = 0;
  return ys.map((y) => {
    if (y === null) return null;
    m = a * m + (1 - a) * y;
    w = a * w + (1 - a);
    return m / w;
  });
}

// A configuration's runs pooled by position (the i-th point of each run): x, mean, mean + std, mean - std
// (the order of the chart's series: the line, then its band's upper and lower edge).
function pooledSeries(group) {
  const parts = group.runs.map((i) => runSeries(data.runs[i])).filter((s) => s && s[0].length);
  if (!parts.length) return null;
  const n = Math.max(...parts.map((p) => p[0].length));
  const xs = [], mean = [], lo = [], hi = [];
  for (let i = 0; i < n; i++) {
    const at = parts.filter((p) => i < p[0].length);
    const x = at.reduce((s, p) => s + p[0][i], 0) / at.length;
    if (xs.length && x <= xs[xs.length - 1]) continue;
    const v = at.map((p) => p[1][i]).filter((y) => y !== null);
    const m = v.length ? v.reduce((s, y) => s + y, 0) / v.length : null;
    const sd = v.length > 1 ? Math.sqrt(v.reduce((s, y) => s + (y - m) ** 2, 0) / (v.length - 1)) : 0;
    xs.push(x); mean.push(m); lo.push(m === null ? null : m - sd); hi.push(m === null ? null : m + sd);
  }
  return [xs, mean, hi, lo];
}

function colour(group, index) {
  const kind = data.groups[group] ? data.groups[group].attention : "";
  return KIND_COLOURS[kind] || PALETTE[index % PALETTE.length];
}

// The chart's lines: {name, colour, dash, columns: [x, y] or [x, mean, hi, lo]}.
function lines() {
  const out = [];
  const perKind = {};
  const dash = (g) => {
    const kind = data.groups[g].attention;
    perKind[kind] = perKind[kind] || [];
    if (!perKind[kind].includes(g)) perKind[kind].push(g);
    return DASHES[perKind[kind].indexOf(g) % DASHES.length];
  };
  const shown = (g) => state.task === "all" || (g !== undefined && data.groups[g].env === state.task);
  if (state.pooled) {
    data.groups.forEach((g, gi) => {
      const s = shown(gi) ? pooledSeries(g) : null;
      if (s) out.push({ name: g.label, colour: colour(gi, gi), dash: dash(gi), columns: s });
    });
  } else {
    data.runs.forEach((r, ri) => {
      const s = shown(r.group) ? runSeries(r) : null;
      if (s) out.push({ name: r.id, colour: colour(r.group, ri),
        dash: r.group !== undefined ? dash(r.group) : [], columns: s });
    });
  }
  return out;
}

function drawChart() {
  const box = document.getElementById("chart");
  if (chart) { chart.destroy(); chart = null; }
  box.replaceChildren();
  const ls = lines();
  document.body.dataset.lines = String(ls.length);
  if (!ls.length) { box.append(el("p", {}, "no run logs this metric")); return; }
  // A log axis shows no value <= 0: a line leaves a gap there, a band's lower edge stops at the
  // smallest value drawn (the axis' floor) instead of breaking the fill.
  let floor = Infinity;
  for (const l of ls) for (const y of l.columns[1]) if (y !== null && y > 0 && y < floor) floor = y;
  const positive = (v, edge) => (!state.logy || v === null || v > 0 ? v : edge ? floor : null);
  const tables = [], series = [{ label: state.x }], bands = [], legendHidden = [];
  for (const l of ls) {
    const cols = l.columns.map((c, i) => (i ? c.map((v) => positive(v, i > 1)) : c));
    tables.push(cols);
    const show = !state.hidden.has(l.name);
    series.push({ label: l.name, stroke: l.colour, dash: l.dash, width: 1.5, spanGaps: true, show });
    if (cols.length === 4) {  // the band's edges: drawn as a fill between them, not as lines
      const top = series.length;
      for (const edge of ["+1 std", "-1 std"]) {
        series.push({ label: `${l.name} ${edge}`, stroke: "transparent", spanGaps: true, show, points: { show: false } });
        legendHidden.push(series.length - 1);
      }
      bands.push({ series: [top, top + 1], fill: l.colour + "33" });
    }
  }
  const joined = uPlot.join(tables);  // the lines' x values aligned
  const opts = {
    width: Math.max(480, Math.min(box.clientWidth || window.innerWidth - 40, 1400)),
    height: 420,
    series,
    bands,
    scales: { x: { time: false }, y: state.logy ? { distr: 3 } : {} },
    axes: [{ label: { epoch: "epochs", images: "training images", minutes: "minutes" }[state.x] },
      { label: metricLabel(state.metric), size: 60 }],
    legend: { live: true },
    cursor: { focus: { prox: 16 } },
    focus: { alpha: 0.3 },
    hooks: { setSeries: [(u, i, opts) => { if (i && opts && "show" in opts) rememberShown(u.series[i].label, opts.show); }] },
  };
  chart = new uPlot(opts, joined, box);
  const rows = box.querySelectorAll(".u-legend tr.u-series");
  for (const i of legendHidden) if (rows[i]) rows[i].style.display = "none";
}

// Hiding a line (legend click or table box) hides its band too and is kept across reloads.
function rememberShown(name, show) {
  if (/ [+-]1 std$/.test(name)) return;
  if (show) state.hidden.delete(name); else state.hidden.add(name);
  if (chart) {
    chart.series.forEach((s, i) => {
      if (i && (s.label === `${name} +1 std` || s.label === `${name} -1 std`) && s.show !== show) chart.setSeries(i, { show });
    });
  }
  for (const box of document.querySelectorAll("input.show")) if (box.dataset.name === name) box.checked = show;
  document.querySelectorAll("tr[data-name]").forEach((tr) => tr.classList.toggle("hidden", state.hidden.has(tr.dataset.name)));
}

function toggle(name, show) {
  if (chart) {
    const i = chart.series.findIndex((s, j) => j && s.label === name);
    if (i > 0) { chart.setSeries(i, { show }); return; }
  }
  rememberShown(name, show);
}

function showBox(name) {
  const box = el("input", { type: "checkbox", className: "show", checked: !state.hidden.has(name) });
  box.dataset.name = name;
  box.addEventListener("change", () => toggle(name, box.checked));
  return box;
}

function drawTables() {
  const differ = [...new Set(data.groups.flatMap((g) => Object.keys(g.differ)))];
  const gt = document.getElementById("groups");
  gt.replaceChildren(el("tr", {}, el("th", {}, "configuration"), el("th", {}, "task"), el("th", {}, "attention"),
    el("th", {}, "n"), el("th", {}, "best val error %"), el("th", {}, "test error % at the val-selected epoch"),
    el("th", {}, "95% interval"), el("th", {}, "options that differ"), el("th", {}, "state"), el("th", {}, "ETA")));
  data.groups.forEach((g) => {
    const pm = (v) => (v[0] === null ? "-" : fmt(v[0]) + (v[1] === null ? "" : " ± " + fmt(v[1])));
    const done = g.runs.every((i) => ["finished", "stopped at target"].includes(data.runs[i].status));
    const state_ = g.running ? el("span", { class: "running" }, `${g.running} running`) : done ? "finished" : "unfinished";
    const tr = el("tr", { "data-name": g.label, class: "group" },
      el("td", {}, showBox(g.label), g.label), el("td", { class: "text" }, g.env), el("td", { class: "text" }, g.attention),
      el("td", {}, g.n), el("td", {}, pm(g.best_val)), el("td", {}, pm(g.test)),
      el("td", {}, g.ci95 ? `[${fmt(g.ci95[0])}, ${fmt(g.ci95[1])}]` : "-"),
      el("td", { class: "text" }, differ.map((k) => `${k}=${g.differ[k]}`).join(", ")),
      el("td", { class: "text" }, state_), el("td", {}, fmtTime(g.eta_s)));
    tr.classList.toggle("hidden", state.hidden.has(g.label));
    gt.append(tr);
  });
  const rt = document.getElementById("runs");
  rt.replaceChildren(el("tr", {}, el("th", {}, "run"), el("th", {}, "configuration"), el("th", {}, "seed"),
    el("th", {}, "epoch"), el("th", {}, "state"), el("th", {}, "best val error % (epoch)"), el("th", {}, "its test error %"),
    el("th", {}, "last val error %"), el("th", {}, "images/s"), el("th", {}, "ETA")));
  data.runs.forEach((r) => {
    const tr = el("tr", { class: "run", "data-run": r.id, "data-name": r.id, title: r.file },
      el("td", {}, showBox(r.id), r.id), el("td", { class: "text" }, r.group !== undefined ? data.groups[r.group].label : "-"),
      el("td", {}, r.seed ?? "-"), el("td", {}, `${r.epoch}/${r.epochs}`),
      el("td", { class: "text" }, r.status === "running" ? el("span", { class: "running" }, "running") : r.status),
      el("td", {}, r.best_val === null ? "-" : `${fmt(r.best_val)} (${r.best_epoch})`), el("td", {}, fmt(r.test_at_best)),
      el("td", {}, fmt(r.last_val)), el("td", {}, r.images_per_s === null ? "-" : Math.round(r.images_per_s).toLocaleString("en")),
      el("td", {}, fmtTime(r.eta_s)));
    tr.classList.toggle("hidden", state.hidden.has(r.id));
    rt.append(tr);
  });
  const sk = document.getElementById("skipped");
  sk.replaceChildren(...data.skipped.map((s) => el("p", { class: "skipped" }, `skipped ${s.file}: ${s.why} (read again at the next refresh)`)));
  const pics = document.getElementById("pictures");
  const t = Date.now();
  pics.replaceChildren(...data.pictures.map((p) => {
    const img = el("img", { src: `${p.src}?t=${t}`, alt: p.caption });
    img.onload = () => { img.dataset.loaded = "1"; };
    return el("figure", {}, img, el("figcaption", {}, p.caption));
  }));
}

function fillControls() {
  const tasks = [...new Set(data.groups.map((g) => g.env))];
  if (state.task !== "all" && !tasks.includes(state.task)) state.task = "all";
  document.getElementById("task").replaceChildren(...["all", ...tasks].map((t) =>
    el("option", { value: t, selected: t === state.task }, t === "all" ? "all tasks" : t)));
  const sel = document.getElementById("metric");
  const ms = metrics();
  if (!ms.includes(state.metric) && ms.length) state.metric = ms[0];
  sel.replaceChildren(...ms.map((m) => el("option", { value: m, selected: m === state.metric }, metricLabel(m))));
  document.getElementById("xaxis").value = state.x;
  document.getElementById("smooth").value = state.smooth;
  document.getElementById("smooth-value").textContent = state.smooth;
  document.getElementById("logy").checked = state.logy;
  document.getElementById("pooled").checked = state.pooled;
}

function render() {
  document.getElementById("stamp").textContent = `${data.runs.length} runs in ${data.groups.length} configurations, ` +
    `read at ${data.stamp}` + (data.every ? `; the data reloads every ${data.every} s` : "");
  fillControls();
  drawTables();
  drawChart();
  document.body.dataset.ready = "1";
}

function bindControls() {
  const on = (id, f) => document.getElementById(id).addEventListener(id === "smooth" ? "input" : "change", (e) => {
    f(e.target);
    if (data) { fillControls(); drawChart(); }
  });
  on("task", (t) => { state.task = t.value; });
  on("metric", (t) => { state.metric = t.value; });
  on("xaxis", (t) => { state.x = t.value; });
  on("smooth", (t) => { state.smooth = Number(t.value); });
  on("logy", (t) => { state.logy = t.checked; });
  on("pooled", (t) => { state.pooled = t.checked; });
}

// data.js calls this: the first time and after every reload.
function glimpseData(d) {
  data = d;
  render();
  document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
  if (d.every > 0) {
    setTimeout(() => {
      const s = document.createElement("script");
      s.src = `data.js?t=${Date.now()}`;
      s.onload = () => s.remove();
      s.onerror = () => { s.remove(); glimpseData(data); };  // mid-write or gone: try again next period
      document.body.append(s);
    }, d.every * 1000);
  }
}

window.glimpseDashboard = { state, chart: () => chart, data: () => data, lines, toggle };
bindControls();  // the page loads this script after its controls
