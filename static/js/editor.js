// prep instructor editor: live preview through the same server-side pipeline as saving.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("editor-form");
    if (!form) { return; }
    var text = form.querySelector("textarea[name='text']");
    var preview = document.getElementById("preview");
    var problems = document.getElementById("problems");
    var token = form.querySelector("input[name='csrf_token']");
    var timer = null, seq = 0;

    function show(data) {
      preview.innerHTML = data.html;
      if (window.prepTypesetMath) { window.prepTypesetMath(preview); }
      if (window.prepFocusableScrollers) { window.prepFocusableScrollers(preview); }
      problems.innerHTML = "";
      list(data.problems, "problem-list", "problems", "error", problems.dataset.msgFix);
      list(data.warnings, "warning-list", "problems warnings", "warning", problems.dataset.msgWarn);
    }

    // One box of findings ("Line 12: ..."), each as plain text (never HTML), under a translated lead.
    function list(items, id, boxClass, itemClass, leadText) {
      if (!items || !items.length) { return; }
      var box = document.createElement("div");
      box.className = boxClass;
      box.id = id;
      if (leadText) {  // translated by the page
        var lead = document.createElement("p");
        lead.className = itemClass;
        lead.textContent = leadText;
        box.appendChild(lead);
      }
      var ul = document.createElement("ul");
      items.forEach(function (p) {
        var li = document.createElement("li");
        li.className = itemClass;
        li.textContent = p;
        ul.appendChild(li);
      });
      box.appendChild(ul);
      problems.appendChild(box);
    }

    function refresh() {
      var mine = ++seq;
      var body = new FormData();
      body.set("text", text.value);
      var area = form.querySelector("[name='area']");
      body.set("area", area ? area.value : "drafts");
      if (form.dataset.existingSlug) { body.set("existing_slug", form.dataset.existingSlug); }
      if (form.dataset.lang) { body.set("lang", form.dataset.lang); }
      fetch(form.dataset.previewUrl, {method: "POST", body: body, credentials: "same-origin",
                                      headers: {"X-CSRFToken": token ? token.value : ""}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (data && mine === seq) { show(data); } })
        .catch(function () { /* the Preview button still works */ });
    }

    text.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 400);
    });
    form.addEventListener("click", function (event) {
      var b = event.target.closest("button[name='preview']");
      if (b) { event.preventDefault(); refresh(); }
    });
    refresh();
  });
})();
