// The phone at the table, where the browser can: copy and share buttons for codes and links, and the
// screen kept awake during a game. Everything here is optional: the page shows every code and link as
// text, and works without this script.
"use strict";

const needsNetwork = document.currentScript?.dataset.needsNetwork ?? "";

document.addEventListener("click", async (event) => {
  if (event.target.closest("[data-print]")) {
    window.print(); // the page's print layout shows the result alone (static/css/site.css, @media print)
    return;
  }
  const button = event.target.closest("[data-copy], [data-share]");
  if (!button) return;
  if (button.dataset.share !== undefined) {
    try {
      await navigator.share({ title: document.title, url: button.dataset.share });
    } catch (error) {
      // The person closed the share sheet: nothing to do.
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = button.dataset.copied;
  } catch (error) {
    button.textContent = button.dataset.failed;
  }
  say(button.textContent); // the button's name stays "Copy: …": its new words are not read by themselves
});

// A short line for screen readers in the page's status line (#said, templates/_base.html), emptied first so the
// same words (a second "Copied") are said again.
function say(text) {
  const said = document.getElementById("said");
  if (!said) return;
  said.textContent = "";
  setTimeout(() => { said.textContent = text; }, 100);
}

function showWhatThisBrowserCanDo() {
  const canShare = typeof navigator.share === "function";
  const canCopy = navigator.clipboard !== undefined && window.isSecureContext;
  for (const button of document.querySelectorAll("[data-share]")) button.hidden = !canShare;
  for (const button of document.querySelectorAll("[data-copy]")) button.hidden = !canCopy;
  for (const button of document.querySelectorAll("[data-print]")) button.hidden = typeof window.print !== "function";
}

let wakeLock = null;

async function keepAwake() {
  if (!document.body.hasAttribute("data-keep-awake") || !("wakeLock" in navigator)) return;
  if (document.visibilityState !== "visible" || (wakeLock && !wakeLock.released)) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
  } catch (error) {
    wakeLock = null; // refused (battery saver, no permission): the screen sleeps as usual
  }
}

document.addEventListener("visibilitychange", keepAwake);
document.addEventListener("htmx:afterSettle", showWhatThisBrowserCanDo);
showWhatThisBrowserCanDo();
keepAwake();

// Taps made on an entry after the one that saved it (static/js/entry_queue.js keeps their names): the game
// page's Saved card says they were not taken.
function sayDroppedTaps() {
  const line = document.getElementById("dropped");
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem("entry-dropped") ?? "null");
    sessionStorage.removeItem("entry-dropped");
  } catch (error) {
    return;
  }
  if (!line || !kept || !Array.isArray(kept.labels) || !kept.labels.length || Date.now() - kept.at > 60000) return;
  line.textContent = line.dataset.words.replace("{taps}", kept.labels.join(", "));
  line.hidden = false;
}
sayDroppedTaps();

// The live game: the page's live part (#game at the table, #live for spectators) is polled by its last
// element, the poller (#live-poll, hx-trigger "every …, refresh"); the server answers 304 while nothing
// changed, else the parts that changed, each swapped in by its id, and a new poller (scoring/live/parts.py). A
// hidden page does not poll, and polls at once when it is shown again. After any swap, what the reader
// opened stays open.
const LIVE = "#live-poll";
let openDetails = [];

function keepOpen(element) {
  if (element) openDetails.push(...[...element.querySelectorAll("details[open][id]")].map((details) => details.id));
}
document.addEventListener("htmx:beforeRequest", (event) => {
  if (!event.detail.elt.matches(LIVE)) return;
  const timed = !event.detail.requestConfig?.triggeringEvent; // htmx's "every", not a "refresh"
  if (document.hidden || (timed && !timedPollDue())) {
    event.preventDefault();
    return;
  }
  polledAt = Date.now();
});
document.addEventListener("htmx:beforeSwap", (event) => {
  // Any swap (the live game, a tap in the entry): a part the reader opened stays open.
  openDetails = [];
  keepOpen(event.detail.target);
});
document.addEventListener("htmx:oobBeforeSwap", (event) => keepOpen(event.detail.target));
document.addEventListener("htmx:afterSettle", () => {
  for (const id of openDetails) document.getElementById(id)?.setAttribute("open", "");
  openDetails = [];
  announceNews();
});

// The live part is replaced, whole or in parts, so it cannot be a live region itself: when the log changed
// (another phone saved or undid an event), the polite status line outside it (#news) says briefly what the
// log now ends with (the poller's data-news), or who won.
let revisionShown = document.querySelector(LIVE)?.dataset.revision;

function announceNews() {
  const live = document.querySelector(LIVE);
  const news = document.getElementById("news");
  if (!live || !news || live.dataset.revision === revisionShown) return;
  revisionShown = live.dataset.revision;
  news.textContent = "";
  const text = document.querySelector("#final .winner")?.textContent.trim() || live.dataset.news;
  setTimeout(() => { news.textContent = text; }, 100); // emptied first: the same words are said again
}
document.addEventListener("visibilitychange", () => {
  const live = document.querySelector(LIVE);
  if (!document.hidden && live && window.htmx) window.htmx.trigger(live, "refresh");
});
// Back (or Forward) to a live page the browser kept whole (its back-forward cache): the page is as it was when
// left, Saved card and all, so it is asked for again at once rather than corrected part by part by the next poll.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && document.querySelector(LIVE)) location.reload();
});

// Push (scoring/live/push.py): when the site pushes, the poller names its game's stream (data-stream), which the
// page holds open (an EventSource, served by nginx's nchan). Each message polls at once ("refresh"); while the
// stream is open, only one timed poll in data-stream-every goes out, in case a message was lost. The stream proves
// itself alive by a ping every 20 s: one silent for STREAM_SILENT (a proxy holding it back) is taken for dead.
// When it fails (nginx restarting, a proxy or a firewall that refuses it), the page polls as before and opens it
// again after a pause that doubles each time, from STREAM_FIRST_RETRY to STREAM_LAST_RETRY, at a random point of
// it: the phones of a restarted server do not all come back at the same moment. EventSource's own retry is
// closed, as it would retry every few seconds, all together. Without a stream (no push, no EventSource, no
// JavaScript) the page polls as before. Other scripts learn of each push by the event "live:pushed" on the
// document (static/js/entry_queue.js) and whether the stream is open by the page's data-stream="open".
// Tests turn the timed polls off (window.timedPollsOff = true, set before the page loads): what then shows a
// change came by the stream.
const STREAM_FIRST_RETRY = 1000;
const STREAM_LAST_RETRY = 60000;
const STREAM_SILENT = 90000;
let stream = null;
let streamUrl = "";
let streamOpen = false;
let streamRetry = STREAM_FIRST_RETRY;
let streamTimer = null;
let heardAt = 0;
let polledAt = 0;

function timedPollDue() {
  if (window.timedPollsOff === true) return false;
  if (!streamOpen) return true;
  if (Date.now() - heardAt > STREAM_SILENT) {
    streamFailed();
    return true;
  }
  const every = Number(document.querySelector(LIVE)?.dataset.streamEvery) || 0;
  return Date.now() - polledAt >= every;
}

function pushed() {
  const live = document.querySelector(LIVE);
  if (live && window.htmx) window.htmx.trigger(live, "refresh");
  document.dispatchEvent(new CustomEvent("live:pushed"));
}

function markStream() {
  document.documentElement.dataset.stream = streamOpen ? "open" : "";
}

function openStream() {
  const url = document.querySelector(LIVE)?.dataset.stream ?? "";
  if (url === streamUrl && (stream || streamTimer)) return;
  closeStream();
  streamUrl = url;
  if (!url || typeof EventSource !== "function") return;
  stream = new EventSource(url);
  stream.addEventListener("open", () => {
    streamOpen = true;
    heardAt = Date.now();
    streamRetry = STREAM_FIRST_RETRY;
    markStream();
    pushed(); // what changed while the stream was not open
  });
  stream.addEventListener("message", () => {
    heardAt = Date.now();
    pushed();
  });
  stream.addEventListener("ping", () => {
    heardAt = Date.now();
  });
  stream.addEventListener("error", streamFailed);
}

function closeStream() {
  clearTimeout(streamTimer);
  streamTimer = null;
  stream?.close();
  stream = null;
  streamOpen = false;
  markStream();
}

function streamFailed() {
  const wasOpen = streamOpen;
  closeStream();
  if (wasOpen) pushed(); // the stream may have missed a change: poll now, then as usual until it is back
  const wait = Math.random() * streamRetry;
  streamRetry = Math.min(2 * streamRetry, STREAM_LAST_RETRY);
  streamTimer = setTimeout(() => {
    streamTimer = null;
    openStream();
  }, wait);
}

document.addEventListener("htmx:afterSettle", openStream); // a new poller may name another stream (a new link)
openStream();

// A poll that fails (offline, the server out of reach) leaves the live part as it was: the line above it
// (#stale) says since when it was not updated, in the page's language, until a poll answers again.
let updatedAt = new Date();

function timeOf(date) {
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang || undefined, { timeStyle: "short" }).format(date);
  } catch (error) {
    return date.toLocaleTimeString();
  }
}

document.addEventListener("htmx:afterRequest", (event) => {
  const stale = document.getElementById("stale");
  const polled = event.detail.requestConfig?.elt; // the poller that asked (replaced by now if it changed)
  if (!stale || !polled?.matches?.(LIVE)) return;
  if (event.detail.successful) {
    updatedAt = new Date();
    stale.textContent = "";
  } else if (!stale.textContent) {
    stale.textContent = stale.dataset.text.replace("{time}", timeOf(updatedAt));
  }
});

// The entry (#wizard) is replaced by the server's answer after each tap, and the keyboard's focus would
// fall to the page's body (a screen reader then says nothing). It goes back to the control that was
// pressed (the same "+", found by its name and value), or, when that one is gone or disabled (a stage
// done), to the first control of the stage now shown. The pressed control is the submit's `submitter`,
// not the last one focused: Safari does not focus a button on a tap, and a focus may move in between.
// A hidden field of the stage (the picks' collector) is no control: the focus would fall to the page's body.
const FIRST_CONTROL = "fieldset.stage :is(button, input:not([type=hidden]), select, textarea, summary):not(:disabled)";
let entryFocus = null;
let entryAnswered = false;

function rememberFocus(control) {
  entryFocus = control?.closest?.("#wizard") ? { id: control.id, name: control.name, value: control.value } : null;
}
document.addEventListener("focusin", (event) => rememberFocus(event.target));
// In the capture phase, before the tap queue takes the submit over (it stops its propagation).
document.addEventListener("submit", (event) => event.submitter && rememberFocus(event.submitter), true);
document.addEventListener("htmx:beforeSwap", (event) => {
  entryAnswered = event.detail.target?.id === "wizard";
});
document.addEventListener("htmx:afterSwap", () => {
  const wizard = document.getElementById("wizard");
  if (!entryAnswered || !entryFocus || !wizard) return;
  entryAnswered = false;
  if (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected) return;
  const { id, name, value } = entryFocus;
  let control = id ? document.getElementById(id) : null;
  if (!control && name) {
    control = wizard.querySelector(`[name="${CSS.escape(name)}"][value="${CSS.escape(value ?? "")}"]`);
  }
  if (!control || control.disabled) {
    control = wizard.querySelector(FIRST_CONTROL);
  }
  control?.focus();
});

// A line marked data-say is said in the page's status line (#said): when the page opens with it (the game page's
// Saved card, after an entry saved itself) and when a tap in the entry makes it appear or changes its words (the
// board's tie question). A page loaded, or an entry swapped in, is no live region, and the focus stays where it was.
let entryLines = null;
const linesOpened = [...document.querySelectorAll("[data-say]")].map(words);
if (linesOpened.length) say(linesOpened.join(" "));

document.addEventListener("htmx:beforeSwap", (event) => {
  const wizard = event.detail.target;
  entryLines = wizard?.id === "wizard" ? new Set([...wizard.querySelectorAll("[data-say]")].map(words)) : null;
});
document.addEventListener("htmx:afterSwap", () => {
  const wizard = document.getElementById("wizard");
  if (!entryLines || !wizard) return;
  const fresh = [...wizard.querySelectorAll("[data-say]")].map(words).filter((line) => !entryLines.has(line));
  entryLines = null;
  if (fresh.length) say(fresh.join(" "));
});

function words(element) {
  return element.textContent.replace(/\s+/g, " ").trim();
}

// Every deferred script has run and htmx has wired the page up: a tap from now on goes through htmx and
// the tap queue (before, a submit is a plain form's, which reloads the page). Tests wait for this mark.
document.addEventListener("DOMContentLoaded", () => {
  document.documentElement.dataset.ready = "";
});

// Score sheets: − and + around a count (`data-step` beside an input marked `data-stepper`), from 0 to its data-max.
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input[data-stepper]");
  if (!input || input.disabled) return;
  const low = 0;
  const high = Number(input.dataset.max || 999);
  const now = /^\d+$/.test(input.value.trim()) ? Number(input.value) : low;
  input.value = String(Math.min(high, Math.max(low, now + Number(button.dataset.step))));
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// The keyboard's focus is never hidden under a bar stuck to the top or the bottom of the screen (the board's last
// question, the taps-waiting line: WCAG 2.2 "focus not obscured"). Once the browser has scrolled the focused
// control into view, the page scrolls on past any such bar that covers part of it. A focus by a tap is left
// alone: scrolling between the finger's down and up would move the tap off its button.
const STUCK = new Set(["sticky", "fixed"]);

function barOver(control) {
  const seen = control.getBoundingClientRect();
  for (const x of [seen.left + 2, seen.right - 2]) {
    for (const y of [seen.top + 2, seen.bottom - 2]) {
      for (let over = document.elementFromPoint(x, y); over && !over.contains(control); over = over.parentElement) {
        if (STUCK.has(getComputedStyle(over).position)) return over;
      }
    }
  }
  return null;
}

document.addEventListener("focusin", (event) => {
  const control = event.target;
  if (!control.matches?.(":focus-visible")) return;
  requestAnimationFrame(() => {
    const bar = document.activeElement === control ? barOver(control) : null;
    if (!bar) return;
    const seen = control.getBoundingClientRect();
    const edge = bar.getBoundingClientRect();
    const below = edge.top + edge.bottom > seen.top + seen.bottom;
    window.scrollBy({ top: below ? seen.bottom - edge.top + 8 : seen.top - edge.bottom - 8, behavior: "instant" });
  });
});

// A button that posts through htmx (keep these cards, Undo in the log) with no answer (offline, the server out of
// reach): the phone says that it needs the network, under the button, rather than nothing. The live poll and the
// entry's taps say it their own way.
document.addEventListener("htmx:sendError", (event) => {
  const source = event.detail.elt;
  if (!source?.isConnected || source.matches(LIVE) || source.closest("#wizard")) return;
  const form = source.closest("form") ?? source;
  let line = form.nextElementSibling;
  if (!line?.matches(".needs-network")) {
    line = document.createElement("p");
    line.className = "error needs-network";
    line.setAttribute("role", "alert");
    form.after(line);
  }
  line.textContent = needsNetwork;
});

// The service worker (templates/sw.js): offline, the static files, the last copy of a game page, and a page that
// says what to do rather than the browser's error page.
const worker = document.currentScript?.dataset.worker;
if (worker && "serviceWorker" in navigator) navigator.serviceWorker.register(worker).catch(() => undefined);
