// prep — small progressive enhancements for every page (no inline scripts: the CSP forbids them).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    // Registration: default the time zone to the browser's.
    document.querySelectorAll("input[data-browser-timezone]").forEach(function (input) {
      try {
        var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (tz && (!input.value || input.value === "UTC")) { input.value = tz; }
      } catch (e) { /* keep UTC */ }
    });
  });
  // Forms that destroy something ask first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);
})();
