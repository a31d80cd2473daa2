// prep — small progressive enhancements for every page (no inline scripts: the CSP forbids them).
(function () {
  "use strict";

  // A region that scrolls sideways (wide code, tables, display math on a phone) must be reachable
  // by keyboard to be scrolled: make it focusable, and only while it actually scrolls.
  var SCROLLERS = ".explanation-body pre, .explanation-body table, .explanation-body .katex-display, .table-wrap";
  function focusableScrollers(root) {
    (root || document).querySelectorAll(SCROLLERS).forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1;
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        el.dataset.scrollFocus = "1";
      } else if (!scrolls && el.dataset.scrollFocus === "1") {
        el.removeAttribute("tabindex");
        delete el.dataset.scrollFocus;
      }
    });
  }
  window.prepFocusableScrollers = focusableScrollers;

  document.addEventListener("DOMContentLoaded", function () {
    // Registration: default the time zone to the browser's.
    document.querySelectorAll("input[data-browser-timezone]").forEach(function (input) {
      try {
        var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (tz && (!input.value || input.value === "UTC")) { input.value = tz; }
      } catch (e) { /* keep UTC */ }
    });
    focusableScrollers(document);
  });
  window.addEventListener("load", function () { focusableScrollers(document); });  // after KaTeX
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { focusableScrollers(document); }, 200);
  });
  // Forms that destroy something ask first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);
})();
