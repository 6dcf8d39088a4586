/* Wide content on a narrow screen: a figure or cell output wider than its
   box scrolls sideways inside it (_static/a11y.css).  Say so: a short line
   before the box ("Wider than the screen: scroll sideways"), a dashed right
   edge, and the box reachable with Tab so that the arrow keys scroll it.
   Re-measured when the window is resized; nothing is shown where everything
   fits.  jupyter-book adds every script of _static/ to every page. */
(function () {
  "use strict";
  var SELECTOR = ".bd-article figure, .bd-article .cell_output, .bd-article .cell_output .text_html";
  var HINT = "aukbook-scroll-hint";

  function mark(box) {
    var wide = box.scrollWidth > box.clientWidth + 1;
    var hint = box.previousElementSibling;
    var has = hint && hint.classList.contains(HINT);
    if (wide && !has) {
      hint = document.createElement("p");
      hint.className = HINT;
      hint.textContent = "Wider than the screen: scroll sideways \u2192";
      box.parentNode.insertBefore(hint, box);
      box.classList.add("aukbook-scrolls");
      box.setAttribute("tabindex", "0");
      if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
        box.setAttribute("aria-label", "wide content, scrolls sideways");
        box.setAttribute("role", "region");
      }
    } else if (!wide && has) {
      hint.remove();
      box.classList.remove("aukbook-scrolls");
      if (box.getAttribute("aria-label") === "wide content, scrolls sideways") {
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
