// Drives scripts/dashboard's page as a reader would, with DOM events, and writes what it saw into
// <pre id="selftest">: one line "ok NAME" or "FAIL NAME: why" per check. test_dashboard.sh loads it
// after data.js in a copy of index.html and reads the lines back from headless Chromium.
"use strict";
(function () {
  const out = [];
  const check = (name, cond, why) => out.push(cond ? `ok ${name}` : `FAIL ${name}: ${why}`);
  const D = window.glimpseDashboard;
  const set = (id, value) => {
    const e = document.getElementById(id);
    if (e.type === "checkbox") e.checked = value; else e.value = value;
    e.dispatchEvent(new Event(id === "smooth" ? "input" : "change"));
  };
  const ydata = () => D.chart().data[1].filter((v) => v !== null && v !== undefined);
  try {
    check("drawn", Number(document.body.dataset.lines) >= 1, `lines ${document.body.dataset.lines}`);
    const axis = () => D.chart().axes.map((a) => a.label).join("|");  // uPlot draws them on its canvas
    check("default metric", axis().includes("val error %"), axis());

    // Metric: a training series from the menu.
    const options = [...document.getElementById("metric").options].map((o) => o.value);
    check("metric menu", options.includes("eval:test_error") && options.includes("train:loss"), options.join(","));
    set("metric", "train:loss");
    check("metric chosen", axis().includes("loss (training)"), axis());

    // X axis: minutes and images change the x values drawn.
    const xs = (v) => { set("xaxis", v); return D.chart().data[0].slice(); };
    const byEpoch = xs("epoch"), byImages = xs("images"), byMinutes = xs("minutes");
    check("x axis", byImages[byImages.length - 1] > byEpoch[byEpoch.length - 1] &&
      byMinutes[byMinutes.length - 1] !== byEpoch[byEpoch.length - 1] && axis().includes("minutes"), axis());

    // Smoothing: a moving average lies within the raw values' range and differs from them.
    set("logy", false);
    set("smooth", 0);
    const raw = ydata();
    set("smooth", 0.9);
    const smoothed = ydata();
    const lo = Math.min(...raw), hi = Math.max(...raw);
    check("smoothing", smoothed.some((v, i) => Math.abs(v - raw[i]) > 1e-9) &&
      smoothed.every((v) => v >= lo - 1e-9 && v <= hi + 1e-9), `raw ${raw.slice(0, 3)} smoothed ${smoothed.slice(0, 3)}`);
    set("smooth", 0);

    // Log axis: uPlot's log distribution on y.
    set("logy", true);
    check("log y", D.chart().scales.y.distr === 3, `distr ${D.chart().scales.y.distr}`);

    // Toggling: a configuration's box hides its line and greys its row; the state outlives a reload.
    const first = document.querySelector("tr.group input.show");
    const name = first.dataset.name;
    first.click();
    const idx = D.chart().series.findIndex((s, j) => j && s.label === name);
    check("toggle by box", idx > 0 && D.chart().series[idx].show === false &&
      document.querySelector(`tr.group[data-name="${CSS.escape(name)}"]`).classList.contains("hidden"), `series ${idx}`);
    window.glimpseData(Object.assign({}, D.data(), { every: 0 }));
    const again = D.chart().series.findIndex((s, j) => j && s.label === name);
    check("kept across reload", again > 0 && D.chart().series[again].show === false && !document.querySelector(
      `tr.group[data-name="${CSS.escape(name)}"] input.show`).checked, `series ${again}`);
    document.querySelector("tr.group input.show").click();  // the reload rebuilt the table

    // Toggling by a click on the legend entry.
    const entry = document.querySelector(".u-legend tr.u-series:nth-child(2) th");
    entry.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    check("toggle by legend", D.chart().series[1].show === false && D.state.hidden.has(D.chart().series[1].label),
      [...D.state.hidden].join(","));
    entry.dispatchEvent(new MouseEvent("click", { bubbles: true }));

    // Hover: the cursor over the plot fills the legend with the values there.
    const u = D.chart();
    u.setCursor({ left: u.bbox.width / devicePixelRatio / 2, top: u.bbox.height / devicePixelRatio / 2 });
    const values = [...document.querySelectorAll(".u-legend .u-value")].map((e) => e.textContent);
    check("hover values", values.some((v) => v !== "--" && v !== ""), values.slice(0, 4).join(","));

    // Seeds unpooled: one line per run.
    set("pooled", false);
    check("runs unpooled", Number(document.body.dataset.lines) === document.querySelectorAll("tr.run").length,
      `${document.body.dataset.lines} lines, ${document.querySelectorAll("tr.run").length} runs`);
    set("pooled", true);
  } catch (e) {
    out.push(`FAIL exception: ${e && e.stack ? e.stack.split("\n")[0] : e}`);
  }
  const pre = document.createElement("pre");
  pre.id = "selftest";
  pre.textContent = out.join("\n");
  document.body.append(pre);
})();
