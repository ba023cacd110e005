// The entry on a slow or lost connection: no tap is lost. Each tap on the entry (form#wizard, one
// <button name="op"> per tap) waits in a queue on the phone and reaches the server in order, one at a time,
// each sent with the form as the previous answer left it (every answer carries the new draft). The phone
// shows a tap at once: a button with data-shows="<id of an output>" data-value="<text>" puts its text in
// that output, a cell of the buildings grid (data-most) shows its next count; any other tapped button is
// marked as waiting. A line above the entry says how many taps wait, and when the phone is offline. The queue
// is kept in localStorage under its entry's identity (the form's "entry", made by the server when the entry's
// page first opened, and posted with every tap), so a reload, a followed link, a closed tab or a restarted
// browser loses nothing: back on that entry, by "Continue" or its own address, the taps are sent (once: the
// server answers the same draft and tap the same, so a tap sent again by a second tab or after a lost answer
// never counts twice). A new entry's page (one the server keeps no draft of) also sends the taps kept from a
// page of the same start (game, kind, event, territory), as that page's entry: the server takes them if it
// never saw that entry (the page was closed offline), and refuses them if it is over. A queue is only ever sent into
// its own entry: the server refuses a tap of an entry that is no longer this phone's (continued on another
// phone, saved, cancelled, replaced) and the phone names every tap not taken. The page also asks now and
// then, when shown again, and at once when the game's stream says it changed (static/js/table.js), whether its
// entry is still its own: once it is not, its controls go and it says why. A queue is removed once sent or refused, and any left behind after KEPT_FOR.
//
// The server decides everything: what the phone shows in the meantime is replaced by each answer. Without
// JavaScript (or htmx) the entry is a plain form, one page per tap.
"use strict";

(() => {
  const words = document.currentScript?.dataset ?? {};
  const KEPT_FOR = 12 * 60 * 60 * 1000; // as long as the server keeps a draft
  const FIRST_RETRY = 2000; // then twice as long each time, up to LAST_RETRY
  const LAST_RETRY = 15000;
  const SHOW_WAITING_AFTER = 500; // a tap answered sooner is not worth a line that flickers
  const NOT_ANSWERED = new Set([502, 503, 504]); // the server is restarting or behind a proxy that lost it
  const CLOSED = 409; // the tap's entry is no longer this phone's (the answer says why, in the reader's words)
  const CHECK_EVERY = 3000; // how often the page asks whether its entry is still its own
  // While the game's stream is open, each change is pushed: the page asks once in the poller's data-stream-every.
  const streamOpen = () => document.documentElement.dataset.stream === "open";

  let entry = ""; // the entry the queue is for: the page's own, or an earlier page's of the same start
  let key = "";
  let queue = []; // {op, label, fields}: fields are the form's, kept once the tap was first sent
  let sending = false;
  let leaving = false; // an answer sent the phone to another page (saved, cancelled)
  let problem = ""; // "offline" or "unanswered" while the head of the queue could not be sent
  let notTaken = []; // what the server refused since the last tap, by the buttons' names
  let earlier = []; // the taps of an earlier page's queue, refused: its entry is over
  let over = ""; // why the page's entry is no longer this phone's, as the server said it: its controls are gone
  let waitingSince = 0;
  let retry = null;
  let retryIn = FIRST_RETRY;
  let line = null;

  const wizard = () => document.getElementById("wizard");
  const say = (text, values) => (text ?? "").replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
  const lang = document.documentElement.lang || undefined;

  const PREFIX = "entry-queue ";
  const entryOf = (form) => form.elements.entry?.value ?? "";

  function read(name) {
    try {
      const kept = JSON.parse(localStorage.getItem(name) ?? "null");
      if (kept && Array.isArray(kept.taps) && kept.taps.length && Date.now() - kept.at < KEPT_FOR) return kept;
    } catch (error) {
      // unreadable: nothing kept
    }
    return null;
  }

  // The page's own queue; else, on a new entry's page (no draft on the server), the queue of another page of the
  // same start, sent as that page's entry: the server takes its taps if their entry never reached it (the page
  // was closed offline), and refuses them, named, if it is over (saved, cancelled, continued elsewhere).
  function restore(form) {
    entry = entryOf(form);
    key = PREFIX + entry;
    const own = read(key);
    if (own || form.elements.draft_id?.value) return own?.taps ?? [];
    try {
      for (const name of Object.keys(localStorage)) {
        const kept = name.startsWith(PREFIX) && name !== key ? read(name) : null;
        if (kept && kept.start === form.dataset.start) {
          entry = name.slice(PREFIX.length);
          key = name;
          return kept.taps;
        }
      }
    } catch (error) {
      // storage refused: nothing kept
    }
    return [];
  }

  function keep() {
    try {
      const start = wizard()?.dataset.start;
      if (queue.length) localStorage.setItem(key, JSON.stringify({ at: Date.now(), taps: queue, start }));
      else forget();
    } catch (error) {
      // storage full or refused: the queue still lives as long as the page
    }
  }

  // Taps made after the one that ended the entry (its last choice saved it): the next page says they were
  // not taken (static/js/table.js), rather than losing them silently.
  function dropped(labels) {
    try {
      sessionStorage.setItem("entry-dropped", JSON.stringify({ at: Date.now(), labels }));
    } catch (error) {
      // storage refused: nothing to tell
    }
  }

  function forget() {
    try {
      localStorage.removeItem(key);
    } catch (error) {
      // nothing kept
    }
  }

  // Queues of entries never come back to (a draft the server no longer keeps) do not stay on the phone.
  function sweep() {
    try {
      for (const name of Object.keys(localStorage)) {
        if (!name.startsWith(PREFIX)) continue;
        const kept = JSON.parse(localStorage.getItem(name) ?? "null");
        if (!kept || !(Date.now() - kept.at < KEPT_FOR)) localStorage.removeItem(name);
      }
    } catch (error) {
      // storage refused or unreadable: nothing to sweep
    }
  }

  function nameOf(button) {
    if (!button) return "";
    if (button.hasAttribute("aria-label")) return button.getAttribute("aria-label");
    const parts = [];
    const read = (node) => {
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent);
        else if (child.getAttribute?.("aria-label")) parts.push(child.getAttribute("aria-label"));
        else read(child);
      }
    };
    read(button);
    return parts.join(" ").replace(/\s+/g, " ").trim() || button.value;
  }

  // A signed draft's payload, without the time it was signed at and the signature (value:time:signature): an
  // answer that refused the tap carries the same draft signed again, a second later or not.
  function payload(token) {
    const parts = String(token ?? "").split(":");
    return parts.slice(0, -2).join(":");
  }

  function buttonFor(form, op) {
    return form.querySelector(`button[name="op"][value="${CSS.escape(op)}"]`);
  }

  // What the phone shows: the form as the server sent it, then every waiting tap on it. A counter's
  // data-value is its text after one tap; more taps before the answer repeat that step.
  function show() {
    const form = wizard();
    if (!form) return;
    for (const output of document.querySelectorAll("output[data-server], button[data-server]")) {
      output.textContent = output.dataset.server;
      output.classList.remove("pending");
      delete output.dataset.server;
    }
    for (const button of form.querySelectorAll("button.pending")) {
      button.classList.remove("pending");
      button.removeAttribute("aria-busy");
    }
    for (const tap of queue) {
      const button = buttonFor(form, tap.op);
      if (!button) continue; // the screen moved on: the tap is still sent, by its op
      const output = button.dataset.shows ? document.getElementById(button.dataset.shows) : null;
      if (output && button.dataset.value !== undefined) {
        output.dataset.server ??= output.textContent;
        output.textContent = stepped(output.textContent, output.dataset.server, button.dataset.value);
        output.classList.add("pending");
      } else {
        if (button.dataset.most !== undefined) {
          // A cell of the buildings grid shows its own count: one more a tap, back to none ("·") past its most.
          button.dataset.server ??= button.textContent;
          const next = ((Number(button.textContent) || 0) + 1) % (Number(button.dataset.most) + 1);
          button.textContent = next ? String(next) : "·";
        }
        button.classList.add("pending");
        button.setAttribute("aria-busy", "true");
      }
    }
  }

  function stepped(shown, server, value) {
    const whole = /^\s*-?\d+\s*$/;
    if (![shown, server, value].every((text) => whole.test(text))) return value;
    return String(Number(shown) + Number(value) - Number(server));
  }

  function together(names) {
    const counted = [];
    for (const name of names) {
      const last = counted[counted.length - 1];
      if (last && last.name === name) last.times += 1;
      else counted.push({ name, times: 1 });
    }
    const items = counted.map(({ name, times }) => (times > 1 ? `${name} ×${times}` : name));
    try {
      return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
    } catch (error) {
      return items.join(", ");
    }
  }

  // The line above the entry: how many taps wait (once one waited a moment, or at once when offline),
  // and what the server did not take.
  function tell() {
    const form = wizard();
    if (!form) return;
    if (!line || !line.isConnected) {
      line = document.createElement("p");
      line.id = "entry-queue";
      line.className = "queue-status";
      line.setAttribute("role", "status");
      form.before(line);
    }
    const count = queue.length;
    const parts = [];
    if (over) parts.push(over);
    if (earlier.length) parts.push(say(words.earlier, { taps: together(earlier) }));
    if (notTaken.length) parts.push(say(words.refused, { taps: together(notTaken) }));
    if (problem === "offline" || !navigator.onLine) parts.push(say(words.offline, { count }));
    else if (problem === "unanswered") parts.push(say(words.unanswered, { count }));
    else if (count && Date.now() - waitingSince >= SHOW_WAITING_AFTER) parts.push(say(words.waiting, { count }));
    const text = parts.join(" ");
    if (line.textContent !== text) line.textContent = text;
    line.classList.toggle("offline", Boolean(problem) || !navigator.onLine);
  }

  function tapped(button) {
    if (!queue.length) {
      waitingSince = Date.now();
      setTimeout(tell, SHOW_WAITING_AFTER);
    }
    notTaken = [];
    earlier = [];
    queue.push({ op: button?.name === "op" ? button.value : "", label: nameOf(button), fields: null });
    keep();
    show();
    tell();
    send();
  }

  function fieldsOf(form) {
    const fields = {};
    for (const [name, value] of new FormData(form)) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields[name] = value;
    }
    return fields;
  }

  function later(why) {
    problem = why;
    tell();
    clearTimeout(retry);
    retry = setTimeout(send, retryIn);
    retryIn = Math.min(retryIn * 2, LAST_RETRY);
  }

  function settled() {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        document.removeEventListener("htmx:afterSettle", done);
        resolve();
      };
      const timer = setTimeout(done, 250);
      document.addEventListener("htmx:afterSettle", done);
    });
  }

  // The head of the queue to the server, through htmx (its headers, its swap and its events: the focus and
  // the open parts are kept as after any tap). The head is sent with the fields it was first sent with: if
  // an answer was lost on the way, the server gets the same draft and the same tap again and answers the
  // same, so a tap never counts twice.
  async function send() {
    clearTimeout(retry);
    retry = null;
    const form = wizard();
    if (sending || leaving || over || !queue.length || !form || !window.htmx) return tell();
    if (!navigator.onLine) return later("offline");
    const tap = queue[0];
    const sentFor = entry;
    if (!tap.fields) {
      tap.fields = fieldsOf(form);
      keep();
    }
    sending = true;
    let answer = null;
    const heard = (event) => {
      answer = event.detail.xhr;
    };
    form.addEventListener("htmx:beforeOnLoad", heard);
    let reached = true;
    try {
      await window.htmx.ajax("POST", form.getAttribute("hx-post") || form.action, {
        source: form,
        target: form,
        swap: "outerHTML",
        values: { ...tap.fields, op: tap.op, entry: sentFor },
      });
    } catch (error) {
      reached = false; // no answer: offline, the connection lost, or too slow
    }
    form.removeEventListener("htmx:beforeOnLoad", heard);
    if (over || entry !== sentFor) {
      sending = false; // the entry was found closed meanwhile (closed): its queue is gone
      if (over) withdraw(); // an answer that came back all the same brought the controls back
      return send();
    }
    if (answer && answer.status === CLOSED) {
      sending = false;
      return closed(answer.responseText);
    }
    if (!reached || (answer && NOT_ANSWERED.has(answer.status))) {
      sending = false;
      return later(reached ? "unanswered" : "offline");
    }
    problem = "";
    retryIn = FIRST_RETRY;
    queue.shift();
    if (answer && answer.getResponseHeader("HX-Redirect")) {
      leaving = true; // the entry is over (saved, cancelled, or continued on another phone)
      if (queue.length) dropped(queue.map((tap) => tap.label));
      queue = [];
      keep();
      return;
    }
    const now = wizard();
    // Refused: no answer to show (a 403, a 404: the game ended), or the entry shown again with the reason
    // (422) and the same draft (a 422 whose draft changed took the tap, and shows what it made to do again).
    const same = Boolean(now) && payload(now.elements.draft?.value) === payload(tap.fields.draft);
    if (!answer || (answer.status >= 400 && (answer.status !== 422 || same))) notTaken.push(tap.label);
    if (!queue.length) waitingSince = 0;
    keep();
    show();
    tell();
    if (now !== form) await settled(); // the next tap goes once htmx is done with this answer
    sending = false;
    send();
  }

  // The queue's entry is no longer this phone's (why: the server's words, "continued on another phone"): none of
  // its taps waiting is taken, and the phone names them. An earlier page's queue goes, and this page's entry
  // goes on; this page's own entry is over: its controls go, but for the way back to the game.
  function closed(why) {
    const labels = queue.map((tap) => tap.label);
    queue = [];
    forget();
    problem = "";
    const form = wizard();
    if (form && entryOf(form) !== entry) {
      earlier = labels;
      entry = entryOf(form);
      key = PREFIX + entry;
    } else {
      over = why || "…";
      notTaken = labels;
      withdraw();
    }
    show();
    tell();
  }

  // The controls of an entry that is over go, but for the way back to the game.
  function withdraw() {
    const form = wizard();
    const back = form?.querySelector("a[href]");
    form?.replaceChildren(...(back ? [back] : []));
  }

  // Whether the queue's entry is still this phone's, asked now and then and when the page is shown again: a
  // phone whose entry was continued on another one learns it at once, not at its next tap.
  let checkedAt = 0;
  function checkDue() {
    if (window.timedPollsOff === true) return; // tests: what shows a change came by the stream
    const every = streamOpen() ? Number(document.getElementById("live-poll")?.dataset.streamEvery) || 0 : 0;
    if (Date.now() - checkedAt >= every) check();
  }

  // Not while a tap is on its way: its answer says whether the entry is still this phone's, and a first tap's
  // answer may be what gives the phone its token, without which the entry looks like another phone's.
  async function check() {
    if (leaving || over || sending || !entry || !words.state || document.hidden) return;
    checkedAt = Date.now();
    const asked = entry;
    let answer = null;
    try {
      answer = await fetch(`${words.state}?entry=${encodeURIComponent(asked)}`, { cache: "no-store" });
    } catch (error) {
      return; // offline: asked again later
    }
    const why = answer.status === CLOSED ? await answer.text() : "";
    if (why && asked === entry && !over && !leaving) closed(why);
  }

  // htmx settles a swapped element's class as the server sent it: the marks of the taps waiting come back.
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target.id === "wizard") show();
  });

  // What the reader changed in the form and has not sent yet (a typed note, a chosen order) survives an
  // answer that replaces the form.
  let edits = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    const form = event.detail.target;
    if (form?.id !== "wizard") return;
    edits = [...form.elements].filter((field) => {
      if (field.type === "radio" || field.type === "checkbox") return field.checked !== field.defaultChecked;
      if (field.type === "text" || field.tagName === "TEXTAREA") return field.value !== field.defaultValue;
      return false;
    }).map((field) => ({ name: field.name, type: field.type, value: field.value, checked: field.checked }));
  });
  document.addEventListener("htmx:afterSwap", () => {
    const form = wizard();
    if (!form) return;
    for (const edit of edits) {
      const fields = [...form.elements].filter((field) => field.name === edit.name && field.type === edit.type);
      if (edit.type === "radio" || edit.type === "checkbox") {
        const field = fields.find((candidate) => candidate.value === edit.value);
        if (field && field.checked === field.defaultChecked) field.checked = edit.checked;
      } else if (fields[0] && fields[0].value === fields[0].defaultValue) {
        fields[0].value = edit.value;
      }
    }
    edits = [];
  });

  // A tap goes to the queue, never straight to htmx (which drops a tap made while one is on its way).
  document.addEventListener(
    "submit",
    (event) => {
      if (event.target.id !== "wizard" || !window.htmx) return;
      event.preventDefault();
      event.stopPropagation();
      if (!leaving && !over) tapped(event.submitter); // else the entry is over: the next page is on its way
    },
    true,
  );

  // Leaving with taps waiting: they are kept and sent on coming back to this entry; the phone asks first.
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[href]");
    if (!link || !queue.length || leaving || event.defaultPrevented) return;
    if (!window.confirm(say(words.leave, { count: queue.length }))) event.preventDefault();
  });

  window.addEventListener("online", () => {
    retryIn = FIRST_RETRY;
    if (problem === "offline") problem = "";
    tell();
    send();
  });
  window.addEventListener("offline", tell);

  sweep();
  const form = wizard();
  if (!form) return;
  queue = restore(form);
  setInterval(checkDue, CHECK_EVERY);
  document.addEventListener("live:pushed", check);
  document.addEventListener("visibilitychange", check);
  window.addEventListener("focus", check);
  if (queue.length) waitingSince = Date.now() - SHOW_WAITING_AFTER;
  show();
  tell();
  send();
})();
