// Stepping through a game on its page (bot/web/templates/game.html): the buttons, the
// keys (← → step, Home End jump, F flips), the move list's links, and the moves that
// live.js hands over in "dama:live" events. Without this script the page still reads:
// each link reloads the page at its ply. The DOM contract: docs/ARCHITECTURE.md,
// "The web face". No inline script anywhere (Content-Security-Policy script-src 'self').
"use strict";

(function () {
  const main = document.getElementById("game");
  const board = document.getElementById("board");
  const moves = document.getElementById("moves");
  if (!main || !board || !moves) {
    return;
  }
  const status = document.getElementById("status");
  const controls = main.querySelector(".controls");
  const flipButton = main.querySelector('button[data-step="flip"]');
  const flipLink = document.getElementById("flip-link");
  const keys = document.getElementById("keys");

  let ply = Number(main.dataset.ply);
  let flipped = main.dataset.flip === "1";

  function plies() {
    return Number(main.dataset.plies);
  }

  function linkOf(n) {
    return moves.querySelector('a[data-ply="' + n + '"]');
  }

  function address(n) {
    const url = new URL(window.location.href);
    url.searchParams.set("ply", String(n));
    if (flipped) {
      url.searchParams.set("flip", "1");
    } else {
      url.searchParams.delete("flip");
    }
    return url;
  }

  // Set when the game ends while the page is open: its last ply's picture then changes
  // (the final board marks no side to move) under an address the browser already holds,
  // so that picture is asked for under another one (the server ignores "end").
  let endedHere = false;

  function picture(n) {
    return main.dataset.board + "?ply=" + n + (flipped ? "&flip=1" : "")
      + (endedHere && n === plies() ? "&end=1" : "");
  }

  // The boards one step away, fetched ahead so that a step shows at once.
  function preload(n) {
    for (const next of [n - 1, n + 1]) {
      if (next >= 0 && next <= plies()) {
        new Image().src = picture(next);
      }
    }
  }

  function show(n) {
    n = Math.max(0, Math.min(plies(), n));
    ply = n;
    main.dataset.ply = String(n);
    board.src = picture(n);
    const current = linkOf(n);
    if (current && current.dataset.alt) {
      board.alt = current.dataset.alt;
    }
    for (const link of moves.querySelectorAll("a[aria-current]")) {
      link.removeAttribute("aria-current");
    }
    // Marked, never scrolled to: on a phone the list is under the board, and scrolling
    // the page there would move the board and the buttons away from the reader.
    if (current) {
      current.setAttribute("aria-current", "step");
    }
    // aria-disabled, not disabled: a disabled button loses the focus, and the keyboard's
    // reader their place, when a step reaches the end it pressed towards.
    for (const button of controls.querySelectorAll("button[data-step]")) {
      const step = button.dataset.step;
      if (step === "first" || step === "back") {
        button.setAttribute("aria-disabled", n === 0 ? "true" : "false");
      } else if (step === "forward" || step === "last") {
        button.setAttribute("aria-disabled", n === plies() ? "true" : "false");
      }
    }
    flipButton.setAttribute("aria-pressed", flipped ? "true" : "false");
    window.history.replaceState(null, "", address(n));
    preload(n);
  }

  function flip() {
    flipped = !flipped;
    main.dataset.flip = flipped ? "1" : "0";
    show(ply);
  }

  function step(name) {
    switch (name) {
      case "first": show(0); break;
      case "back": show(ply - 1); break;
      case "forward": show(ply + 1); break;
      case "last": show(plies()); break;
      case "flip": flip(); break;
    }
  }

  controls.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-step]");
    if (button && button.getAttribute("aria-disabled") !== "true") {
      step(button.dataset.step);
    }
  });

  // The move list's and the mistakes' links: stay on the page (a plain click only).
  main.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-ply]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey
        || event.altKey) {
      return;
    }
    event.preventDefault();
    show(Number(link.dataset.ply));
  });

  const KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last",
                 f: "flip", F: "flip" };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) {
      return;
    }
    const target = event.target;
    if (target && (target.isContentEditable
                   || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) {
      return;
    }
    const name = KEYS[event.key];
    if (name) {
      event.preventDefault();
      step(name);
    }
  });

  // Moves received live (live.js): append those the list lacks, follow the game when the
  // reader was at its last ply.
  document.addEventListener("dama:live", function (event) {
    const data = event.detail || {};
    const atEnd = ply === plies();
    let last = plies();
    for (const move of data.moves || []) {
      if (move.ply <= last) {
        continue;
      }
      const template = move.ply % 2 === 0 ? main.dataset.altEven : main.dataset.altOdd;
      const link = document.createElement("a");
      link.href = address(move.ply).search;
      link.dataset.ply = String(move.ply);
      link.dataset.alt = template.replace("{move}", move.text)
        .replace("{ply}", String(move.ply));
      link.textContent = move.text;
      const item = document.createElement("li");
      item.appendChild(link);
      moves.appendChild(item);
      last = move.ply;
    }
    main.dataset.plies = String(last);
    const none = document.getElementById("no-moves");
    if (none && last > 0) {
      none.remove();
    }
    if (status && typeof data.status === "string") {
      status.textContent = data.status;
    }
    if (data.over) {
      endedHere = main.dataset.live !== "";
      main.dataset.live = "";
      const result = document.getElementById("result");
      if (result && typeof data.status === "string") {
        result.textContent = data.status;
      }
    }
    show(atEnd ? last : ply);
  });

  controls.hidden = false;
  keys.hidden = false;
  flipLink.hidden = true;
  show(ply);
})();
