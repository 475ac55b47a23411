// Live updates of a game page (docs/ARCHITECTURE.md, "The web face").
// Opens an EventSource on the game's events URL (main#game's data-live; empty for a game
// that is over) and hands each "position" event to the page as a "dama:live" event on
// the document, whose detail is the event's JSON: {ply, moves: [{ply, text}], status,
// over}. replay.js draws it. The browser's EventSource reconnects by itself after a lost
// connection, sending the last event id (a ply) so that only missing moves come back;
// each request asks for the moves after data-plies (?from=). A refused stream (a proxy's
// 502 while the server restarts, the viewers' limit's 429 or 503) the browser never
// retries: it is opened again after RETRY_MS, doubling up to RETRY_MAX_MS. The stream is
// closed once the game is over.
"use strict";

(function () {
  const main = document.getElementById("game");
  if (!main || !main.dataset.live || typeof EventSource === "undefined") {
    return;
  }
  const RETRY_MS = 2000;
  const RETRY_MAX_MS = 60000;
  let retry = RETRY_MS;
  let over = false;
  // The status line comes in the page's language: the one its address chose, if any.
  const lang = new URL(window.location.href).searchParams.get("lang");

  function address() {
    const url = new URL(main.dataset.live, window.location.href);
    // The answer brings the moves after the ones the page shows.
    if (main.dataset.plies) {
      url.searchParams.set("from", main.dataset.plies);
    }
    if (lang && !url.searchParams.has("lang")) {
      url.searchParams.set("lang", lang);
    }
    return url.toString();
  }

  function open() {
    const source = new EventSource(address());
    source.addEventListener("open", function () {
      retry = RETRY_MS;
    });
    source.addEventListener("position", function (event) {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      document.dispatchEvent(new CustomEvent("dama:live", { detail: data }));
      if (data.over) {
        over = true;
        source.close();
      }
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED && !over) {
        window.setTimeout(open, retry);
        retry = Math.min(2 * retry, RETRY_MAX_MS);
      }
    });
  }

  open();
})();
