// prep drill: keyboard shortcuts, a shortcuts dialog, screen-reader announcements and ratings
// without a full page reload. Without JavaScript the drill still works: "Show answer" is a link
// and ratings are plain forms. Every user-visible text comes from the page (translated there).
//
// Keys (listed in the page's #shortcuts-dialog): Space/Enter show the answer, 1–4 rate,
// U undo, ? show/hide the shortcuts, Esc close them. Keys typed into a field, and Space/Enter on
// a focused button or link, keep their usual meaning.
//
// Key points (the answer side's checklist): Tab moves between them and Space ticks one (the
// checkboxes' own keys); every tick updates the suggested rating, looked up in the table the
// page carries (the rule is prep.drill.self_grading), and Enter confirms it. The rating keys
// 1–4 keep working on a checkbox.
(function () {
  "use strict";
  var shownAt = Date.now();
  var busy = false;

  function root() { return document.getElementById("drill"); }

  // The live region sits outside <main>, so it survives the page swaps below.
  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region || !text) { return; }
    region.textContent = "";
    // A fresh text node after a tick makes screen readers announce even a repeated message.
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  function clip(text, n) {
    text = (text || "").replace(/\s+/g, " ").trim();
    return text.length > n ? text.slice(0, n - 1) + "…" : text;
  }

  function typeset() {
    if (window.renderMathInElement) {
      document.querySelectorAll(".explanation-body").forEach(function (el) {
        window.renderMathInElement(el, {
          delimiters: [{left: "\\[", right: "\\]", display: true}, {left: "\\(", right: "\\)", display: false}],
          throwOnError: false
        });
      });
    }
  }

  function reveal() {
    var d = root();
    if (!d || d.dataset.revealed === "1") { return false; }
    var answer = document.getElementById("answer");
    var form = document.getElementById("rate-form");
    var row = d.querySelector(".reveal-row");
    if (!answer || !form) { return false; }
    answer.hidden = false;
    form.hidden = false;
    if (row) { row.hidden = true; }
    d.dataset.revealed = "1";
    typeset();
    if (window.prepFocusableScrollers) { window.prepFocusableScrollers(answer); }
    collapseOnPhone();
    var first = answer.querySelector("input.key-point");
    var good = form.querySelector("button[data-key='3']");
    if (first) { first.focus({preventScroll: true}); } else if (good) { good.focus({preventScroll: true}); }
    // The answer's beginning, then how to go on; the full text is right there to read on.
    announce([d.dataset.msgAnswer, clip(answer.innerText, 280), d.dataset.msgRate].join(" "));
    return true;
  }

  // --- key points ---------------------------------------------------------------------------
  var PHONE = "(max-width: 480px)";

  // On a phone the checklist comes first and the full explanation waits behind its summary.
  function collapseOnPhone() {
    var details = document.getElementById("explanation-details");
    if (details && window.matchMedia && window.matchMedia(PHONE).matches) { details.open = false; }
  }

  // A touch screen with no keyboard (phone.css hides the key hints for the same query): no "press 3".
  function touchOnly() {
    return !!(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);
  }

  function suggestedButton() {
    var form = document.getElementById("rate-form");
    return form ? form.querySelector("button.rating.suggested") : null;
  }

  function suggest() {
    var box = document.getElementById("key-points");
    var form = document.getElementById("rate-form");
    var status = document.getElementById("key-point-suggestion");
    if (!box || !form) { return; }
    var total = parseInt(box.dataset.total, 10);
    var ticked = box.querySelectorAll("input.key-point:checked").length;
    var quick = (Date.now() - shownAt) <= parseInt(box.dataset.quickMs, 10);
    var table = (ticked === total && quick ? box.dataset.quick : box.dataset.slow).split(",");
    var rating = table[ticked];
    form.querySelectorAll("button.rating").forEach(function (b) {
      var on = b.dataset.key === rating;
      b.classList.toggle("suggested", on);
      if (on) { b.setAttribute("aria-describedby", "key-point-suggestion"); } else { b.removeAttribute("aria-describedby"); }
      if (on && status) { status.textContent = touchOnly() ? b.dataset.suggestedTouch : b.dataset.suggested; }
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.classList && event.target.classList.contains("key-point")) { suggest(); }
  });

  function swapPage(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var newMain = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!newMain || !main) { window.location.href = url; return; }
    main.innerHTML = newMain.innerHTML;
    document.title = doc.title;
    if (url) { history.replaceState(null, "", url); }
    shownAt = Date.now();
    var heading = document.getElementById("question-text");
    if (heading) { heading.focus({preventScroll: false}); }
    var d = root();
    if (d && d.dataset.revealed === "1") { typeset(); collapseOnPhone(); }
    if (window.prepFocusableScrollers) { window.prepFocusableScrollers(main); }
    var flashes = main.querySelector(".flashes");
    var parts = [flashes ? flashes.innerText : ""];
    if (d && heading) {
      parts.push(d.dataset.done === "1" ? heading.innerText : (d.dataset.msgNext || "") + " " + heading.innerText);
    }
    announce(clip(parts.join(" "), 400));
    initShortcuts();
    if (window.prepPrefetch && window.prepPrefetch.enabled()) { window.prepPrefetch.init(); }
  }

  document.addEventListener("prep:card-shown", function () { shownAt = Date.now(); });

  function submitForm(form, submitter) {
    if (busy) { return; }
    var prefetch = window.prepPrefetch;
    // With the prefetching drill a rating shows the next card at once (drill_prefetch.js); the
    // other forms (undo, bury, suspend) wait until the pending ratings are in, then work as before.
    if (prefetch && prefetch.enabled()) {
      if (prefetch.rate(form, submitter, Date.now() - shownAt)) { return; }
      busy = true;
      prefetch.flush().then(function () { busy = false; sendForm(form, submitter); });
      return;
    }
    sendForm(form, submitter);
  }

  function sendForm(form, submitter) {
    busy = true;
    var data = new FormData(form);
    if (submitter && submitter.name) { data.set(submitter.name, submitter.value); }
    var duration = form.querySelector("input[name='duration_ms']");
    if (duration) { data.set("duration_ms", String(Date.now() - shownAt)); }
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.action, {method: "POST", body: data, credentials: "same-origin",
                        headers: {"X-Requested-With": "fetch"}})
      .then(function (response) {
        return response.text().then(function (text) { swapPage(text, response.url); });
      })
      .catch(function () { form.submit(); })
      .finally(function () { busy = false; });
  }

  // --- the shortcuts dialog -------------------------------------------------------------
  function dialog() { return document.getElementById("shortcuts-dialog"); }

  function toggleShortcuts() {
    var dlg = dialog();
    if (!dlg) { return; }
    if (dlg.open) { closeShortcuts(dlg); return; }
    if (typeof dlg.showModal === "function") {
      dlg.showModal();  // modal: focus moves in, Esc closes, focus returns on close
    } else {
      dlg.setAttribute("open", "");
    }
  }

  // Closing puts focus back on the card's heading, so Space and the rating keys work at once
  // (wherever the browser would otherwise return focus).
  function closeShortcuts(dlg) {
    dlg.close();
    var heading = document.getElementById("question-text");
    if (heading) { heading.focus({preventScroll: true}); }
  }

  function initShortcuts() {
    var open = document.getElementById("shortcuts-open");
    if (open) { open.hidden = false; }  // the dialog needs JavaScript; the text hint does not
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest) { return; }
    var link = event.target.closest("#show-answer");
    if (link && reveal()) { event.preventDefault(); return; }
    if (event.target.closest("#shortcuts-open")) { event.preventDefault(); toggleShortcuts(); return; }
    // A click on the backdrop (outside the dialog box) closes it.
    var dlg = dialog();
    if (dlg && dlg.open && event.target === dlg) { closeShortcuts(dlg); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!root() || !form.closest("#drill") || form.method === "dialog") { return; }
    event.preventDefault();
    submitForm(form, event.submitter);
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    var onBox = tag === "input" && event.target.type === "checkbox";
    if ((tag === "input" && !onBox) || tag === "textarea" || tag === "select" || event.target.isContentEditable) { return; }
    var d = root();
    if (!d) { return; }
    var dlg = dialog();
    if (event.key === "?") {
      event.preventDefault();
      toggleShortcuts();
      return;
    }
    if (dlg && dlg.open) {
      if (event.key === "Escape") { event.preventDefault(); closeShortcuts(dlg); }
      return;  // the dialog is modal: no drill keys behind it
    }
    var onControl = tag === "button" || tag === "a" || tag === "summary";
    if (event.key === "Enter" && !onControl && d.dataset.revealed === "1") {
      var suggested = suggestedButton();  // Enter confirms the rating the ticks suggest
      if (suggested) { event.preventDefault(); submitForm(document.getElementById("rate-form"), suggested); }
      return;
    }
    if (onBox && event.key === " ") { return; }  // Space ticks the key point
    if ((event.key === " " || event.key === "Enter") && !onControl) {
      if (d.dataset.revealed !== "1") { event.preventDefault(); reveal(); }
      return;
    }
    if (/^[1-4]$/.test(event.key) && d.dataset.revealed === "1") {
      var form = document.getElementById("rate-form");
      var button = form && form.querySelector("button[data-key='" + event.key + "']");
      if (button) { event.preventDefault(); submitForm(form, button); }
      return;
    }
    if (event.key === "u" || event.key === "U") {
      var undo = d.querySelector("form[action$='/drill/undo']");
      if (undo) { event.preventDefault(); submitForm(undo, null); }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (root() && root().dataset.revealed === "1") { typeset(); collapseOnPhone(); }
    initShortcuts();
  });
})();
