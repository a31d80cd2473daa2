// prep drill: keyboard shortcuts and ratings without a full page reload.
// Without JavaScript the drill still works: "Show answer" is a link and ratings are plain forms.
(function () {
  "use strict";
  var shownAt = Date.now();
  var busy = false;

  function root() { return document.getElementById("drill"); }

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
    var good = form.querySelector("button[data-key='3']");
    if (good) { good.focus({preventScroll: true}); }
    return true;
  }

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
    if (root() && root().dataset.revealed === "1") { typeset(); }
  }

  function submitForm(form, submitter) {
    if (busy) { return; }
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

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#show-answer");
    if (link && reveal()) { event.preventDefault(); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!root() || !form.closest("#drill")) { return; }
    event.preventDefault();
    submitForm(form, event.submitter);
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") { return; }
    var d = root();
    if (!d) { return; }
    if (event.key === " " || event.key === "Enter" && d.dataset.revealed !== "1" && tag !== "button" && tag !== "a") {
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
      return;
    }
    if (event.key === "?") {
      var help = d.querySelector(".shortcuts");
      if (help) { help.classList.toggle("highlighted"); help.scrollIntoView({block: "nearest"}); }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (root() && root().dataset.revealed === "1") { typeset(); }
  });
})();
