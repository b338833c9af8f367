// The page of `latrunculi serve`: an SVG board, a Play view (a game on the server, moves
// by clicking), a Study view (a recorded game stepped through, an agent's analysis) and a
// Rules view (a ruleset's parameters in words). Every rule is the server's: the page only
// draws what the JSON says and sends the moves the server listed as legal.
"use strict";

const $ = (id) => document.getElementById(id);
const SQ = 48; // square size in px
const MARGIN = 20; // room for the coordinates
const SVGNS = "http://www.w3.org/2000/svg";

const state = {
  view: "play",
  game: null, // the game in play (GameView)
  selected: null, // the selected square in play
  paused: false,
  agentTimer: null,
  study: null, // the game in study (StudyView)
  ply: 0, // the ply shown in study
  csv: null, // {path} or {text} of the games CSV listed
  heat: null, // the heat map of the last analysis, per square
};

// ----- talking to the server -----

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.error || `${res.status}`);
  return data;
}

function showError(e) {
  const box = $("error");
  if (!e) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = e.message || String(e);
  box.hidden = false;
}

async function guarded(f) {
  try { showError(null); await f(); } catch (e) { showError(e); }
}

// ----- the board -----

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function parseSquare(name) {
  return { file: name.charCodeAt(0) - 97, rank: parseInt(name.slice(1), 10) - 1 };
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Draws `board` (a BoardView). `marks`: {last: ply view, targets: [squares], selected,
// heat: [per square]}; `onClick(square)` for clicks on squares.
function drawBoard(board, marks, onClick) {
  const svg = $("board");
  svg.innerHTML = "";
  const w = board.width, h = board.height;
  svg.setAttribute("width", MARGIN + w * SQ);
  svg.setAttribute("height", MARGIN + h * SQ);
  const xy = (f, r) => [MARGIN + f * SQ, (h - 1 - r) * SQ];
  const last = marks.last;
  const lastSquares = last ? [last.from, last.to] : [];
  for (let r = 0; r < h; r++) {
    for (let f = 0; f < w; f++) {
      const name = squareName(f, r);
      const [x, y] = xy(f, r);
      const cls = lastSquares.includes(name) ? "last" : (f + r) % 2 ? "sq-light" : "sq-dark";
      const rect = el("rect", { x, y, width: SQ, height: SQ, class: `sq ${cls}`, "data-square": name }, svg);
      if (onClick) rect.addEventListener("click", () => onClick(name));
    }
  }
  for (let f = 0; f < w; f++) el("text", { x: MARGIN + f * SQ + SQ / 2, y: h * SQ + MARGIN / 2, class: "coord" }, svg).textContent = String.fromCharCode(97 + f);
  for (let r = 0; r < h; r++) el("text", { x: MARGIN / 2, y: (h - 1 - r) * SQ + SQ / 2, class: "coord" }, svg).textContent = r + 1;
  if (marks.heat && marks.heat.length === w * h) {
    const max = Math.max(...marks.heat, 1e-9);
    marks.heat.forEach((p, i) => {
      if (p <= 0) return;
      const [x, y] = xy(i % w, Math.floor(i / w));
      el("rect", { x, y, width: SQ, height: SQ, class: "heat", opacity: (0.15 + 0.6 * p / max).toFixed(2), "data-heat": p.toFixed(3) }, svg);
      el("text", { x: x + SQ - 14, y: y + 11, class: "heat-label" }, svg).textContent = Math.round(p * 100);
    });
  }
  for (let i = 0; i < board.cells.length; i++) {
    const c = board.cells[i];
    if (c === ".") continue;
    const [x, y] = xy(i % w, Math.floor(i / w));
    const white = c === c.toUpperCase();
    el("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.38, class: white ? "piece-w" : "piece-b", "data-piece": c, "data-square": squareName(i % w, Math.floor(i / w)) }, svg);
    if (c === "D" || c === "d") {
      el("text", { x: x + SQ / 2, y: y + SQ / 2, class: "dux-label", fill: white ? "#000" : "#fff" }, svg).textContent = "D";
    }
    if (c === "T" || c === "t") {
      el("line", { x1: x + 12, y1: y + 12, x2: x + SQ - 12, y2: y + SQ - 12, class: "trap-mark" }, svg);
      el("line", { x1: x + SQ - 12, y1: y + 12, x2: x + 12, y2: y + SQ - 12, class: "trap-mark" }, svg);
    }
  }
  if (last) {
    for (const s of last.captured) {
      const p = parseSquare(s);
      const [x, y] = xy(p.file, p.rank);
      el("line", { x1: x + 8, y1: y + 8, x2: x + SQ - 8, y2: y + SQ - 8, class: "capture-mark", "data-captured": s }, svg);
      el("line", { x1: x + SQ - 8, y1: y + 8, x2: x + 8, y2: y + SQ - 8, class: "capture-mark" }, svg);
    }
  }
  if (board.pending) {
    const p = parseSquare(board.pending);
    const [x, y] = xy(p.file, p.rank);
    el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "pending" }, svg);
  }
  if (marks.selected) {
    const p = parseSquare(marks.selected);
    const [x, y] = xy(p.file, p.rank);
    el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "selected" }, svg);
  }
  for (const t of marks.targets || []) {
    const p = parseSquare(t);
    const [x, y] = xy(p.file, p.rank);
    el("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.14, class: "target", "data-target": t }, svg);
  }
  const hands = board.hands;
  $("hands").textContent = hands.some((hd) => hd[0] + hd[1] > 0)
    ? `In hand: White ${hands[0][0]}${hands[0][1] ? "+D" : ""}, Black ${hands[1][0]}${hands[1][1] ? "+D" : ""}`
    : "";
  const o = $("outcome");
  o.hidden = !board.outcome;
  o.textContent = board.outcome ? board.outcome.text : "";
}

function fillMoves(list, moves, current, onPick) {
  list.innerHTML = "";
  moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${m.side === "white" ? m.number : m.number.replace("...", "…")} ${m.text}`;
    li.dataset.ply = i + 1;
    if (i + 1 === current) li.className = "current";
    if (onPick) li.addEventListener("click", () => onPick(i + 1));
    list.appendChild(li);
  });
  const cur = list.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// ----- play -----

function legalFrom(square) {
  return state.game.legal.filter((m) => m.kind === "move" && m.from === square);
}

function renderGame() {
  const g = state.game;
  if (!g) return;
  const b = g.board;
  const last = g.moves[g.moves.length - 1];
  const targets = state.selected ? legalFrom(state.selected).map((m) => m.to) : [];
  if (!state.selected) {
    // Placements and removals need no selection: show where they go.
    for (const m of g.legal) if (m.kind !== "move") targets.push(m.to);
  }
  drawBoard(b, { last, targets, selected: state.selected }, state.view === "play" ? clickPlay : null);
  $("board-title").textContent = `${g.name} (${g.ruleset}) — White: ${g.white}, Black: ${g.black}`;
  const whose = b.side_to_move === "white" ? g.white : g.black;
  $("status").textContent = b.outcome
    ? `Game over after ${b.ply} plies.`
    : `Ply ${b.ply + 1}: ${b.side_to_move} to move (${whose})${b.pending ? `; the piece on ${b.pending} moves again` : ""}.`;
  fillMoves($("moves"), g.moves, g.moves.length, null);
  $("fen-now").textContent = b.fen;
  $("record").textContent = g.record;
  const kinds = new Set(g.legal.filter((m) => m.kind === "place").map((m) => m.piece));
  $("place-choice").hidden = kinds.size < 2;
  scheduleAgent();
}

async function clickPlay(square) {
  const g = state.game;
  if (!g || g.board.outcome || g.agent_to_move) return;
  if (state.selected) {
    const m = legalFrom(state.selected).find((mv) => mv.to === square);
    if (m) return sendMove(m.text);
  }
  const kind = document.querySelector("input[name=place]:checked").value;
  const other = g.legal.filter((mv) => mv.kind !== "move" && mv.to === square);
  const pick = other.find((mv) => mv.kind === "remove" || mv.piece === kind) || other[0];
  if (pick && !legalFrom(square).length) return sendMove(pick.text);
  state.selected = legalFrom(square).length && state.selected !== square ? square : null;
  renderGame();
}

async function sendMove(text) {
  state.selected = null;
  await guarded(async () => {
    state.game = await api("POST", `/api/games/${state.game.id}/move`, { move: text });
  });
  renderGame();
}

function scheduleAgent() {
  clearTimeout(state.agentTimer);
  const g = state.game;
  if (!g || !g.agent_to_move || state.paused || state.view !== "play") return;
  const id = g.id;
  state.agentTimer = setTimeout(async () => {
    if (!state.game || state.game.id !== id) return;
    await guarded(async () => {
      state.game = await api("POST", `/api/games/${id}/agent`);
    });
    renderGame();
  }, Number($("speed").value));
}

async function newGame(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const body = { ruleset: $("ruleset").value, white: $("white").value, black: $("black").value };
    if ($("fen").value.trim()) body.fen = $("fen").value.trim();
    state.game = await api("POST", "/api/games", body);
    state.selected = null;
    $("rules-label").value = state.game.ruleset;
  });
  renderGame();
}

async function undo() {
  if (!state.game) return;
  // Against an agent, take back its reply too, so that the person is to move again.
  const g = state.game;
  const human = (side) => (side === "white" ? g.white : g.black) === "human";
  const me = g.board.side_to_move;
  const plies = human(me) && !human(me === "white" ? "black" : "white") && g.moves.length >= 2 ? 2 : 1;
  await guarded(async () => {
    state.game = await api("POST", `/api/games/${g.id}/undo`, { plies });
  });
  state.selected = null;
  renderGame();
}

function download() {
  if (!state.game) return;
  window.location.href = `/api/games/${state.game.id}/record`;
}

async function toStudy() {
  if (!state.game) return;
  await guarded(async () => {
    const s = await api("POST", "/api/study", { text: state.game.record, kind: "record" });
    openStudy(s);
    switchView("study");
  });
}

// ----- study -----

function openStudy(s) {
  state.study = s;
  state.heat = null;
  $("study").hidden = false;
  $("slider").max = s.moves.length;
  const agree = s.agrees ? `<span class="agree">the replay agrees</span>` : `<span class="disagree">the replay does not agree</span>`;
  $("study-info").innerHTML = "";
  const info = document.createElement("div");
  info.innerHTML = `<b></b><br>White: <span></span>, Black: <span></span><br>Recorded: <span></span>; by the rules: <span></span> (${agree})<div class="disagree"></div>`;
  const spans = info.querySelectorAll("span:not(.agree):not(.disagree)");
  info.querySelector("b").textContent = `${s.name} (${s.ruleset}) — ${s.source}`;
  spans[0].textContent = s.white;
  spans[1].textContent = s.black;
  spans[2].textContent = s.recorded;
  spans[3].textContent = s.result;
  info.querySelector("div.disagree").textContent = s.stopped || "";
  $("study-info").appendChild(info);
  $("rules-label").value = s.ruleset;
  showPly(0);
}

function showPly(n) {
  const s = state.study;
  if (!s) return;
  state.ply = Math.max(0, Math.min(n, s.moves.length));
  $("slider").value = state.ply;
  $("ply-label").textContent = `ply ${state.ply} of ${s.moves.length}`;
  state.heat = null;
  $("analysis").innerHTML = "";
  renderStudy();
}

function renderStudy() {
  const s = state.study;
  if (!s || state.view !== "study") return;
  const b = s.positions[state.ply];
  drawBoard(b, { last: state.ply ? s.moves[state.ply - 1] : null, heat: state.heat }, null);
  $("board-title").textContent = `${s.name} (${s.ruleset}) — White: ${s.white}, Black: ${s.black}`;
  $("status").textContent = b.outcome ? `After ply ${b.ply}.` : `Ply ${b.ply + 1}: ${b.side_to_move} to move. FEN ${b.fen}`;
  fillMoves($("study-moves"), s.moves, state.ply, showPly);
}

async function loadFiles() {
  const files = await api("GET", "/api/files");
  state.folders = files.folders;
  const folderSel = $("study-folder");
  for (const f of files.folders) {
    const o = document.createElement("option");
    o.value = f.folder;
    o.textContent = `${f.folder} (${f.files.length})`;
    folderSel.appendChild(o);
  }
  fillFiles();
  for (const m of files.models) {
    const o = document.createElement("option");
    o.value = `az:model=${m},sims=100`;
    $("agent-list").appendChild(o);
  }
}

// The file list of the Study view: the files of the chosen folder (or of all) whose path
// holds every word of the filter, one <optgroup> per directory. The selection is kept
// while it is still listed.
function fillFiles() {
  const folder = $("study-folder").value;
  const words = $("study-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  const sel = $("study-files");
  const kept = sel.value;
  const first = document.createElement("option");
  first.value = "";
  first.textContent = "(a committed games CSV or record)";
  sel.replaceChildren(first);
  let shown = 0;
  let total = 0;
  for (const f of state.folders || []) {
    if (folder && f.folder !== folder) continue;
    const groups = new Map();
    for (const p of f.files) {
      total += 1;
      if (!words.every((w) => p.toLowerCase().includes(w))) continue;
      const dir = p.slice(0, p.lastIndexOf("/"));
      if (!groups.has(dir)) groups.set(dir, []);
      groups.get(dir).push(p);
    }
    for (const [dir, paths] of groups) {
      const g = document.createElement("optgroup");
      g.label = dir;
      for (const p of paths) {
        const o = document.createElement("option");
        o.value = p;
        o.textContent = p.slice(dir.length + 1);
        g.appendChild(o);
        shown += 1;
      }
      sel.appendChild(g);
    }
  }
  if ([...sel.options].some((o) => o.value === kept)) sel.value = kept;
  $("study-count").textContent = shown === total ? `${total} files` : `${shown} of ${total} files`;
}

function listGames(page) {
  $("csv-games").hidden = false;
  $("csv-info").textContent = `${page.total} games${page.total > page.rows.length ? ` (the first ${page.rows.length} listed)` : ""}; click one to open it.`;
  const body = $("games-table").querySelector("tbody");
  body.innerHTML = "";
  for (const r of page.rows) {
    const tr = document.createElement("tr");
    tr.dataset.row = r.row;
    for (const v of [r.row, r.ruleset, r.white, r.black, r.winner, r.reason, r.plies]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => guarded(async () => {
      const req = state.csv.path ? { path: state.csv.path, row: r.row } : { text: state.csv.text, kind: "csv", row: r.row };
      openStudy(await api("POST", "/api/study", req));
    }));
    body.appendChild(tr);
  }
}

async function openFile() {
  const path = $("study-files").value;
  if (!path) return;
  await guarded(async () => {
    if (path.endsWith(".csv")) {
      state.csv = { path };
      listGames(await api("GET", `/api/csv?path=${encodeURIComponent(path)}`));
    } else {
      $("csv-games").hidden = true;
      openStudy(await api("POST", "/api/study", { path }));
    }
  });
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  const text = await file.text();
  await guarded(async () => {
    if (text.startsWith("ruleset,")) {
      state.csv = { text };
      listGames(await api("POST", "/api/csv", { text }));
    } else {
      $("csv-games").hidden = true;
      openStudy(await api("POST", "/api/study", { text, kind: "record" }));
    }
  });
}

async function analyse() {
  const s = state.study;
  if (!s) return showError(new Error("open a game first (a committed one, an upload, or 'Study this game' from Play)"));
  const box = $("analysis");
  box.textContent = "Thinking…";
  await guarded(async () => {
    const first = s.positions[0];
    const body = { ruleset: s.ruleset, agent: $("analyse-agent").value, fen: first.fen, moves: s.moves.slice(0, state.ply).map((m) => m.text) };
    const a = await api("POST", "/api/analyse", body);
    state.heat = a.heat.length ? a.heat : null;
    renderStudy();
    box.innerHTML = "";
    const lines = [`${a.agent}, for ${a.side}: best move ${a.best || "-"} (${a.ms} ms)`];
    if (a.score_text) lines.push(`Score ${a.score_text} (depth ${a.depth}, ${a.nodes} nodes)`);
    if (a.pv.length) lines.push(`Line: ${a.pv.join(" ")}`);
    if (a.value !== null && a.value !== undefined) lines.push(`Network value ${a.value.toFixed(3)} (from -1 to 1, for ${a.side})`);
    const top = (a.priors.length ? a.priors : a.visits).slice(0, 8);
    if (top.length) lines.push(`${a.priors.length ? "Policy" : "Visits"}: ${top.map((m) => `${m.text} ${(m.p * 100).toFixed(1)}%`).join(", ")}${state.heat ? " (heat map on the board: weight by destination square)" : ""}`);
    if (a.note) lines.push(a.note);
    for (const l of lines) {
      const d = document.createElement("div");
      d.textContent = l;
      box.appendChild(d);
    }
    box.id = "analysis";
    box.dataset.done = "1";
  });
  if (!$("error").hidden) box.textContent = "";
}

// ----- rules -----

async function showRules() {
  await guarded(async () => {
    const r = await api("GET", `/api/rules?ruleset=${encodeURIComponent($("rules-label").value)}`);
    const box = $("rules");
    box.innerHTML = "";
    const h = document.createElement("h3");
    h.textContent = `${r.name} (${r.label}): ${r.board}, ${r.pieces} each`;
    const src = document.createElement("p");
    src.textContent = `Source: ${r.source}`;
    const table = document.createElement("table");
    table.innerHTML = "<thead><tr><th>parameter</th><th>value</th><th>meaning</th></tr></thead>";
    const body = document.createElement("tbody");
    for (const p of r.params) {
      const tr = document.createElement("tr");
      for (const v of [p.key, p.value, p.value_meaning ? `${p.meaning} — ${p.value}: ${p.value_meaning}` : p.meaning]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.append(h, src, table);
  });
}

// ----- views and start -----

function switchView(view) {
  state.view = view;
  for (const v of ["play", "study", "rules"]) {
    $(`view-${v}`).hidden = v !== view;
    $(`tab-${v}`).classList.toggle("active", v === view);
  }
  if (view === "play") renderGame();
  if (view === "study") renderStudy();
  if (view === "rules") showRules();
}

async function start() {
  for (const b of document.querySelectorAll("nav button.tab")) b.addEventListener("click", () => switchView(b.dataset.view));
  $("new-game-form").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("pause").addEventListener("click", () => {
    state.paused = !state.paused;
    $("pause").textContent = state.paused ? "Resume agents" : "Pause agents";
    scheduleAgent();
  });
  $("speed").addEventListener("input", () => { $("speed-label").textContent = `${$("speed").value} ms`; });
  $("download").addEventListener("click", download);
  $("to-study").addEventListener("click", toStudy);
  $("study-open").addEventListener("click", openFile);
  $("study-folder").addEventListener("change", fillFiles);
  $("study-filter").addEventListener("input", fillFiles);
  $("upload").addEventListener("change", upload);
  $("slider").addEventListener("input", () => showPly(Number($("slider").value)));
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(state.ply - 1));
  $("next").addEventListener("click", () => showPly(state.ply + 1));
  $("last").addEventListener("click", () => showPly(Infinity));
  $("analyse").addEventListener("click", analyse);
  $("rules-show").addEventListener("click", showRules);
  document.addEventListener("keydown", (e) => {
    if (state.view !== "study" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step) { showPly(state.ply + step); e.preventDefault(); }
    if (e.key === "Home") showPly(0);
    if (e.key === "End") showPly(Infinity);
  });
  await guarded(async () => {
    const [rulesets, agents] = await Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/agents")]);
    for (const r of rulesets) {
      const o = document.createElement("option");
      o.value = r.id;
      o.textContent = `${r.name}, ${r.board}, ${r.pieces}`;
      $("ruleset-list").appendChild(o);
    }
    for (const a of ["human", ...agents.examples]) {
      const o = document.createElement("option");
      o.value = a;
      $("agent-list").appendChild(o);
    }
    await loadFiles();
  });
  await newGame(new Event("submit"));
}

start();
