// The new-game form, built from the server's `welcome`: a game, its options (welcome's `options`:
// type, range, choices; values from default_config), and each seat played by a human or a bot with
// its options (welcome's `bot_options`: the strength as iterations or seconds, and the rest). Only
// the options a person changed are sent: the others keep their defaults, some of which follow from
// others (Police 07's pieces follow the player count).

import { el } from "./dom.js";

/** The strength options a bot takes (search bots: iterations and/or seconds). */
function strengthUnits(botOptions) {
  return ["iterations", "seconds"].filter((u) => u in (botOptions || {}));
}

/** An input for one option from its spec (choices: a select; numbers: a number input in range). */
function specInput(id, name, spec, value) {
  let input;
  if (Array.isArray(spec.choices)) {
    input = el("select", { id, name });
    for (const choice of spec.choices) {
      input.append(el("option", { value: JSON.stringify(choice) }, String(choice)));
    }
    input.value = JSON.stringify(value);
    input.dataset.kind = "json";
  } else if (spec.type === "bool") {
    input = el("input", { type: "checkbox", id, name });
    input.checked = Boolean(value);
    input.dataset.kind = "boolean";
  } else if (spec.type === "int" || spec.type === "float") {
    const attrs = { type: "number", id, name, step: spec.type === "int" ? "1" : "any" };
    if (spec.minimum !== undefined) attrs.min = String(spec.minimum);
    if (spec.maximum !== undefined) attrs.max = String(spec.maximum);
    input = el("input", attrs);
    if (value === null || value === undefined) {
      input.placeholder = "default";
      input.dataset.kind = "nullable-number";
    } else {
      input.value = String(value);
      input.dataset.kind = "number";
    }
  } else {
    return null;
  }
  if (spec.help) input.title = spec.help;
  input.dataset.initial = input.type === "checkbox" ? String(input.checked) : input.value;
  return input;
}

function optionInput(name, value, contentNames, spec) {
  const id = `opt-${name}`;
  const names = contentNames[name];
  let input = spec && !spec.content ? specInput(id, name, spec, value) : null;
  if (input) {
    return el("label", { class: "field" }, el("span", {}, name.replaceAll("_", " ")), input);
  }
  if (typeof value === "boolean") {
    input = el("input", { type: "checkbox", id, name });
    input.checked = value;
    input.dataset.kind = "boolean";
  } else if (typeof value === "number") {
    input = el("input", { type: "number", id, name, value: String(value), step: "any" });
    input.dataset.kind = "number";
  } else if (Array.isArray(names)) {
    // a content option: the names the server offers, never a path
    input = el("select", { id, name });
    const choices = value === null ? [null, ...names] : [...new Set([value, ...names])];
    for (const choice of choices) {
      input.append(el("option", { value: JSON.stringify(choice) }, choice === null ? "(shipped)" : choice));
    }
    input.dataset.kind = "json";
  } else if (typeof value === "string" || value === null) {
    input = el("input", { type: "text", id, name, value: value ?? "", placeholder: "(default)" });
    input.dataset.kind = value === null ? "nullable" : "string";
  } else {
    input = el("input", { type: "text", id, name, value: JSON.stringify(value) });
    input.dataset.kind = "json";
  }
  input.dataset.initial = input.type === "checkbox" ? String(input.checked) : input.value;
  return el("label", { class: "field" }, el("span", {}, name.replaceAll("_", " ")), input);
}

function readOption(input) {
  const kind = input.dataset.kind;
  if (kind === "boolean") return input.checked;
  if (kind === "number") {
    const n = Number(input.value);
    if (input.value.trim() === "" || !Number.isFinite(n)) throw new Error(`${input.name}: not a number`);
    return n;
  }
  if (kind === "nullable-number") {
    if (input.value.trim() === "") return null;
    const n = Number(input.value);
    if (!Number.isFinite(n)) throw new Error(`${input.name}: not a number`);
    return n;
  }
  if (kind === "nullable") return input.value.trim() === "" ? null : input.value.trim();
  if (kind === "string") return input.value;
  try {
    return JSON.parse(input.value);
  } catch {
    throw new Error(`${input.name}: not valid JSON`);
  }
}

function seatRow(seat, bots, botOptions, defaultBot) {
  const who = el("select", { id: `seat-${seat}`, class: "seat-who", "aria-label": `seat ${seat}` });
  who.append(el("option", { value: "" }, "human"));
  for (const [bot, description] of Object.entries(bots)) {
    who.append(el("option", { value: bot, title: description }, `bot: ${bot}`));
  }
  who.value = defaultBot;
  const unit = el("select", { id: `seat-${seat}-unit`, class: "seat-unit", "aria-label": `seat ${seat} strength unit` });
  const amount = el("input", {
    type: "number", id: `seat-${seat}-amount`, class: "seat-amount", min: "0", step: "any",
    placeholder: "default", "aria-label": `seat ${seat} strength`,
  });
  // the bot's other options (LineUp's memory, a search's exploration constant ...)
  const more = el("span", { class: "seat-options", id: `seat-${seat}-options` });
  const refresh = () => {
    const specs = who.value ? botOptions[who.value] || {} : {};
    const units = strengthUnits(specs);
    unit.replaceChildren(...units.map((u) => el("option", { value: u }, u)));
    unit.hidden = amount.hidden = units.length === 0;
    more.replaceChildren();
    for (const [name, spec] of Object.entries(specs)) {
      if (units.includes(name) || spec.content) continue;
      const input = specInput(`seat-${seat}-opt-${name}`, name, spec, spec.default);
      if (input) {
        input.classList.add("seat-option");
        more.append(el("label", { class: "seat-option-field" }, el("span", {}, name), input));
      }
    }
  };
  who.addEventListener("change", refresh);
  refresh();
  return el("div", { class: "seat-row" }, el("span", { class: "seat-name" }, `Seat ${seat}`), who, amount, unit, more);
}

/** Fill `form` for `game`: its options, and one row per seat that follows the player count. */
export function buildSetup(form, welcome, game) {
  const info = welcome.games[game];
  const contentNames = (welcome.content || {})[game] || {};
  const options = form.querySelector("#options");
  options.replaceChildren();
  for (const [name, value] of Object.entries(info.default_config)) {
    options.append(optionInput(name, value, contentNames, (info.options || {})[name]));
  }
  const seats = form.querySelector("#seats");
  const botNames = Object.keys(info.bots);
  const quick = ["heuristic", "random"].find((b) => botNames.includes(b)) || botNames[0] || "";
  const drawSeats = () => {
    const playersInput = options.querySelector("#opt-players");
    const n = Math.max(1, Math.min(12, Math.trunc(Number(playersInput?.value) || 1)));
    const old = new Map(Array.from(seats.querySelectorAll(".seat-who")).map((s) => [s.id, s.value]));
    seats.replaceChildren();
    for (let seat = 0; seat < n; seat++) {
      const fallback = seat === 0 ? "" : quick;
      const row = seatRow(seat, info.bots, info.bot_options || {}, old.get(`seat-${seat}`) ?? fallback);
      seats.append(row);
    }
  };
  options.querySelector("#opt-players")?.addEventListener("input", drawSeats);
  drawSeats();
}

/** The `new_game` request the form describes (throws Error with a message on a bad field). */
export function readSetup(form, game) {
  const config = {};
  for (const input of form.querySelectorAll("#options input, #options select")) {
    const now = input.type === "checkbox" ? String(input.checked) : input.value;
    if (now !== input.dataset.initial) config[input.name] = readOption(input);
  }
  const bots = {};
  for (const who of form.querySelectorAll(".seat-who")) {
    if (!who.value) continue;
    const seat = who.id.slice("seat-".length);
    const amount = form.querySelector(`#seat-${seat}-amount`);
    const unit = form.querySelector(`#seat-${seat}-unit`);
    const options = {};
    if (!amount.hidden && amount.value.trim() !== "") {
      const n = Number(amount.value);
      if (!(n > 0)) throw new Error(`seat ${seat}: the strength must be a positive number`);
      options[unit.value] = unit.value === "iterations" ? Math.round(n) : n;
    }
    for (const input of form.querySelectorAll(`#seat-${seat}-options .seat-option`)) {
      const now = input.type === "checkbox" ? String(input.checked) : input.value;
      if (now !== input.dataset.initial) options[input.name] = readOption(input);
    }
    bots[seat] = Object.keys(options).length ? { name: who.value, options } : who.value;
  }
  const request = { type: "new_game", game, config, bots };
  const seed = form.querySelector("#seed").value.trim();
  if (seed !== "") request.seed = Number(seed);
  return request;
}
