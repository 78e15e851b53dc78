// The page: one connection to the bridge that owns the game (wallgo-gui's
// WebSocket, or the static site's worker: transport.js). Every change comes
// back as a whole "state" message (or an "analysis" update), and the page
// redraws from it, so a page that reconnects shows the same game.
import { drawBoard, clickInput, LETTERS } from './board.js';
import { drawGraph } from './graph.js';
import { t, colourName as colourWord, initLanguages } from './i18n.js';
import { openBridge, openWorker, startFailure } from './transport.js';
import { saveGame, forgetGame, restoreMessages, savedBoard } from './saved_game.js';
import { pauseWhenHidden } from './pause.js';
import { startServiceWorker, precacheBuild, forgetBuild, siteVersion, workerVersion, takeUpdate } from './offline.js';

// The static site (docs/web.md) marks its page: the bridge runs in a worker
// and the game is kept in this browser.
const staticSite = document.documentElement.dataset.transport === 'worker';
let restoring = [];  // the static site's messages still to send to restore its game
let freshBridge = false;  // the static site's worker has sent no state yet
let live = false;  // a state from the bridge has come (before, the static site shows its saved board)

// This page's game: /game/NAME (the server creates it on first use).
const gameName = decodeURIComponent(location.pathname.replace(/^\/game\//, '').replace(/\/$/, '')) || 'main';
// A key when wallgo-gui listens beyond loopback: a seat's join link carries
// its own (?key=), the host's is kept from the games list.
const pageKey = new URLSearchParams(location.search).get('key') || storedHostKey();
function storedHostKey() { try { return localStorage.getItem('wallgo-host-key') || ''; } catch (e) { return ''; } }
let role = { seat: 'all', tokens: false };

const $ = (id) => document.getElementById(id);
const svg = $('board');
let socket = null;
let state = null;
let input = { selected: null, dest: null };
let preview = null;       // a principal variation shown on hover
let errorTimer = null;
let retryMs = 250;
let refused = false;      // the server has no game for this page
let styleText = '';
// Measurements for docs/gui.md: page load to first board, and the delay
// from a click to the engine's reply being drawn minus the engine's time.
// boardMs: the first board drawn, the static site's saved one included.
const metrics = window.wallgoMetrics = { loadMs: null, boardMs: null, clickToDrawn: [] };
let pendingClick = null;  // { at, plies } while waiting for an engine reply

function send(message) {
  if (!socket || !socket.send(JSON.stringify(message))) showError(t('error.notConnected'));
}

function connect() {
  const handlers = {
    open: () => { retryMs = 250; setConnection('open'); },
    closed: (why) => {
      if (refused) return;
      if (why) return refuse('closed', why);
      setConnection('closed');
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 4000);
    },
    message: onMessage,
  };
  setConnection('connecting');
  if (staticSite) {
    freshBridge = true;
    socket = openWorker(handlers, { ended: t('site.ended'), failed: (text) => {
      const why = startFailure(text);
      // Perhaps a broken download: a reload fetches it again.
      if (why === 'site.failed') forgetBuild(socket.singleThreaded ? 'single' : 'threaded');
      return t(why, { detail: text });
    } });
    window.wallgo.threads = socket.threads;
    window.wallgo.hash = socket.hash;
    if (socket.singleThreaded) showError(t('site.oneThread'));
    return;
  }
  socket = openBridge({ game: gameName, key: pageKey }, handlers);
}

// No game for this page (the server's --max-games, or closed; the static
// site's worker could not run): say so for good, with the way back to the
// games list where there is one.
function refuse(type, text) {
  refused = true;
  socket.close();
  document.body.dataset.refused = type;
  const e = $('event');
  e.hidden = false;
  e.dataset.error = text;
  e.innerHTML = staticSite ? escapeHtml(text)
    : `${escapeHtml(text)} — <a href="${escapeHtml($('games-link').href)}">${escapeHtml(t('refused.games'))}</a>`;
  setConnection('closed');
}

function onMessage(text) {
  const message = JSON.parse(text);
  if (message.type === 'state') onState(message);
  else if (message.type === 'role') { role = message; keepHostKey(); renderRole(); }
  else if (message.type === 'analysis' && state && message.version === state.version) {
    state.analysis = message.analysis;
    state.graph = message.graph;
    renderBoard();
    renderAnalysis();
  } else if (message.type === 'error' && restoring.length > 0) {
    restoreFailed(message.message);
  } else if (message.type === 'error') showError(message.message);
  else if (message.type === 'refused' || message.type === 'closed') refuse(message.type, message.message);
}

// The static site: the saved game back, one message per state, on a fresh
// worker's first state (then what a pause stopped: analysis, a review).
function restoreStep(firstState) {
  if (!staticSite) return;
  if (firstState) {
    // The engine has loaded (through the service worker, which keeps it):
    // if it came before the worker served the page, the worker fetches it.
    precacheBuild(socket.singleThreaded ? 'single' : 'threaded');
    const messages = restoreMessages();
    if (messages === null) return restoreFailed(t('site.corrupt'));
    restoring = [...messages, ...takeUp()];
  }
  if (restoring.length > 0) send(restoring.shift());
  else saveGame(state);
}

function restoreFailed(why) {
  restoring = [];
  forgetGame();
  send({ type: 'new' });
  showError(t('site.notRestored', { why }));
}

// The host of a server with keys: its key goes along to the games list
// and a new board, and is kept for the games opened from there.
function keepHostKey() {
  if (role.seat !== 'all' || !role.tokens || !pageKey) return;
  try { localStorage.setItem('wallgo-host-key', pageKey); } catch (e) { /* private mode */ }
  for (const link of document.querySelectorAll('[data-games-link], [data-play-link]')) {
    link.search = `?key=${encodeURIComponent(pageKey)}`;
  }
}

function setConnection(status) {
  const c = $('connection');
  c.dataset.connection = status;
  c.textContent = t(`conn.${status}`);
}

function showError(text) {
  const e = $('event');
  e.hidden = false;
  e.textContent = text;
  e.dataset.error = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { delete e.dataset.error; renderEvent(); }, 6000);
}

function onState(next) {
  if (!state || next.version !== state.version) { input = { selected: null, dest: null }; preview = null; }
  const firstState = !live;
  live = true;
  const restore = freshBridge;
  freshBridge = false;
  state = next;
  stateAt = performance.now();
  render();
  tickClocks();
  if (firstState) {
    metrics.loadMs = performance.now();
    metrics.boardMs ??= metrics.loadMs;
    document.body.dataset.ready = 'true';
    fillNewGameForm();
  }
  restoreStep(restore);
  document.body.dataset.version = String(state.version);
  if (pendingClick && state.moves.length > pendingClick.plies) {
    const reply = state.moves[pendingClick.plies];
    if (reply && reply.ms !== undefined) {
      requestAnimationFrame(() => {
        metrics.clickToDrawn.push(performance.now() - pendingClick.at - reply.ms);
        pendingClick = null;
      });
    } else pendingClick = null;
  }
}

function seatOf(colour) { return state.seats.find((s) => s.colour === colour); }

function inputEnabled() {
  if (!live || state.board.phase === 'finished') return false;
  // A seat's page plays its own colour's turns only; a watcher never.
  if (role.seat === 'watch') return false;
  if (role.seat !== 'all') return state.cursor === state.moves.length && state.board.turn === role.seat;
  return state.cursor < state.moves.length || seatOf(state.board.turn).kind === 'human';
}

function render() {
  renderBoard();
  renderStatus();
  renderMoves();
  renderEngines();
  renderRole();
  renderReview();
  renderAnalysis();
  renderEvent();
  renderRecords();
  $('position').textContent = state.board.position;
  $('pass').hidden = !(inputEnabled() && state.board.legal.includes('pass'));
  $('analysis-toggle').checked = state.analysis.on;
  $('export-record').hidden = !state.recordLine;
  const hint = $('hint');
  hint.textContent = state.hint.pending ? t('hint.thinking') : (state.hint.move && state.hint.ply === state.cursor ? t('hint.move', { move: state.hint.move }) : '');
  hint.dataset.hint = state.hint.ply === state.cursor ? state.hint.move : '';
  $('hint-button').disabled = state.board.phase === 'finished' || state.hint.pending;
}

// The review's note of move `index` (0-based), if the review judged this
// very game up to that move.
const SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
function reviewNote(index) {
  const r = state.review;
  if (!r || r.state !== 'done' || !r.notes[index] || r.moves[index] !== state.moves[index]?.move) return null;
  for (let i = 0; i < index; ++i) if (r.moves[i] !== state.moves[i].move) return null;
  return r.notes[index];
}
function judgedPlies() {
  return state.moves.map((m, i) => (reviewNote(i)?.judgement ? i + 1 : 0)).filter((p) => p > 0);
}

function renderBoard() {
  let analysis = state.analysis.on && state.analysis.ply === state.cursor
    ? { candidates: state.analysis.candidates, preview } : null;
  if (state.hint && state.hint.move && state.hint.ply === state.cursor) {
    analysis = { ...(analysis || { candidates: [] }), hint: state.hint.move };
  }
  // Before a judged move: the engine's better move, drawn on the board.
  const next = reviewNote(state.cursor);
  if (next && next.judgement && next.best) {
    analysis = { ...(analysis || { candidates: [] }), better: next.best };
  }
  drawBoard(svg, state.board, { ...input, enabled: inputEnabled() }, analysis);
  svg.dataset.turn = state.board.turn;
  svg.dataset.phase = state.board.phase;
}

function colourName(c) { return `<span class="swatch fill-${c}">${LETTERS[c]}</span> ${escapeHtml(colourWord(c))}`; }

function renderStatus() {
  const b = state.board;
  let text;
  if (b.phase === 'finished') {
    const r = b.result;
    text = r.draw ? t('status.draw', { who: r.winners.map(colourWord).join(', ') }) : t('status.won', { who: colourWord(r.winners[0]) });
    if (r.resigned) text += ' ' + t('status.resigned', { who: colourWord(r.resigned) });
  } else {
    const seat = seatOf(b.turn);
    const who = seat.kind === 'engine' ? `${seat.engine}` : t('who.you');
    text = b.phase === 'setup'
      ? t('status.setup', { colour: colourWord(b.turn), who, n: b.placementsLeft })
      : t('status.play', { colour: colourWord(b.turn), who });
  }
  const s = $('status');
  s.textContent = text;
  s.dataset.phase = b.phase;
  s.dataset.turn = b.turn;
  const rows = ['red', 'blue', 'green', 'yellow'].filter((c) => c in b.scores).map((c) => {
    const walls = b.wallsLeft[c] < 0 ? '∞' : b.wallsLeft[c];
    const breakers = c in b.breakersLeft ? ` · ${t('score.breakers')} ${b.breakersLeft[c]}` : '';
    const seat = seatOf(c);
    const who = seat.kind === 'engine' ? escapeHtml(seat.engine) : escapeHtml(t('who.human'));
    const clock = (seat.clockLeft !== undefined
      ? ` <span class="clock" data-clock="${c}">${t('clock.main')} ${formatClock(seat.clockLeft)}</span>` : '') +
      (seat.turnLeft !== undefined
        ? ` <span class="turn-clock" data-turn-clock="${c}" title="${escapeHtml(t('clock.turnTitle'))}">${t('clock.turn')} ${formatClock(seat.turnLeft)}</span>` : '');
    return `<div class="score-row${c === b.turn && b.phase !== 'finished' ? ' to-move' : ''}" data-score="${c}">
      ${colourName(c)} <small>${who}</small> <b data-score-value="${c}">${b.scores[c]}</b>
      <small>${t('score.walls')} ${walls}${breakers}</small>${clock}</div>`;
  });
  $('scores').innerHTML = rows.join('');
}

// The server sends the time left as each state leaves it; between states
// the page counts down the running seat's clocks itself.
let stateAt = performance.now();
function tickClocks() {
  if (!state) return;
  const gone = (performance.now() - stateAt) / 1000;
  for (const seat of state.seats) {
    const running = seat.running ? gone : 0;
    const clock = document.querySelector(`[data-clock="${seat.colour}"]`);
    if (clock && seat.clockLeft !== undefined) clock.textContent = `${t('clock.main')} ${formatClock(seat.clockLeft - running)}`;
    const turn = document.querySelector(`[data-turn-clock="${seat.colour}"]`);
    if (turn && seat.turnLeft !== undefined) {
      const left = seat.turnLeft - running;
      turn.textContent = `${t('clock.turn')} ${formatClock(left)}`;
      turn.dataset.running = String(!!seat.running);
      const warn = seat.running && (left <= 10 || (seat.clockLeft !== undefined && seat.clockLeft - running <= 10));
      if (warn) turn.dataset.warning = 'true'; else delete turn.dataset.warning;
    }
  }
}
setInterval(tickClocks, 100);

function formatClock(seconds) {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  const start = document.createElement('li');
  start.className = 'start' + (state.cursor === 0 ? ' current' : '');
  start.dataset.ply = '0';
  start.textContent = t('moves.start');
  list.appendChild(start);
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.move = m.move;
    li.dataset.ply = String(i + 1);
    li.className = `move-${m.colour}` + (i + 1 === state.cursor ? ' current' : '') + (i + 1 > state.cursor ? ' future' : '') +
      (i === state.cursor ? ' judged-next' : '');
    const note = reviewNote(i);
    if (note && note.judgement) li.dataset.judgement = note.judgement;
    li.innerHTML = `<small class="ply">${i + 1}.</small> <span class="swatch fill-${m.colour}">${LETTERS[m.colour]}</span> ${m.move}` +
      (note && note.judgement ? `<b class="judgement judgement-${note.judgement}" title="${escapeHtml(t(`judgement.${note.judgement}`))}: ${escapeHtml(note.best)}">${SYMBOLS[note.judgement]}</b>` : '') +
      (m.random ? ` <small title="${escapeHtml(t('moves.random'))}">⏱</small>` : '') +
      (m.ms !== undefined ? ` <small>${(m.ms / 1000).toFixed(1)}s</small>` : '');
    list.appendChild(li);
  });
  // The current move in view in the list, which scrolls alone: a phone's
  // page stays where the player is (the board).
  const current = list.querySelector('.current');
  if (current) {
    const top = current.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  }
}

// Who this page is, and for the host of a server with keys, each seat's
// join link.
function renderRole() {
  const badge = $('seat-role');
  badge.hidden = role.seat === 'all';
  badge.dataset.seatRole = role.seat;
  if (role.seat !== 'all') {
    badge.textContent = role.seat === 'watch' ? t('seats.watching') : t('seats.yours', { colour: colourWord(role.seat) });
  }
  const panel = $('seat-links-panel');
  panel.hidden = !role.links;
  if (!role.links || !state) return;
  const list = $('seat-links');
  list.replaceChildren();
  for (const link of role.links.filter((l) => state.seats.some((s) => s.colour === l.colour))) {
    const li = document.createElement('li');
    const url = `${location.protocol}//${location.host}/game/${encodeURIComponent(gameName)}?key=${link.key}`;
    li.innerHTML = `${colourName(link.colour)}: <a href="${escapeHtml(url)}" data-join-link="${link.colour}">${escapeHtml(url)}</a>`;
    list.appendChild(li);
  }
}

function reviewMessage() {
  return { type: 'review', engine: $('review-engine').value, movetime: Number($('review-time').value) };
}

function renderReview() {
  const r = state.review;
  const select = $('review-engine');
  if (select.options.length !== state.engines.length) {
    select.replaceChildren(...state.engines.map((e) => new Option(e.name, e.name)));
    select.value = state.analysis.engine;
  }
  const progress = $('review-progress');
  progress.hidden = r.state !== 'running';
  progress.max = Math.max(r.total, 1);
  progress.value = r.done;
  const summary = $('review-summary');
  summary.replaceChildren();
  summary.dataset.reviewState = r.state;
  if (r.state === 'failed') summary.textContent = t('review.failed', { error: r.error });
  else if (r.state === 'running') summary.textContent = t('review.running', { engine: r.engine, done: r.done, total: r.total });
  for (const [colour, accuracy] of Object.entries(r.accuracy || {})) {
    if (r.state !== 'done') break;
    const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
    state.moves.forEach((m, i) => { const n = reviewNote(i); if (m.colour === colour && n && n.judgement) counts[n.judgement]++; });
    const div = document.createElement('div');
    div.innerHTML = `${colourName(colour)}: ${escapeHtml(t('review.accuracy'))} <b data-accuracy="${colour}">${accuracy.toFixed(1)}</b>` +
      ` · ${counts.inaccuracy} ?! · ${counts.mistake} ? · ${counts.blunder} ??`;
    summary.appendChild(div);
  }
  const note = reviewNote(state.cursor);
  $('review-note').textContent = note && note.judgement
    ? t('review.note', { n: state.cursor + 1, move: state.moves[state.cursor].move, judgement: t(`judgement.${note.judgement}`),
      before: (note.before * 100).toFixed(0), after: (note.after * 100).toFixed(0), best: note.best })
    : '';
}

function renderEngines() {
  const ul = $('engines');
  ul.replaceChildren();
  for (const e of state.engines) {
    const li = document.createElement('li');
    li.dataset.engine = e.name;
    li.dataset.state = e.state;
    li.className = `engine engine-${e.state}`;
    li.innerHTML = `<b>${escapeHtml(e.name)}</b> <span class="engine-state">${escapeHtml(t(`engine.${e.state}`))}</span>` +
      (e.pid ? ` <small data-pid="${e.pid}">pid ${e.pid}</small>` : '') +
      (e.detail ? `<div class="engine-detail">${escapeHtml(e.detail)}</div>` : '');
    const restart = document.createElement('button');
    restart.textContent = t('engines.restart');
    restart.dataset.restart = e.name;
    li.appendChild(restart);
    ul.appendChild(li);
  }
}

function renderEvent() {
  const e = $('event');
  if (e.dataset.error) return;
  e.hidden = !state.event;
  // The server's own events in the page's language where it gives a key.
  e.textContent = state.eventCode ? t(state.eventCode.key, { colour: colourWord(state.eventCode.colour) }) : state.event;
}

function renderAnalysis() {
  const a = state.analysis;
  $('analysis-engine').textContent = a.on ? t('analysis.on', { engine: a.engine, ply: a.ply }) : t('analysis.off');
  const table = $('candidates');
  table.replaceChildren();
  if (a.on && a.ply === state.cursor) {
    for (const c of a.candidates.slice(0, 8)) {
      const tr = document.createElement('tr');
      tr.dataset.candidateRow = c.move;
      tr.innerHTML = `<td>${escapeHtml(c.move)}</td><td>${(c.winrate * 100).toFixed(1)}%</td><td>${c.score >= 0 ? '+' : ''}${c.score.toFixed(1)}</td><td>${c.visits}</td><td class="pv">${escapeHtml(c.pv.slice(0, 6).join(' '))}</td>`;
      tr.onmouseenter = () => { preview = c.pv; renderBoard(); };
      tr.onmouseleave = () => { preview = null; renderBoard(); };
      tr.onclick = () => { if (inputEnabled()) playToken(c.move); };
      table.appendChild(tr);
    }
  }
  $('graph-who').textContent = t(drawGraph($('graph'), state.graph, state.moves.length, state.cursor,
    state.board.players, (ply) => send({ type: 'goto', ply })));
}

function renderRecords() {
  const select = $('record-select');
  const info = $('record-info');
  if (!state.records) { select.hidden = true; info.textContent = ''; return; }
  select.hidden = false;
  if (select.options.length !== state.records.games.length) {
    select.replaceChildren();
    state.records.games.forEach((g, i) => {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = `${t('records.game', { n: g.game })}: ${Object.entries(g.seats).map(([c, e]) => `${colourWord(c)} ${e}`).join(', ')} — ${g.winner} (${g.reason})`;
      select.appendChild(option);
    });
  }
  const shown = state.records.shown;
  if (shown >= 0) {
    select.value = String(shown);
    const g = state.records.games[shown];
    info.dataset.recordGame = String(g.game);
    info.textContent = t('records.info', { n: g.game, winner: g.winner, reason: g.reason }) +
      (g.detail ? ` — ${g.loser}: ${g.detail}` : '') +
      ` · ${t('records.scores')} ${Object.entries(g.scores).map(([c, s]) => `${colourWord(c)} ${s}`).join(', ')}`;
  } else info.textContent = '';
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function playToken(token) {
  pendingClick = { at: performance.now(), plies: state.cursor + 1 };
  input = { selected: null, dest: null };
  send({ type: 'move', move: token });
}

// Clicks on the board: a choice carries its move token; otherwise a cell
// selects a stone, then a destination.
svg.addEventListener('click', (event) => {
  if (!state || !inputEnabled()) return;
  const click = clickInput(event.target, state.board.legal, input);
  if (!click) return;
  if (click.token) return playToken(click.token);
  input = click.input;
  renderBoard();
});

document.addEventListener('keydown', (event) => {
  if (!state || event.target.matches('input, textarea, select')) return;
  const go = (ply) => send({ type: 'goto', ply: Math.min(Math.max(ply, 0), state.moves.length) });
  if (event.key === 'ArrowLeft') go(state.cursor - 1);
  else if (event.key === 'ArrowRight') go(state.cursor + 1);
  else if (event.key === 'Home') go(0);
  else if (event.key === 'End') go(state.moves.length);
  else if (event.key === 'Escape') { input = { selected: null, dest: null }; renderBoard(); }
});

$('move-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('move-input').value.trim().toLowerCase();
  if (!token) return;
  if (token === 'resign') send({ type: 'resign' });
  else playToken(token);
  $('move-input').value = '';
});

document.addEventListener('click', (event) => {
  const b = event.target.closest('button');
  if (!b || !state) return;
  if (b.dataset.nav) {
    const to = { first: 0, back: state.cursor - 1, forward: state.cursor + 1, last: state.moves.length }[b.dataset.nav];
    send({ type: 'goto', ply: Math.min(Math.max(to, 0), state.moves.length) });
  } else if (b.dataset.restart) {
    send({ type: 'restart', engine: b.dataset.restart });
  } else if (b.dataset.action) {
    actions[b.dataset.action]?.(event);
  }
});

$('moves').addEventListener('click', (event) => {
  const li = event.target.closest('li[data-ply]');
  if (li) send({ type: 'goto', ply: Number(li.dataset.ply) });
});

$('analysis-toggle').addEventListener('change', (event) => send({ type: 'analysis', on: event.target.checked }));

async function copy(text) {
  $('io-text').value = text;
  try { await navigator.clipboard.writeText(text); } catch (e) { /* the text area has it */ }
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// The board as a standalone SVG: the page's styles go inside it.
function boardSvgText() {
  const clone = svg.cloneNode(true);
  clone.querySelectorAll('.choices').forEach((g) => g.remove());
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', '480');
  clone.setAttribute('height', '480');
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = styleText;
  clone.insertBefore(style, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

// Mistake stepping goes to the position before each judged move, where the
// board shows the better move.
function stepMistake(direction) {
  const before = judgedPlies().map((p) => p - 1);
  const to = direction > 0 ? before.find((p) => p > state.cursor) : before.reverse().find((p) => p < state.cursor);
  if (to !== undefined) send({ type: 'goto', ply: to });
}

const actions = {
  hint: () => send({ type: 'hint' }),
  review: () => send(reviewMessage()),
  'next-mistake': () => stepMistake(1),
  'prev-mistake': () => stepMistake(-1),
  // The printed rules' timing: 90 s a turn, a random turn for a late player.
  'show-rules': () => {
    for (const row of $('seat-rows').querySelectorAll('.seat-row')) {
      row.querySelector(`[name=turn-${row.dataset.seat}]`).value = '90';
      row.querySelector(`[name=timeout-${row.dataset.seat}]`).value = 'random';
    }
  },
  'set-seats': () => send({ type: 'seats', seats: seatsFromForm() }),
  undo: () => send({ type: 'undo' }),
  resign: () => send({ type: 'resign' }),
  pass: () => playToken('pass'),
  'import-position': () => send({ type: 'position', position: $('io-text').value.trim() }),
  'import-moves': () => send({ type: 'moves', moves: $('io-text').value.trim() }),
  'export-position': () => copy(state.board.position),
  'export-moves': () => copy(state.moves.map((m) => m.move).join(' ')),
  'export-record': () => {
    copy(state.recordLine);
    download(`wallgo-${gameName}.jsonl`, new Blob([state.recordLine + '\n'], { type: 'application/x-ndjson' }));
  },
  'export-svg': () => download('wallgo-board.svg', new Blob([boardSvgText()], { type: 'image/svg+xml' })),
  'export-png': () => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = 960; canvas.height = 960;
      canvas.getContext('2d').drawImage(image, 0, 0, 960, 960);
      canvas.toBlob((blob) => download('wallgo-board.png', blob), 'image/png');
    };
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(boardSvgText());
  },
};

$('records-file').addEventListener('change', (event) => {
  const file = event.target.files[0];
  if (!file) return;
  file.text().then((text) => send({ type: 'records', text }));
});
$('record-select').addEventListener('change', (event) => send({ type: 'record', index: Number(event.target.value) }));

// The levels' measured strength (levels.json, from tools/gui/ladder.py):
// "level 6 · about 1550", "+" where it is only a lower bound.
let levels = null;
fetch(new URL('levels.json', import.meta.url)).then((r) => r.json()).then((data) => { levels = data.levels; if (state) renderSeatRows(); }).catch(() => {});
function levelOptions() {
  const label = (n) => {
    const l = levels && levels.find((x) => x.level === n);
    return l ? t('seat.levelAbout', { n, elo: `${Math.round(l.elo / 50) * 50}${l.atLeast ? '+' : ''}` }) : t('seat.levelPlain', { n });
  };
  return '<option value="">—</option>' + [...Array(10).keys()].map((i) => `<option value="${i + 1}">${label(i + 1)}</option>`).join('');
}

// New game: the rule options of the protocol and who sits at each colour.
function fillNewGameForm() {
  const form = $('new-game');
  const rules = Object.fromEntries(state.rules.split(' ').map((kv) => kv.split('=')));
  for (const key of ['players', 'setup', 'stay', 'wall-limit', 'breakers']) form.elements[key].value = rules[key];
  renderSeatRows();
}

function renderSeatRows() {
  const form = $('new-game');
  const players = Number(form.elements.players.value);
  const colours = ['red', 'blue', 'green', 'yellow'].slice(0, players);
  const rows = $('seat-rows');
  const previous = [...rows.querySelectorAll('.seat-row')].map((r) => r.querySelector('select').value);
  rows.replaceChildren();
  colours.forEach((colour, i) => {
    const row = document.createElement('div');
    row.className = 'seat-row';
    row.dataset.seat = colour;
    const current = state.seats[i];
    const chosen = previous[i] ?? (current ? (current.kind === 'engine' ? `engine:${current.engine}` : 'human') : 'human');
    const options = [`<option value="human">${escapeHtml(t('who.human'))}</option>`,
      ...state.engines.map((e) => `<option value="engine:${escapeHtml(e.name)}">${escapeHtml(t('seat.engine', { name: e.name }))}</option>`)].join('');
    row.innerHTML = `${colourName(colour)}
      <select name="seat-${colour}">${options}</select>
      <label>${t('seat.level')} <select name="level-${colour}">${levelOptions()}</select></label>
      <label>${t('seat.movetime')} <input name="movetime-${colour}" type="number" min="0" step="0.1" placeholder="—" size="4"></label>
      <label>${t('seat.clock')} <input name="clock-${colour}" type="number" min="1" step="1" placeholder="—" size="4"></label>
      <label>${t('seat.increment')} <input name="increment-${colour}" type="number" min="0" step="0.1" placeholder="0" size="3"></label>
      <label>${t('seat.turn')} <input name="turn-${colour}" type="number" min="1" step="1" placeholder="—" size="3"></label>
      <label>${t('seat.late')} <select name="timeout-${colour}"><option value="random">${t('seat.random')}</option><option value="forfeit">${t('seat.forfeit')}</option></select></label>`;
    rows.appendChild(row);
    row.querySelector('select').value = chosen;
    if (current && current.level) row.querySelector(`[name=level-${colour}]`).value = current.level;
    if (current && current.movetime !== undefined) row.querySelector(`[name=movetime-${colour}]`).value = current.movetime;
    if (current && current.clock !== undefined) row.querySelector(`[name=clock-${colour}]`).value = current.clock;
    if (current && current.increment) row.querySelector(`[name=increment-${colour}]`).value = current.increment;
    if (current && current.turn !== undefined) row.querySelector(`[name=turn-${colour}]`).value = current.turn;
    if (current && current.timeout) row.querySelector(`[name=timeout-${colour}]`).value = current.timeout;
  });
  const setup = form.elements.setup;
  // docs/rules.md's defaults for the player count: breakers with 3-4 players.
  if (players > 2 && form.elements.breakers.disabled) form.elements.breakers.value = '1';
  if (players > 2) setup.value = 'empty';
  setup.disabled = players > 2;
  form.elements.breakers.disabled = players === 2;
}

$('new-game').elements.players.addEventListener('change', renderSeatRows);
function seatsFromForm() {
  return [...$('seat-rows').querySelectorAll('.seat-row')].map((row) => {
    const colour = row.dataset.seat;
    const choice = row.querySelector('select').value;
    const value = (name) => row.querySelector(`[name=${name}-${colour}]`).value;
    const seat = choice === 'human' ? { kind: 'human' } : { kind: 'engine', engine: choice.slice('engine:'.length) };
    if (seat.kind === 'engine') {
      if (value('level')) seat.level = Number(value('level'));
      if (value('movetime')) seat.movetime = Number(value('movetime'));
    }
    // Time for people and engines alike: clock + increment, turn limit.
    if (value('clock')) seat.clock = Number(value('clock'));
    if (value('clock') && value('increment')) seat.increment = Number(value('increment'));
    if (value('turn')) {
      seat.turn = Number(value('turn'));
      seat.timeout = value('timeout');
    }
    return seat;
  });
}

$('new-game').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  const players = Number(form.elements.players.value);
  const rules = [`players=${players}`, `setup=${players > 2 ? 'empty' : form.elements.setup.value}`,
    `stay=${form.elements.stay.value}`, `wall-limit=${form.elements['wall-limit'].value.trim() || 'unlimited'}`,
    `breakers=${players > 2 ? form.elements.breakers.value : 0}`].join(' ');
  send({ type: 'new', rules, seats: seatsFromForm() });
});

// For automation and the browser tests: the last state and the socket.
window.wallgo = { state: () => state, socket: () => socket, svgText: () => boardSvgText(), game: gameName };

if (staticSite) {
  // One game, kept in this browser: no games list, no other board.
  document.querySelectorAll('[data-play-link]').forEach((a) => a.removeAttribute('href'));
  $('games-link').hidden = true;
} else {
  $('game-name').textContent = gameName;
  document.title = `${gameName} · wallgo-gui`;
}
fetch(new URL('style.css', import.meta.url)).then((r) => r.text()).then((text) => { styleText = text; }).catch(() => {});

// The static site pauses on a hidden page (pause.js).
const takeUp = staticSite ? pauseWhenHidden({
  state: () => state,
  canPause: () => !refused && !freshBridge,
  turnElapsed: () => (state.turnElapsed || 0) + (performance.now() - stateAt) / 1000,
  send,
  review: reviewMessage,
  stop: () => {
    socket.close();
    state.seats.forEach((s) => { s.running = false; });  // the page's clocks stand still too
    setConnection('paused');
  },
  start: connect,
}) : () => [];

// A new version of the static site waits: the page offers it; taken, the
// page reloads into it with the saved game.
async function offerUpdate(worker) {
  // version-commit-digest: the release, and the commit for builds between
  // releases.
  const [release, commit] = ((await workerVersion(worker)) || '').split('-');
  const version = commit && commit !== 'unknown' ? `${release} (${commit})` : release;
  const box = $('update');
  box.querySelector('[data-update-text]').textContent = t('site.update', { version });
  box.hidden = false;
  box.querySelector('button').onclick = () => {
    if (state) saveGame(state);
    takeUpdate(worker);
  };
}

// The About line of the rules panel: the site's version.json (wallgo-gui
// serves its own); without one the line stays hidden.
siteVersion().then((v) => {
  if (!v || !v.version) return;
  $('about-version').textContent = v.version + (v.commit && v.commit !== 'unknown' ? ` (${v.commit})` : '');
  $('about').hidden = false;
});

// The catalogue first: every string on the page comes from it.
initLanguages(() => {
  if (!state) return;
  render();
  tickClocks();
  renderSeatRows();
}).then(async () => {
  if (staticSite) showSavedBoard();
  if (staticSite && await startServiceWorker(offerUpdate)) return;
  connect();
});

// The static site's saved board, drawn while the engine starts; no input
// until the bridge's own state comes.
function showSavedBoard() {
  const saved = savedBoard();
  if (!saved || state) return;
  try {
    saved.seats.forEach((s) => { s.running = false; });
    state = saved;
    stateAt = performance.now();
    render();
    metrics.boardMs = performance.now();
  } catch (e) {
    state = null;  // another version's state: the bridge's own comes soon
  }
}
