// Live updates of a game page (docs/ARCHITECTURE.md, "The web face").
// Opens an EventSource on the game's events URL (main#game's data-live; empty for a game
// that is over) and hands each "position" event to the page as a "dama:live" event on
// the document, whose detail is the event's JSON: {ply, moves: [{ply, text}], status,
// over}. replay.js draws it. The browser's EventSource reconnects by itself after a lost
// connection, sending the last event id (a ply) so that only missing moves come back;
// the first request asks for the moves after data-plies (?from=). The stream is closed
// once the game is over.
"use strict";

(function () {
  const main = document.getElementById("game");
  if (!main || !main.dataset.live || typeof EventSource === "undefined") {
    return;
  }
  // The first answer brings the moves after the ones the page was drawn with.
  const url = new URL(main.dataset.live, window.location.href);
  if (!url.searchParams.has("from") && main.dataset.plies) {
    url.searchParams.set("from", main.dataset.plies);
  }
  // The status line comes in the page's language: the one its address chose, if any.
  const lang = new URL(window.location.href).searchParams.get("lang");
  if (lang && !url.searchParams.has("lang")) {
    url.searchParams.set("lang", lang);
  }
  const source = new EventSource(url.toString());
  source.addEventListener("position", function (event) {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    document.dispatchEvent(new CustomEvent("dama:live", { detail: data }));
    if (data.over) {
      source.close();
    }
  });
})();
