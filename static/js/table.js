// The phone at the table, where the browser can: copy and share buttons for codes and links, and the
// screen kept awake during a game. Everything here is optional: the page shows every code and link as
// text, and works without this script.
"use strict";

document.addEventListener("click", async (event) => {
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
});

function showWhatThisBrowserCanDo() {
  const canShare = typeof navigator.share === "function";
  const canCopy = navigator.clipboard !== undefined && window.isSecureContext;
  for (const button of document.querySelectorAll("[data-share]")) button.hidden = !canShare;
  for (const button of document.querySelectorAll("[data-copy]")) button.hidden = !canCopy;
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
