// Scribe as an app: the service worker (static/sw.js, served at /sw.js) and moves that
// survive a network drop. The pages work without this.
//
// A move tapped while the phone is offline is not lost: the form's fields (its move, the
// table's version, its idempotency key, the CSRF token) are kept in localStorage and the page
// says the move is waiting. When the network returns the moves are sent in the order they were
// tapped, each once (the server answers a retried idempotency key with its first answer); the
// page then shows the fresh table and whether each move was accepted or refused, with the
// rule it broke (a move that others made stale is refused with the fresh table).
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  if (!window.localStorage || !window.fetch) { return; }
  var KEY = "scribe.pending-moves";
  var NOTE = "scribe.sent-moves";
  var root = document.body;
  var words = {
    waiting: root.dataset.offlineWaiting || "Waiting for the network: these moves will be sent when it returns.",
    sending: root.dataset.offlineSending || "Sending the moves made offline…",
    accepted: root.dataset.offlineAccepted || "Sent and accepted:",
    refused: root.dataset.offlineRefused || "Sent but refused:",
    discard: root.dataset.offlineDiscard || "Discard"
  };

  function load(key, store) {
    try { return JSON.parse((store || localStorage).getItem(key)) || []; } catch (e) { return []; }
  }
  function save(key, list, store) {
    (store || localStorage).setItem(key, JSON.stringify(list));
  }
  function isMoveForm(form) {
    return form && form.method && form.method.toLowerCase() === "post" &&
      /\/tables\/[^/]+\/(moves|draw)$/.test(new URL(form.action, location.href).pathname);
  }

  function banner() {
    var box = document.getElementById("pending-moves");
    if (!box) {
      box = document.createElement("section");
      box.id = "pending-moves";
      box.className = "pending-moves";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    return box;
  }

  function line(text, cls) {
    var p = document.createElement("p");
    p.textContent = text;
    if (cls) { p.className = cls; }
    return p;
  }

  function render(sending) {
    var pending = load(KEY).filter(function (m) { return m.page === location.pathname; });
    var sent = load(NOTE, sessionStorage);
    if (!pending.length && !sent.length) {
      var old = document.getElementById("pending-moves");
      if (old) { old.remove(); }
      return;
    }
    var box = banner();
    box.textContent = "";
    sent.forEach(function (m) {
      box.appendChild(line((m.ok ? words.accepted : words.refused) + " " + m.label +
                           (m.reason ? " — " + m.reason : ""), m.ok ? "sent-ok" : "sent-refused"));
    });
    if (pending.length) {
      box.appendChild(line(sending ? words.sending : words.waiting, "pending-note"));
      var list = document.createElement("ul");
      pending.forEach(function (m) {
        var item = document.createElement("li");
        item.className = "pending-move";
        item.textContent = m.label + " ";
        var drop = document.createElement("button");
        drop.type = "button";
        drop.className = "secondary";
        drop.textContent = words.discard;
        drop.addEventListener("click", function () {
          save(KEY, load(KEY).filter(function (other) { return other.key !== m.key; }));
          render(false);
        });
        item.appendChild(drop);
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    save(NOTE, [], sessionStorage);      // each result is told once
  }

  // A tap while offline: keep the move instead of letting the browser fail to send it.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (navigator.onLine || !isMoveForm(form)) { return; }
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var submitter = event.submitter;
    if (submitter && submitter.name) { fields.push([submitter.name, submitter.value]); }
    var label = (submitter && submitter.textContent || form.textContent || "").trim()
      .replace(/\s+/g, " ").slice(0, 80);
    var key = (fields.filter(function (f) { return f[0] === "idempotency_key"; })[0] || [])[1] ||
      String(Date.now());
    var pending = load(KEY).filter(function (m) { return m.key !== key; });
    pending.push({ key: key, action: form.action, fields: fields, label: label,
                   page: location.pathname });
    save(KEY, pending);
    render(false);
  }, true);

  var flushing = false;
  function flush() {
    if (flushing || !navigator.onLine) { return; }
    var pending = load(KEY).filter(function (m) { return m.page === location.pathname; });
    if (!pending.length) { return; }
    flushing = true;
    render(true);
    var results = [];
    (function next(index) {
      if (index === pending.length) {
        save(NOTE, results, sessionStorage);
        location.replace(location.pathname);      // the fresh table, with the results told
        return;
      }
      var move = pending[index];
      var body = new URLSearchParams();
      move.fields.forEach(function (f) { body.append(f[0], f[1]); });
      fetch(move.action, { method: "POST", body: body, credentials: "same-origin",
                           headers: { "Accept": "text/html" } })
        .then(function (response) {
          return response.text().then(function (html) {
            var reason = "";
            if (!response.ok) {
              var doc = new DOMParser().parseFromString(html, "text/html");
              var error = doc.getElementById("move-error") || doc.querySelector("[role=alert]");
              reason = error ? error.textContent.trim() : String(response.status);
            }
            results.push({ label: move.label, ok: response.ok, reason: reason });
            save(KEY, load(KEY).filter(function (other) { return other.key !== move.key; }));
            next(index + 1);
          });
        })
        .catch(function () {                       // still no network: try again later
          flushing = false;
          if (results.length) { save(NOTE, results, sessionStorage); }
          render(false);
        });
    })(0);
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { render(false); });
  render(false);
  flush();
})();
