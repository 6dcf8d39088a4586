/* Keyboard, screen-reader and small-screen access to the book's plotly explorers.
 *
 * Loaded (deferred, after plotly.js) by builders/book_html.py on the pages that
 * draw a plotly figure.  For every figure with sliders it
 *   - replaces plotly's SVG sliders, which no keyboard or screen reader can
 *     use, by native range inputs under the figure (Tab reaches them, the
 *     arrow keys move them, a screen reader announces "class share p = 0.1");
 *     moving one runs exactly the slider step plotly would run;
 *   - writes the figure's readout (its title and any text the plot reads out,
 *     e.g. AUC, AUK, maximum kappa) as text into an aria-live region under
 *     the controls, so that it is announced after every move;
 *   - on a narrow figure (a phone) leaves the readout to that text, which
 *     wraps, instead of the plot's one-line title and in-plot text, which
 *     would be cut off or cover the curves, and hides a legend drawn inside
 *     the plot (the figure's caption names the colours);
 *   - after every redraw hides an in-plot label that would overlap another
 *     (on a phone the iso-kappa lines' labels crowd together): the later
 *     annotations (the optimum, the pivot) are kept first, then the earlier
 *     ones that still fit; at full width every label fits and none is hidden.
 */
(function () {
  "use strict";
  var NARROW = 560;   // px: below this width the readout lives under the figure only

  function plain(html) {
    var box = document.createElement("div");
    box.innerHTML = String(html == null ? "" : html).replace(/<br\s*\/?>/gi, "; ");
    return (box.textContent || "").replace(/\s+/g, " ").trim();
  }

  function titleOf(layout) {
    var t = layout && layout.title;
    return typeof t === "string" ? t : (t && t.text) || "";
  }

  function setup(gd) {
    var sliders = (gd.layout && gd.layout.sliders) || [];
    if (!sliders.length || gd.getAttribute("data-aukbook-controls")) return;
    gd.setAttribute("data-aukbook-controls", "1");
    var state = { title: titleOf(gd.layout), narrow: false, legend: gd.layout.showlegend === true };
    var textTraces = [];
    gd.data.forEach(function (tr, i) { if (tr.mode === "text") textTraces.push(i); });

    var box = document.createElement("div");
    box.className = "aukbook-controls";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Figure controls");
    var desc = gd.closest(".aukbook-figure");
    desc = desc && desc.querySelector(".aukbook-figure-desc");
    if (desc && desc.id) box.setAttribute("aria-describedby", desc.id);
    var live = document.createElement("p");
    live.className = "aukbook-readout";
    live.id = gd.id + "-readout";
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");

    function readout() {
      var parts = [];
      if (state.title) parts.push(plain(state.title));
      textTraces.forEach(function (i) {
        var tr = gd.data[i];
        if (tr.visible !== false && tr.visible !== "legendonly" && tr.text != null) {
          parts.push(plain([].concat(tr.text).join(" ")));
        }
      });
      return parts.join(". ");
    }

    function refresh() {
      var text = readout();
      if (live.textContent !== text) live.textContent = text;
    }

    // two panels side by side (the ROC and kappa curves): on a phone each
    // would be a third of the screen wide, the right panel's axis title in the
    // left panel and the two x-axis titles run together; there they are
    // stacked, one above the other, and the figure grows to hold both
    var L0 = gd.layout;
    var panels = L0.xaxis2 && L0.yaxis2 && !L0.xaxis3 && L0.xaxis && L0.xaxis.domain ? {
      x: L0.xaxis.domain.slice(), x2: L0.xaxis2.domain.slice(),
      y: (L0.yaxis.domain || [0, 1]).slice(), y2: (L0.yaxis2.domain || [0, 1]).slice(),
      height: L0.height || gd.clientHeight,
      titles: (L0.annotations || []).map(function (a) {
        return a.xref === "paper" && a.yref === "paper" ? { x: a.x, y: a.y } : null;
      })
    } : null;

    function stack(layout, narrow) {
      if (!panels) return;
      var top = [0.56, 1], bottom = [0, 0.42];
      layout["xaxis.domain"] = narrow ? [0, 1] : panels.x;
      layout["xaxis2.domain"] = narrow ? [0, 1] : panels.x2;
      layout["yaxis.domain"] = narrow ? top : panels.y;
      layout["yaxis2.domain"] = narrow ? bottom : panels.y2;
      layout.height = narrow ? Math.round(panels.height * 1.4) : panels.height;
      panels.titles.forEach(function (t, k) {      // the panels' titles follow them
        if (!t) return;
        var first = t.x < (panels.x[1] + panels.x2[0]) / 2;
        layout["annotations[" + k + "].x"] = narrow ? 0.5 : t.x;
        layout["annotations[" + k + "].y"] = narrow ? (first ? top[1] : bottom[1]) : t.y;
      });
      // plotly >= 6 wraps the figure in a div of fixed height
      if (gd.parentNode && gd.parentNode.style.height) {
        gd.parentNode.style.height = layout.height + "px";
      }
    }

    function fit() {   // the plot's own title and in-plot text only where they fit
      var narrow = gd.clientWidth > 0 && gd.clientWidth < NARROW;
      if (narrow === state.narrow) return Promise.resolve();
      state.narrow = narrow;
      var layout = { "title.text": narrow ? "" : state.title };
      // a legend inside the plot covers the axis on a phone; the caption names the colours
      if (state.legend) layout.showlegend = !narrow;
      stack(layout, narrow);
      var done = Plotly.relayout(gd, layout);
      if (textTraces.length) {
        done = done.then(function () {
          return Plotly.restyle(gd, { mode: narrow ? "none" : "text" }, textTraces);
        });
      }
      return done;
    }

    var inputs = sliders.map(function (sl, i) {
      var prefix = (sl.currentvalue && sl.currentvalue.prefix) || "";
      var name = prefix.replace(/[\s=:]+$/, "") || "step";
      var id = gd.id + "-slider-" + i;
      var row = document.createElement("div");
      row.className = "aukbook-control";
      var label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = name;
      var value = document.createElement("output");   // shown; read as aria-valuetext
      value.htmlFor = id;
      value.setAttribute("aria-hidden", "true");
      var input = document.createElement("input");
      input.type = "range";
      input.id = id;
      input.className = "aukbook-slider";
      input.min = 0;
      input.max = sl.steps.length - 1;
      input.step = 1;
      input.value = sl.active || 0;
      input.setAttribute("aria-describedby", live.id);
      var first = document.createElement("span"), last = document.createElement("span");
      first.className = last.className = "aukbook-slider-end";
      first.setAttribute("aria-hidden", "true");
      last.setAttribute("aria-hidden", "true");
      first.textContent = sl.steps[0].label;
      last.textContent = sl.steps[sl.steps.length - 1].label;
      function show(k) {
        value.textContent = " = " + sl.steps[k].label;
        input.setAttribute("aria-valuetext", name + " = " + sl.steps[k].label);
      }
      show(+input.value);
      input.addEventListener("input", function () {
        var k = +input.value, step = sl.steps[k], args = step.args || [];
        show(k);
        gd.layout.sliders[i].active = k;
        if (step.method === "update" && args[1] && "title.text" in args[1]) {
          state.title = args[1]["title.text"];
          if (state.narrow) {       // keep the plot's title empty on a narrow figure
            args = [args[0], Object.assign({}, args[1], { "title.text": "" })].concat(args.slice(2));
          }
        }
        var method = Plotly[step.method || "restyle"];
        Promise.resolve(method.apply(null, [gd].concat(args))).then(refresh);
      });
      // the slider between its two end values, kept together on one line, so
      // that a wrapped row never reads "p = 0.1 0.01"
      var range = document.createElement("span");
      range.className = "aukbook-slider-range";
      range.appendChild(first);
      range.appendChild(input);
      range.appendChild(last);
      row.appendChild(label);
      row.appendChild(value);
      row.appendChild(range);
      box.appendChild(row);
      return input;
    });
    box.appendChild(live);
    // after the figure; plotly >= 6 puts it in a div of fixed height: after that
    var anchor = gd.parentNode && gd.parentNode.style.height ? gd.parentNode : gd;
    anchor.parentNode.insertBefore(box, anchor.nextSibling);

    gd.on("plotly_afterplot", function () { declutter(gd); });

    var hide = {};
    sliders.forEach(function (_, i) { hide["sliders[" + i + "].visible"] = false; });
    Plotly.relayout(gd, hide).then(fit).then(refresh);
    var timer = null;
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { fit().then(refresh); }, 150);
    });
    return inputs;
  }

  function declutter(gd) {   // no two in-plot labels on top of each other
    var kept = [];
    var labels = Array.prototype.slice.call(gd.querySelectorAll("g.annotation")).reverse();
    labels.forEach(function (g) {
      g.style.display = "";
      var r = (g.querySelector(".annotation-text-g") || g).getBoundingClientRect();
      if (!r.width) return;
      var hit = kept.some(function (k) {
        return Math.min(r.right, k.right) - Math.max(r.left, k.left) > 1 &&
               Math.min(r.bottom, k.bottom) - Math.max(r.top, k.top) > 1;
      });
      if (hit) g.style.display = "none";
      else kept.push(r);
    });
  }

  function whenDrawn(gd, tries) {
    if (gd._fullLayout && gd.layout && gd.data) return setup(gd);
    if (tries > 0) setTimeout(function () { whenDrawn(gd, tries - 1); }, 50);
  }

  function start() {
    if (typeof Plotly === "undefined") return;
    Array.prototype.forEach.call(document.querySelectorAll(".plotly-graph-div"),
                                 function (gd) { whenDrawn(gd, 200); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
