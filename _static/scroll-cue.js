/* Wide content on a narrow screen: a figure or cell output wider than its
   box scrolls sideways inside it (_static/a11y.css).  Say so: a short line
   before the box ("Wider than the screen: scroll sideways"), a dashed right
   edge, and the box reachable with Tab so that the arrow keys scroll it.
   Re-measured when the window is resized; nothing is shown where everything
   fits.  jupyter-book adds every script of _static/ to every page. */
(function () {
  "use strict";
  var SELECTOR = ".bd-article figure, .bd-article .cell_output, .bd-article .cell_output .text_html, " +
                 ".bd-article div.math > mjx-container, .bd-article .pst-scrollable-table-container, " +
                 ".bd-article table.indextable";
  var HINT = "aukbook-scroll-hint";
  var LABEL = "wide content";
  var count = 0;

  // the line goes before the box, or before a display equation's div.math
  // (the equation scrolls inside its MathJax container)
  function anchorOf(box) {
    return box.tagName.toLowerCase() === "mjx-container" ? box.parentElement : box;
  }

  function mark(box) {
    var wide = box.scrollWidth > box.clientWidth + 1;
    var anchor = anchorOf(box);
    var hint = anchor.previousElementSibling;
    var has = hint && hint.classList.contains(HINT);
    if (wide && !has) {
      hint = document.createElement("p");
      hint.className = HINT;
      hint.textContent = "Wider than the screen: scroll sideways \u2192";
      anchor.parentNode.insertBefore(hint, anchor);
      box.classList.add("aukbook-scrolls");
      if (box !== anchor) return;       // MathJax keeps its own focus and labels
      box.setAttribute("tabindex", "0");
      if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
        // each region its own name (axe's landmark-unique)
        count += 1;
        box.setAttribute("aria-label", LABEL + " " + count + ", scrolls sideways");
        box.setAttribute("role", "region");
      }
    } else if (!wide && has) {
      hint.remove();
      box.classList.remove("aukbook-scrolls");
      if (box !== anchor) return;
      if ((box.getAttribute("aria-label") || "").indexOf(LABEL + " ") === 0) {
        box.removeAttribute("aria-label");
        box.removeAttribute("role");
      }
      box.removeAttribute("tabindex");
    }
  }

  function markAll() {
    document.querySelectorAll(SELECTOR).forEach(mark);
  }
  // the page check (checks/check_html.py) calls it after setting a viewport
  window.aukbookScrollCue = markAll;

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(markAll, 150);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", later);
  } else {
    later();
  }
  window.addEventListener("load", later);
  window.addEventListener("resize", later);
})();
