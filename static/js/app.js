// prep — small progressive enhancements for every page (no inline scripts: the CSP forbids them).
(function () {
  "use strict";

  // A region that scrolls sideways (wide code, tables, display math on a phone) must be reachable
  // by keyboard to be scrolled: make it focusable, and only while it actually scrolls.
  // A table wrapper that scrolls also says so (data-scrolls: a shadow and the page's translated hint).
  var SCROLLERS = ".explanation-body pre, .explanation-body table, .explanation-body .katex-display, .table-wrap";
  function focusableScrollers(root) {
    (root || document).querySelectorAll(SCROLLERS).forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1;
      if (el.classList.contains("table-wrap")) {
        if (scrolls) {
          el.dataset.scrolls = "1";
          el.dataset.hint = document.body.dataset.scrollHint || "";
        } else {
          delete el.dataset.scrolls;
        }
      }
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

  // The header menu on a phone: the <details> summary becomes a real button (aria-expanded), the
  // menu stays open on wide screens, and Escape or a tap outside closes it.
  function headerMenu() {
    var menu = document.getElementById("nav-menu");
    if (!menu || !window.matchMedia) { return; }
    var summary = menu.querySelector("summary");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "nav-toggle";
    button.id = "nav-toggle";
    button.setAttribute("aria-controls", "nav-menu-links");
    button.innerHTML = summary.innerHTML;  // the page's translated label
    menu.parentNode.insertBefore(button, menu);
    document.documentElement.classList.add("js-nav");
    var wide = window.matchMedia("(min-width: 40.01rem)");
    function show(open) {
      menu.open = open;
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    function fit() { show(wide.matches); }
    button.addEventListener("click", function () { show(!menu.open); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.open && !wide.matches) { show(false); button.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (menu.open && !wide.matches && !menu.contains(event.target) && !button.contains(event.target)) { show(false); }
    });
    if (wide.addEventListener) { wide.addEventListener("change", fit); }
    fit();
  }

  document.addEventListener("DOMContentLoaded", function () {
    headerMenu();
    // Registration: default the time zone to the browser's.
    document.querySelectorAll("input[data-browser-timezone]").forEach(function (input) {
      try {
        var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (tz && (!input.value || input.value === "UTC")) { input.value = tz; }
      } catch (e) { /* keep UTC */ }
    });
    focusableScrollers(document);
    // A plan being made in the background: look again in a few seconds, unless the reader has
    // started typing in a form on the page.
    var waiting = document.querySelector("[data-reload-after]");
    if (waiting) {
      var typed = false;
      document.addEventListener("input", function () { typed = true; });
      setTimeout(function () { if (!typed) { window.location.reload(); } },
                 1000 * (Number(waiting.getAttribute("data-reload-after")) || 3));
    }
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
