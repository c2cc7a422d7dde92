// The copsolver page: a table for the seat protocol (docs/protocol.md). The server referees and
// draws; the page only asks and shows. It keeps no game logic: legal moves, prompts, pictures and
// results all come from the server's replies.

import { ClosedError, Connection, ProtocolError } from "./socket.js";
import { el, show } from "./dom.js";
import { buildSetup, readSetup } from "./setup.js";
import { showSvg } from "./svg.js";

const $ = (id) => document.getElementById(id);
const PAGE_KEY = "copsolver.page";
const BUSY_AFTER_MS = 150; // a quick request does not flash the progress bar
const LOG_LIMIT = 300;

const app = {
  welcome: null,
  table: null, // {game_id, game, config, players, seats, decision, over, returns, replay}
  mode: null, // "play" (a human seat: bots moved by advance), "watch" (bots only), "replay"
  revealed: null, // hot-seat: the human seat whose view is on screen
  shownSeat: null, // the seat whose view is drawn
  legal: new Set(), // the legal actions of the drawn view, when a human may play them
  running: false,
  halted: false, // the bots were stopped: wait for Resume
  auto: false,
  busy: null, // {started, budget, timer}
  moves: 0,
};

const conn = new Connection({
  onSession: (reply) => { startSession(reply).catch(report); },
  onClose: (retrying) => {
    setConn(retrying ? "disconnected: reconnecting…" : "disconnected: reload the page to try again", "bad");
  },
  onUnsolicited: (reply) => {
    if (reply.type === "error") report(new ProtocolError(reply));
  },
});

// --- small helpers ------------------------------------------------------------------------------

function setConn(text, kind = "") {
  const conn = $("conn");
  conn.textContent = text;
  conn.className = `conn ${kind}`;
}

function message(text) {
  const box = $("message");
  box.textContent = text;
  show(box, Boolean(text));
}

function report(error) {
  if (error instanceof ProtocolError) message(`${error.kind}: ${error.message}`);
  else if (error instanceof ClosedError) message("the connection to the server was lost");
  else message(String(error && error.message ? error.message : error));
  if (!(error instanceof ProtocolError) && !(error instanceof ClosedError)) console.error(error);
}

function seatLabel(seat) {
  if (seat === -1) return "chance";
  if (seat < 0) return "—";
  const bot = app.table?.seats?.[String(seat)];
  return bot ? `Seat ${seat} (${bot})` : `Seat ${seat}`;
}

function humans() {
  if (!app.table) return [];
  return Object.entries(app.table.seats).filter(([, bot]) => bot === null).map(([s]) => Number(s));
}

function isHuman(seat) {
  return seat >= 0 && app.table?.seats?.[String(seat)] === null;
}

function remember() {
  const state = app.table ? { game_id: app.table.game_id, mode: app.mode } : {};
  sessionStorage.setItem(PAGE_KEY, JSON.stringify(state));
}

function remembered() {
  try {
    return JSON.parse(sessionStorage.getItem(PAGE_KEY) || "{}");
  } catch {
    return {};
  }
}

function log(text, kind = "", detail = "") {
  const list = $("log");
  list.append(el("li", { class: kind }, text, detail ? el("span", { class: "log-detail" }, ` — ${detail}`) : null));
  while (list.children.length > LOG_LIMIT) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

// --- requests, with the progress indicator --------------------------------------------------------

const DOING = {
  advance: "the bots are moving", act: "a bot is thinking", hint: "thinking about a hint",
  view: "drawing", new_game: "setting up", load_replay: "checking the replay", goto: "replaying",
};

/** Send one request with the busy indicator up while it runs; `budget` (text) is shown with it. */
async function call(request, options = {}, budget = null) {
  const started = performance.now();
  const busy = { started, budget, timer: null };
  app.busy = busy;
  const tick = () => {
    const seconds = (performance.now() - started) / 1000;
    const doing = DOING[request.type] ?? request.type;
    $("busy-text").textContent = `${doing}: ${seconds.toFixed(1)} s` + (budget ? ` (budget ${budget})` : "");
    show($("busy"), true);
  };
  busy.timer = setTimeout(function again() {
    tick();
    busy.timer = setTimeout(again, 100);
  }, BUSY_AFTER_MS);
  document.body.classList.add("working");
  try {
    return await conn.request(request, options);
  } finally {
    clearTimeout(busy.timer);
    if (app.busy === busy) {
      app.busy = null;
      show($("busy"), false);
      document.body.classList.remove("working");
    }
  }
}

async function stop() {
  app.halted = true;
  app.auto = false;
  updateControls();
  try {
    await conn.request({ type: "stop" });
  } catch (error) {
    report(error);
  }
}

// --- the session ---------------------------------------------------------------------------------

async function startSession(reply) {
  setConn(reply.resumed ? "connected (resumed)" : "connected", "good");
  const welcome = await conn.request({ type: "hello" });
  if (!app.welcome) {
    app.welcome = welcome;
    fillGames();
  }
  const stored = remembered();
  if (reply.resumed) {
    const { tables } = await conn.request({ type: "tables" });
    const wanted = app.table?.game_id ?? stored.game_id;
    const found = tables.find((t) => t.game_id === wanted) ?? (wanted ? undefined : tables.at(-1));
    if (found) {
      message(""); // what a lost connection left on screen is over
      restore(found, stored.mode);
      log(`reconnected to game ${found.game_id}`, "note");
      await run();
      return;
    }
  }
  if (app.table || stored.game_id) message("the server no longer has the game this page showed");
  closeTable();
  showSetup();
}

function restore(entry, mode) {
  openTable(entry, mode);
  if (entry.replay) app.mode = "replay";
}

function openTable(started, mode = null) {
  const same = app.table?.game_id === started.game_id; // a reconnect keeps the log it has
  app.table = {
    game_id: started.game_id, game: started.game, config: started.config, players: started.players,
    seats: started.seats, decision: started.decision, over: started.over,
    returns: started.returns ?? null, replay: null,
  };
  if (started.replay) {
    // a loaded replay starts at its end (game_started); `tables` also says where it stands
    const steps = started.replay.steps;
    app.table.replay = { step: started.replay.step ?? steps, steps };
  }
  const people = humans();
  app.mode = mode ?? (started.replay ? "replay" : people.length ? "play" : "watch");
  if (app.mode === "play" && !people.length) app.mode = "watch";
  app.revealed = null;
  app.shownSeat = null;
  app.halted = false;
  app.auto = false;
  app.moves = 0;
  $("game-id").textContent = `${started.game} · ${started.game_id}`;
  if (!same) $("log").replaceChildren();
  clearHint();
  fillViewer();
  fillHintBots();
  show($("setup"), false);
  show($("play"), true);
  show($("result"), false);
  remember();
  updateControls();
}

/** Forget the game `old` replaced at the server too (a session holds a limited number of games). */
function endTable(old) {
  if (!old) return;
  // a game already gone (an expired session) has nothing to forget
  conn.request({ type: "end_game", game_id: old.game_id }).catch(() => {});
}

function closeTable() {
  app.table = null;
  app.mode = null;
  $("game-id").textContent = "";
  remember();
}

// --- the setup form ------------------------------------------------------------------------------

function fillGames() {
  const select = $("game");
  select.replaceChildren(...Object.keys(app.welcome.games).map((g) => el("option", { value: g }, g)));
  const changed = () => {
    buildSetup($("setup-form"), app.welcome, select.value);
    const bots = app.welcome.games[select.value].bots;
    $("game-bots").textContent = Object.entries(bots).map(([b, d]) => `${b}: ${d}`).join(" · ");
  };
  select.addEventListener("change", changed);
  changed();
}

function showSetup() {
  show($("play"), false);
  show($("setup"), true);
  $("game").focus();
}

async function startGame(event) {
  event.preventDefault();
  message("");
  let request;
  try {
    request = readSetup($("setup-form"), $("game").value);
  } catch (error) {
    report(error);
    return;
  }
  try {
    const started = await replaceTable(request);
    log(`new game: ${started.game}, ${started.players} seats`, "note");
    await run();
  } catch (error) {
    report(error);
  }
}

/** Start the table `request` asks for (new_game or load_replay), then end the one it replaces: the
 * old game stays if the server refuses the new one. */
async function replaceTable(request, mode) {
  const old = app.table;
  const started = await call(request);
  endTable(old);
  openTable(started, mode);
  return started;
}

// --- the table -----------------------------------------------------------------------------------

/** Take in a reply that moved the game (applied, advanced, at, game_started). */
function update(reply) {
  const t = app.table;
  if (!t || reply.game_id !== t.game_id) return;
  if (reply.decision) t.decision = reply.decision;
  if (reply.over !== undefined) t.over = reply.over;
  if (reply.returns) t.returns = reply.returns;
  if (reply.type === "at") t.replay = { step: reply.step, steps: reply.steps };
}

/** Log one step: `mover` is the decision the step answered. */
function logStep(reply, mover) {
  const who = seatLabel(mover.seat);
  const text = reply.action ?? reply.public?.action ?? "(hidden)";
  // an event that says itself in words (a Note) is shown in words, the others by their kind
  const events = (reply.public?.events || []).filter((e) => e.kind !== "GameOver")
    .map((e) => (typeof e.text === "string" ? e.text : e.kind));
  app.moves += 1;
  log(`${who}: ${text}`, "", events.join(" · "));
  if (app.table.replay) {
    // a move made after stepping back ends the loaded record there
    const step = app.table.replay.step + 1;
    app.table.replay = { step, steps: step };
  }
}

/** Move the game along until a person must act (play mode), then draw what they see. */
async function run() {
  if (app.running || !app.table) return;
  app.running = true;
  try {
    while (app.table) {
      const t = app.table;
      if (t.over) {
        await showOver();
        break;
      }
      if (app.mode !== "play") {
        await showWatched();
        break;
      }
      const seat = t.decision.seat;
      if (isHuman(seat)) {
        await showTurn(seat);
        break;
      }
      if (app.halted) {
        await showSeat(app.shownSeat ?? humans()[0], false);
        break;
      }
      await advance();
    }
  } catch (error) {
    report(error);
  } finally {
    app.running = false;
    updateControls();
  }
}

async function advance() {
  const t = app.table;
  let mover = t.decision;
  const reply = await call({ type: "advance", game_id: t.game_id }, {
    step: (applied) => {
      logStep(applied, mover);
      update(applied);
      mover = applied.decision;
    },
    last: (r) => r.type === "advanced",
  });
  update(reply);
  if (reply.stopped) app.halted = true;
}

/** A human seat is to act: hot-seat screens first when several people share the page. */
async function showTurn(seat) {
  if (humans().length > 1 && app.revealed !== seat) {
    clearPosition();
    $("reveal-text").textContent = `Seat ${seat} to play — show`;
    show($("reveal"), true);
    $("reveal-btn").dataset.seat = String(seat);
    $("reveal-btn").focus();
    return;
  }
  await showSeat(seat, true);
}

/** Watch and replay: draw the chosen seat's view; the seat to act may be played when human. */
async function showWatched() {
  const t = app.table;
  const choice = $("viewer").value;
  let seat = choice === "auto" ? t.decision.seat : Number(choice);
  if (seat < 0) seat = app.shownSeat ?? 0;
  await showSeat(seat, seat === t.decision.seat && isHuman(seat));
}

async function showOver() {
  const t = app.table;
  const seat = app.mode === "play" ? (app.revealed ?? humans()[0]) : (app.shownSeat ?? 0);
  await showSeat(seat, false);
  const box = $("result");
  box.replaceChildren(el("strong", {}, t.decision.prompt || "game over"));
  if (t.returns) {
    const rows = t.returns.map((r, s) => el("li", {}, `${seatLabel(s)}: ${r > 0 ? "+" : ""}${r}`));
    box.append(el("ul", { class: "returns" }, ...rows));
  }
  show(box, true);
}

/** Ask for `seat`'s view with its picture and draw it; `playable`: its legal moves are buttons. */
async function showSeat(seat, playable) {
  const t = app.table;
  const reply = await call({ type: "view", game_id: t.game_id, seat, draw: true });
  if (app.table !== t) return;
  const view = reply.view;
  app.shownSeat = seat;
  app.legal = new Set(playable ? view.legal_actions : []);
  const watching = app.mode !== "play" && !playable;
  $("who").textContent = `${watching ? "Watching " : ""}${seatLabel(seat)}${playable ? " — your move" : ""}`;
  $("prompt").textContent = view.decision?.prompt ?? t.decision.prompt;
  $("view-json").textContent = JSON.stringify(view, null, 1);
  drawPicture($("picture"), reply.svg ?? null);
  drawLegal(playable ? view.legal_actions : []);
  // a hint is for the seat to act (a person's turn, or a bot's watched)
  $("hint-btn").disabled = t.over || seat !== t.decision.seat;
  updateControls();
}

function clearPosition() {
  $("picture").replaceChildren();
  $("legal").replaceChildren();
  $("view-json").textContent = "";
  $("who").textContent = "";
  $("prompt").textContent = "";
  app.legal = new Set();
  clearHint();
}

function drawPicture(holder, svg) {
  if (!svg) {
    holder.replaceChildren(el("p", { class: "no-picture" }, "No picture for this game: use the moves on the right."));
    return;
  }
  try {
    showSvg(holder, svg, app.legal, choose);
  } catch (error) {
    holder.replaceChildren(el("p", { class: "no-picture" }, String(error.message)));
  }
}

function drawLegal(actions) {
  const box = $("legal");
  box.replaceChildren(...actions.map((action) =>
    el("button", { type: "button", class: "legal", "data-action": action }, action)));
}

// --- moving --------------------------------------------------------------------------------------

/** Several moves on one picture element: a small menu next to it; one move: play it. */
function choose(actions, element) {
  if (actions.length === 1) {
    play(actions[0]);
    return;
  }
  const menu = $("chooser");
  menu.replaceChildren(
    el("p", {}, "Which move?"),
    ...actions.map((a) => el("button", { type: "button", class: "choice", "data-action": a }, a)),
    el("button", { type: "button", class: "choice-cancel" }, "Cancel"),
  );
  const box = element.getBoundingClientRect();
  menu.style.left = `${Math.min(window.scrollX + box.right + 6, window.scrollX + window.innerWidth - 260)}px`;
  menu.style.top = `${window.scrollY + box.top}px`;
  show(menu, true);
  menu.querySelector("button").focus();
}

function closeChooser() {
  show($("chooser"), false);
}

async function play(action) {
  closeChooser();
  const t = app.table;
  if (!t || app.running) return;
  message("");
  const mover = t.decision;
  // the log is public to everyone at the screen: a move in full only when one person plays
  const own = app.mode === "play" && humans().length === 1;
  app.running = true;
  try {
    const reply = await call({ type: "apply", game_id: t.game_id, action });
    logStep({ ...reply, action: own ? action : reply.public?.action }, mover);
    update(reply);
    clearHint();
  } catch (error) {
    report(error); // an illegal or stale move changes nothing: the position stays as drawn
    return;
  } finally {
    app.running = false;
  }
  await run();
}

/** Watch mode: one bot or chance step. */
async function step() {
  const t = app.table;
  if (!t || t.over || app.running) return false;
  const d = t.decision;
  let request;
  if (d.seat === -1) request = { type: "chance", game_id: t.game_id };
  else if (t.seats[String(d.seat)]) request = { type: "act", game_id: t.game_id, seat: d.seat };
  else {
    message(`${seatLabel(d.seat)} is played by a person: choose a move`);
    return false;
  }
  message("");
  app.running = true;
  try {
    const reply = await call(request);
    logStep(reply, d);
    update(reply);
  } catch (error) {
    report(error);
    return false;
  } finally {
    app.running = false;
  }
  await run();
  return true;
}

async function autoPlay() {
  app.auto = !app.auto;
  app.halted = false;
  updateControls();
  while (app.auto && app.table && !app.table.over) {
    const t = app.table;
    if (t.decision.seat >= 0 && !t.seats[String(t.decision.seat)]) break; // a person's move
    if (!(await step())) break;
    // a pause between two steps of a watched game, so a person can follow it
    await new Promise((resolve) => setTimeout(resolve, Number($("speed").value)));
  }
  app.auto = false;
  updateControls();
}

async function gotoStep(k) {
  const t = app.table;
  if (!t || !t.replay || app.running) return;
  const steps = t.replay.steps;
  const target = Math.max(0, Math.min(steps, k));
  message("");
  try {
    const reply = await call({ type: "goto", game_id: t.game_id, step: target });
    update(reply);
    t.over = reply.over;
  } catch (error) {
    report(error);
    return;
  }
  show($("result"), false);
  await run();
}

// --- hints ---------------------------------------------------------------------------------------

function fillHintBots() {
  const bots = Object.keys(app.welcome.games[app.table.game].bots);
  const select = $("hint-bot");
  select.replaceChildren(...bots.map((b) => el("option", { value: b }, b)));
  // the game's advisor (its strongest bot) unless the server is older and names none
  const advisor = app.welcome.games[app.table.game].advisor;
  if (advisor && bots.includes(advisor)) select.value = advisor;
  else if (bots.includes("heuristic")) select.value = "heuristic";
}

function clearHint() {
  $("hint-list").replaceChildren();
  $("hint-summary").textContent = "";
  $("hint-svg").replaceChildren();
  show($("hint-box"), false);
  show($("picture"), true);
}

function number(value) {
  return Math.abs(value) >= 1e5 ? value.toExponential(1) : value.toFixed(2);
}

function percentOrNumber(value) {
  if (value === null || value === undefined) return "";
  return value >= 0 && value <= 1 ? `${(100 * value).toFixed(1)}%` : number(value);
}

async function hint() {
  const t = app.table;
  const seat = app.shownSeat;
  if (!t || seat === null || app.running) return;
  const request = { type: "hint", game_id: t.game_id, seat, bot: $("hint-bot").value, draw: true };
  const budget = $("hint-budget").value.trim();
  if (budget !== "") request.budget = Number(budget);
  message("");
  app.running = true;
  let reply;
  try {
    reply = await call(request, {}, budget === "" ? null : `${budget} iterations`);
  } catch (error) {
    report(error);
    return;
  } finally {
    app.running = false;
  }
  if (app.table !== t || app.shownSeat !== seat) return;
  const advice = reply.advice;
  // a ranking the advisor left to its policy says so first
  const decided = advice.note ? `Decided by the ${advice.decided_by} policy: ${advice.note}. ` : "";
  $("hint-summary").textContent = (reply.stopped ? "(stopped early) " : "") + decided + (advice.summary || "");
  const rows = advice.ranked.map((move, i) => {
    const facts = [];
    if (move.value !== null && move.value !== undefined) facts.push(`value ${percentOrNumber(move.value)}`);
    facts.push(`score ${number(Number(move.score))}`);
    if (move.visits) facts.push(`${move.visits} visits`);
    const playBtn = app.legal.has(move.text)
      ? el("button", { type: "button", class: "hint-play", "data-action": move.text }, "play") : null;
    return el("li", { class: i === 0 ? "best" : "" },
      el("span", { class: "hint-move" }, move.text), " ", el("span", { class: "hint-facts" }, facts.join(" · ")),
      playBtn, move.reason ? el("div", { class: "hint-reason" }, move.reason) : null);
  });
  $("hint-list").replaceChildren(...rows);
  if (reply.svg) {
    try {
      showSvg($("hint-svg"), reply.svg, app.legal, choose);
      show($("picture"), false);
      show($("hint-box"), true);
    } catch (error) {
      report(error);
    }
  }
}

// --- replays -------------------------------------------------------------------------------------

async function loadReplay(file) {
  if (!file) return;
  message("");
  let text;
  try {
    text = await file.text();
  } catch (error) {
    report(error);
    return;
  }
  try {
    const started = await replaceTable({ type: "load_replay", replay: text }, "replay");
    log(`replay loaded: ${started.replay?.steps ?? "?"} steps`, "note");
    await run();
  } catch (error) {
    report(error);
  } finally {
    $("replay-file").value = "";
  }
}

async function save() {
  const t = app.table;
  if (!t) return;
  message("");
  try {
    const reply = await call({ type: "save", game_id: t.game_id });
    const blob = new Blob([reply.text], { type: "application/x-ndjson" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${t.game}-${t.game_id}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    log("replay saved", "note");
  } catch (error) {
    report(error);
  }
}

// --- controls ------------------------------------------------------------------------------------

function fillViewer() {
  const select = $("viewer");
  const options = [el("option", { value: "auto" }, "the seat to act")];
  for (let s = 0; s < app.table.players; s++) options.push(el("option", { value: String(s) }, `seat ${s}`));
  select.replaceChildren(...options);
}

function updateControls() {
  const t = app.table;
  const watching = Boolean(t) && app.mode !== "play";
  show($("watch-controls"), watching);
  show($("viewer-box"), watching);
  show($("replay-controls"), Boolean(t?.replay));
  if (t?.replay) {
    $("step-counter").textContent = `step ${t.replay.step} / ${t.replay.steps}`;
    $("step-back").disabled = t.replay.step <= 0;
    $("step-fwd").disabled = t.replay.step >= t.replay.steps;
  }
  const botToMove = Boolean(t) && !t.over && (t.decision.seat === -1 || Boolean(t.seats[String(t.decision.seat)]));
  $("step-btn").disabled = !botToMove || app.running;
  $("auto-btn").textContent = app.auto ? "Pause" : "Auto";
  $("auto-btn").setAttribute("aria-pressed", String(app.auto));
  $("auto-btn").disabled = !botToMove && !app.auto;
  show($("resume-btn"), Boolean(t) && app.mode === "play" && app.halted && !t.over);
  $("save-btn").disabled = !t;
}

function wire() {
  $("setup-form").addEventListener("submit", startGame);
  $("new-btn").addEventListener("click", () => {
    app.auto = false;
    closeChooser();
    showSetup();
  });
  $("replay-file").addEventListener("change", (e) => loadReplay(e.target.files[0]));
  $("legal").addEventListener("click", (e) => {
    const button = e.target.closest("button.legal");
    if (button) play(button.dataset.action);
  });
  $("hint-list").addEventListener("click", (e) => {
    const button = e.target.closest("button.hint-play");
    if (button) play(button.dataset.action);
  });
  $("chooser").addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (!button) return;
    if (button.classList.contains("choice")) play(button.dataset.action);
    else closeChooser();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeChooser();
  });
  document.addEventListener("click", (e) => {
    if (!$("chooser").hidden && !e.target.closest("#chooser")) closeChooser();
  });
  $("reveal-btn").addEventListener("click", async () => {
    show($("reveal"), false);
    app.revealed = Number($("reveal-btn").dataset.seat);
    await run();
  });
  $("hint-btn").addEventListener("click", hint);
  $("hint-close").addEventListener("click", () => {
    show($("hint-box"), false);
    show($("picture"), true);
  });
  $("stop-btn").addEventListener("click", stop);
  $("resume-btn").addEventListener("click", () => {
    app.halted = false;
    updateControls();
    run();
  });
  $("step-btn").addEventListener("click", step);
  $("auto-btn").addEventListener("click", () => {
    if (app.auto) app.auto = false;
    else autoPlay();
    updateControls();
  });
  $("step-back").addEventListener("click", () => gotoStep(app.table.replay.step - 1));
  $("step-fwd").addEventListener("click", () => gotoStep(app.table.replay.step + 1));
  $("viewer").addEventListener("change", () => run());
  $("save-btn").addEventListener("click", save);
}

// Tests and the curious may send a move by text through the page's own path (the same checks and
// messages as a click): window.copsolver.play("taxi 69").
window.copsolver = { play, state: app };

wire();
conn.connect();
