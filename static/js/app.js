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
  // Limits checked before sending (data-max-chars on a text box, data-max-bytes on a file input):
  // over one, the form is not sent, so the box keeps its text, and the field says why, as the
  // server would (data-too-long / data-too-large, with {length} or {size} filled in).
  function codePoints(text) {
    text = text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");  // counted as the server counts
    var pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g);
    return text.length - (pairs ? pairs.length : 0);
  }
  function fieldError(field, message) {
    var id = field.id + "-error", box = document.getElementById(id), wrap = field.closest(".field");
    if (!message) {
      if (box && box.dataset.limit) { box.remove(); field.setAttribute("aria-invalid", "false"); }
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.className = "error";
      box.id = id;
      box.setAttribute("role", "alert");
      (wrap || field.parentNode).appendChild(box);
      var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (described.indexOf(id) < 0) { described.push(id); field.setAttribute("aria-describedby", described.join(" ")); }
    }
    box.dataset.limit = "1";
    box.textContent = "";
    var p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
    if (wrap) { wrap.classList.add("has-error"); }
    field.setAttribute("aria-invalid", "true");
  }
  function overLimit(field) {
    if (field.dataset.maxChars && field.value) {
      var length = codePoints(field.value);
      if (length > Number(field.dataset.maxChars)) {
        return field.dataset.tooLong.replace("{length}", length.toLocaleString("en-US"));
      }
    }
    if (field.dataset.maxBytes && field.files && field.files[0] && field.files[0].size > Number(field.dataset.maxBytes)) {
      return field.dataset.tooLarge.replace("{size}", (Math.round(field.files[0].size / 1e5) / 10) + " MB");
    }
    return "";
  }
  document.addEventListener("submit", function (event) {
    var first = null;
    event.target.querySelectorAll("[data-max-chars], [data-max-bytes]").forEach(function (field) {
      var message = overLimit(field);
      fieldError(field, message);
      if (message && !first) { first = field; }
    });
    if (first) { event.preventDefault(); first.focus(); }
  }, true);

  // A box with data-enter-clicks (the review checklist's "add a question"): Enter presses the
  // button it names; Shift+Enter, or Enter that ends an input method's composition, types as usual.
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || !box.dataset || !box.dataset.enterClicks) { return; }
    var button = document.getElementById(box.dataset.enterClicks);
    if (button) { event.preventDefault(); button.click(); }
  });

  // Forms that destroy something ask first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);
})();
