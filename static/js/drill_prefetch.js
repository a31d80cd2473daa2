// prep drill, prefetching: keeps the next cards of today's queue ready (GET /drill/batch.json), so a
// rating shows the next card at once; the rating goes to POST /drill/rate.json in the background,
// retried with backoff, and kept in localStorage while offline (sent on the `online` event and on
// page load). Each rating carries its card version and a request id: the server records it exactly
// once ("duplicate" for a resend, "conflict" when another tab rated the card first).
// drill.js calls window.prepPrefetch.rate() for the rating form and flush() before undo, bury and
// suspend (which stay full-page forms). Without JavaScript none of this runs. Texts come from the page.
(function () {
  "use strict";
  var LEGACY_KEY = "prep.drill.pending";  // before ratings were kept per account
  var KEY = LEGACY_KEY;  // set per signed-in account by init(): another account's ratings wait for it
  var DEPTH = 20;     // cards kept ready (enough to keep drilling through a tunnel)
  var LOW = 3;        // refill when fewer remain
  var queue = [];     // cards from batch.json not shown yet
  var rated = {};     // "id:version" rated on this page: never shown again
  var fetching = false, sending = null, retryTimer = null, backoff = 1000, waitingForNext = false;
  var answerHeading = "";

  function root() { return document.getElementById("drill"); }
  function enabled() { var d = root(); return !!(d && d.dataset.batchUrl && document.getElementById("rate-form")); }

  function readPending() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]") || []; } catch (e) { return []; }
  }
  function writePending(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* storage full or off */ }
  }
  function removePending(requestId) {
    writePending(readPending().filter(function (r) { return r.request_id !== requestId; }));
  }

  function requestId() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  function csrf() {
    var input = document.querySelector("#rate-form input[name='csrf_token']") ||
                document.querySelector("input[name='csrf_token']");
    return input ? input.value : "";
  }

  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region || !text) { return; }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  // --- the sync status line ---------------------------------------------------------------
  var lastMessage = "";
  function status(message) {
    var d = root(), line = document.getElementById("sync-status");
    var n = readPending().length;
    if (message) { lastMessage = message; }
    if (d) { d.dataset.pending = String(n); }
    if (!line || !d) { return; }
    var text;
    if (n === 0) { text = d.dataset.msgSynced; }
    else if (!navigator.onLine) { text = d.dataset.msgOffline + " " + d.dataset.msgPending.replace("{0}", n); }
    else { text = d.dataset.msgPending.replace("{0}", n); }
    line.textContent = (lastMessage ? lastMessage + " " : "") + text;
  }

  function setCounts(counts) {
    var d = root();
    if (!d || !counts || readPending().length) { return; }  // the server's figures lag behind pending ratings
    var set = function (cls, v) { var el = d.querySelector(".drill-counts .count." + cls); if (el) { el.textContent = String(v); } };
    set("learning", counts.learning); set("review", counts.review); set("new", counts.new);
  }

  function countDown(state) {
    var d = root();
    var cls = state === "new" ? "new" : (state === "review" ? "review" : "learning");
    var el = d && d.querySelector(".drill-counts .count." + cls);
    var v = el ? parseInt(el.textContent, 10) : NaN;
    if (el && v > 0) { el.textContent = String(v - 1); }
  }

  // --- sending ratings ------------------------------------------------------------------------
  function dropCard(id) { queue = queue.filter(function (c) { return c.id !== id; }); }

  function sendOne(record) {
    return fetch(root() ? root().dataset.rateJsonUrl : "/drill/rate.json", {
      method: "POST", credentials: "same-origin", keepalive: true,  // survives leaving the page
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(), "X-Requested-With": "fetch"},
      body: JSON.stringify(record)
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("json") >= 0;
      // Not the user's card, or a rating the server cannot read: it never will be recorded.
      if (response.status === 404 || (response.status === 400 && json)) { removePending(record.request_id); return; }
      if (!response.ok || !json) { throw new Error("HTTP " + response.status); }  // e.g. an expired form: retry
      return response.json().then(function (body) {
        removePending(record.request_id);
        (body.buried || []).forEach(dropCard);
        if (body.status === "conflict") { dropCard(record.card_id); status(body.message); announce(body.message); }
        // This rating used up the day's interview budget: the plan moved today's other bookings, so
        // the cards kept ready may no longer be today's; ask for the queue again.
        if (body.replanned) { queue = []; status(body.message); announce(body.message); }
        setCounts(body.counts);
      });
    });
  }

  // Send every pending rating, oldest first; resolves when all are in or sending failed.
  function flush() {
    if (sending) { return sending; }
    window.clearTimeout(retryTimer);
    sending = new Promise(function (resolve) {
      function next() {
        var list = readPending();
        if (!list.length) { backoff = 1000; resolve(true); return; }
        if (!navigator.onLine || !csrf()) { resolve(false); return; }
        sendOne(list[0]).then(function () { backoff = 1000; status(); next(); }, function () {
          retryTimer = window.setTimeout(flush, backoff);
          backoff = Math.min(backoff * 2, 30000);
          resolve(false);
        });
      }
      next();
    }).then(function (done) { sending = null; status(); if (done) { refill(); } return done; });
    return sending;
  }

  // --- the queue ------------------------------------------------------------------------------
  function refill() {
    var d = root();
    if (!enabled() || fetching || queue.length >= LOW || !navigator.onLine) { return Promise.resolve(); }
    fetching = true;
    return fetch(d.dataset.batchUrl + "?n=" + (DEPTH + 1 - queue.length), {credentials: "same-origin"})
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (body) {
        var pendingIds = {};
        readPending().forEach(function (r) { pendingIds[r.card_id] = true; });
        var have = {};
        queue.forEach(function (c) { have[c.id] = true; });
        var current = parseInt(root().dataset.card, 10);
        (body.cards || []).forEach(function (c) {
          if (!have[c.id] && !pendingIds[c.id] && !rated[c.id + ":" + c.version] && c.id !== current) {
            queue.push(c); have[c.id] = true;
          }
        });
        root().dataset.queued = String(queue.length);
        setCounts(body.counts);
        if (waitingForNext && queue.length) { waitingForNext = false; show(queue.shift()); }
        else if (waitingForNext && !readPending().length) { window.location.assign(d.dataset.drillUrl); }
      })
      .catch(function () { /* offline or the server is away: try again on the next rating */ })
      .then(function () { fetching = false; if (root()) { root().dataset.queued = String(queue.length); } });
  }

  function show(card) {
    var d = root();
    var form = document.getElementById("rate-form");
    var answer = document.getElementById("answer");
    var heading = document.getElementById("question-text");
    d.querySelector(".card-face .card-kind").innerHTML = card.kind_html;
    heading.textContent = card.question;
    heading.setAttribute("lang", card.lang);
    answer.innerHTML = answerHeading + card.answer_html;
    answer.hidden = true;
    form.hidden = true;
    var row = d.querySelector(".reveal-row");
    if (row) { row.hidden = false; }
    d.dataset.revealed = "0";
    var old = d.dataset.card;
    d.dataset.card = String(card.id);
    d.dataset.state = card.state;
    form.elements.card_id.value = String(card.id);
    form.elements.version.value = String(card.version);
    ["token", "shown_at"].forEach(function (name) { if (form.elements[name]) { form.elements[name].value = ""; } });
    var suggestion = document.getElementById("key-point-suggestion");
    if (suggestion) { suggestion.textContent = ""; }
    form.querySelectorAll("button.rating").forEach(function (b) {
      b.disabled = false;
      b.classList.remove("suggested");
      b.removeAttribute("aria-describedby");
      var interval = b.querySelector(".interval");
      if (interval && card.intervals[b.dataset.key]) { interval.textContent = card.intervals[b.dataset.key]; }
    });
    var link = document.getElementById("show-answer");
    if (link) { link.href = link.href.replace(/([?&]card=)\d+/, "$1" + card.id); }
    d.querySelectorAll(".card-actions form, .card-actions a").forEach(function (el) {
      var attr = el.tagName === "FORM" ? "action" : "href";
      el.setAttribute(attr, el.getAttribute(attr).replace("/cards/" + old + "/", "/cards/" + card.id + "/")
        .replace(new RegExp("/cards/" + old + "$"), "/cards/" + card.id));
    });
    d.dataset.queued = String(queue.length);
    document.dispatchEvent(new CustomEvent("prep:card-shown"));
    heading.focus({preventScroll: false});
    d.dataset.shownAt = String(performance.now());
    announce((d.dataset.msgNext || "") + " " + card.question);
  }

  // A rating from the page (drill.js): true when handled here.
  function rate(form, submitter, elapsedMs) {
    if (!enabled() || !submitter || form.id !== "rate-form") { return false; }
    var data = new FormData(form);
    var record = {card_id: parseInt(data.get("card_id"), 10), version: parseInt(data.get("version"), 10),
                  rating: parseInt(submitter.value, 10), elapsed_ms: Math.max(0, Math.round(elapsedMs)),
                  request_id: requestId()};
    if (data.get("key_points_of")) {
      record.ticks = {of: parseInt(data.get("key_points_of"), 10),
                      points: data.getAll("key_point").map(function (v) { return parseInt(v, 10); })};
    }
    rated[record.card_id + ":" + record.version] = true;
    writePending(readPending().concat([record]));
    countDown(root().dataset.state);
    dropCard(record.card_id);
    if (queue.length) {
      show(queue.shift());
    } else {
      waitingForNext = true;  // nothing ready: the next card comes once this rating is in
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
    status();
    flush().then(function () { if (waitingForNext && !fetching) { refill(); } });
    if (queue.length < LOW) { refill(); }
    return true;
  }

  function accountKey() {
    var d = root(), account = d && d.dataset.account;
    if (!account) { return LEGACY_KEY; }
    var key = LEGACY_KEY + "." + account;
    try {  // ratings kept under the old shared key belong to whoever drills next, as before
      var old = window.localStorage.getItem(LEGACY_KEY);
      if (old) {
        var mine = JSON.parse(window.localStorage.getItem(key) || "[]") || [];
        window.localStorage.setItem(key, JSON.stringify(mine.concat(JSON.parse(old) || [])));
        window.localStorage.removeItem(LEGACY_KEY);
      }
    } catch (e) { /* storage off or unreadable: nothing to move */ }
    return key;
  }

  function init() {
    KEY = accountKey();
    var answer = document.getElementById("answer");
    var h2 = answer && answer.querySelector("h2.visually-hidden");
    answerHeading = h2 ? h2.outerHTML : "";
    queue = [];
    waitingForNext = false;
    status();
    flush();
    refill();
  }

  window.prepPrefetch = {rate: rate, flush: function () { return flush(); }, init: init, enabled: enabled};
  window.addEventListener("online", function () { status(); flush(); });
  window.addEventListener("offline", function () { status(); });
  document.addEventListener("DOMContentLoaded", function () { if (root()) { init(); } else { flush(); } });
})();
