// The Puzzles page (docs/gui.md, "Puzzles"): a proven endgame position from
// puzzles.json, drawn by the board's own code and played on a game of its
// own in the bridge (wallgo-gui's game "puzzles", or the static site's
// worker), which knows the rules: the page offers only the legal moves the
// bridge sends, as the board does. A move the puzzle accepts is played and
// the board answers with the proven replies; any other move fails the
// puzzle. The player's Glicko-2 rating is kept in this browser.
import { drawBoard, clickInput } from './board.js';
import { t, colourName, initLanguages } from './i18n.js';
import { openBridge, openWorker, startFailure } from './transport.js';
import { startServiceWorker, precacheBuild, forgetBuild } from './offline.js';
import { readPuzzles, choosePuzzle, solverOf, loadRecord, saveRecord, recordAttempt } from './puzzle_set.js';

const staticSite = document.documentElement.dataset.transport === 'worker';
const GAME = 'puzzles';  // wallgo-gui's game for this page (it shows in the games list)
const REPLY_MS = 400;  // before each of the board's replies, so that each is seen
const pageKey = new URLSearchParams(location.search).get('key') || storedHostKey();
function storedHostKey() { try { return localStorage.getItem('wallgo-host-key') || ''; } catch (e) { return ''; } }

const $ = (id) => document.getElementById(id);
const svg = $('board');
let socket = null;
let state = null;  // the bridge's last state
let puzzles = [];
let record = loadRecord(localStorage);
let input = { selected: null, dest: null };
let retryMs = 250;
// The puzzle under way: its step, where it stands (loading, solving,
// replying, done), its result (null, 'solved', 'failed'), how many moves
// the bridge's game has once the page's last move is in (`plies`), the
// replies still to play, the wrong move, the rating change.
let play = null;

function send(message) {
  if (!socket || !socket.send(JSON.stringify(message))) showEvent(t('error.notConnected'));
}

function connect() {
  const handlers = {
    open: () => { retryMs = 250; setConnection('open'); },
    closed: (why) => {
      setConnection('closed');
      if (why) return showEvent(why);
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 4000);
    },
    message: onMessage,
  };
  setConnection('connecting');
  // A fresh connection may find the game changed (another tab): the
  // puzzle starts again from its position.
  if (play) startPuzzle(play.puzzle);
  socket = staticSite ? openWorker(handlers, { ended: t('site.ended'), failed: (text) => {
    const why = startFailure(text);
    if (why === 'site.failed') forgetBuild(socket.singleThreaded ? 'single' : 'threaded');
    return t(why, { detail: text });
  } }) : openBridge({ game: GAME, key: pageKey }, handlers);
}

function onMessage(text) {
  const message = JSON.parse(text);
  if (message.type === 'state') onState(message);
  else if (message.type === 'error') {
    // A position or reply the rules refuse (a puzzles file that does not
    // match the rules): the puzzle stops there, and the page says why.
    if (play && (play.status === 'loading' || play.status === 'replying')) play.status = 'done';
    showEvent(message.message);
    render();
  }
  else if (message.type === 'refused' || message.type === 'closed') showEvent(message.message);
}

function onState(next) {
  if (staticSite && !state) precacheBuild(socket.singleThreaded ? 'single' : 'threaded');
  state = next;
  document.body.dataset.ready = 'true';
  if (play && play.status === 'loading') {
    // The game the bridge had when the page connected: then the puzzle's
    // (other states may come between: an engine that started).
    if (play.since === null) {
      play.since = state.version;
      send({ type: 'new', position: play.puzzle.position });
    } else if (state.version > play.since && state.moves.length === 0 && state.start === play.puzzle.position) {
      play.status = 'solving';
    }
  } else if (play && play.status !== 'done' && state.start !== play.puzzle.position) {
    // wallgo-gui: another page (a second tab) set up its puzzle on the
    // same game. No fight over it: this page waits for Try again.
    play.status = 'done';
    showEvent(t('puzzle.taken'));
  } else if (play && play.status === 'replying' && state.moves.length === play.plies && !play.waiting) {
    nextReply();
  }
  render();
}

// The board's next reply, or the next step (or the end) when none is left.
function nextReply() {
  if (play.replies.length > 0) {
    const current = play;
    current.waiting = true;
    setTimeout(() => {
      if (play !== current) return;  // another puzzle meanwhile
      current.waiting = false;
      current.plies += 1;
      send({ type: 'move', move: current.replies.shift() });
    }, REPLY_MS);
    return;
  }
  if (play.result) {
    play.status = 'done';
  } else {
    play.step += 1;
    play.status = 'solving';
  }
}

function startPuzzle(puzzle) {
  play = { puzzle, step: 0, status: 'loading', since: null, result: null, plies: 0, replies: [],
           waiting: false, wrong: null, change: null };
  input = { selected: null, dest: null };
  if (location.hash !== `#${puzzle.id}`) history.replaceState(null, '', `#${puzzle.id}`);
  if (state && socket && socket.readyState === 1) {
    play.since = state.version;
    send({ type: 'new', position: puzzle.position });
  }
  render();
}

// The puzzle a link names (#ID), else the next one near the player's rating.
function puzzleFromAddress() {
  const id = decodeURIComponent(location.hash.slice(1));
  const named = puzzles.find((p) => p.id === id);
  if (id && !named) showEvent(t('puzzle.notFound', { id }));
  return named || choosePuzzle(puzzles, record.player.rating, new Set(record.played));
}

function canMove() {
  return play && play.status === 'solving' && state && state.moves.length === play.plies &&
    state.board.turn === solverOf(play.puzzle) && state.board.phase !== 'finished';
}

function tryMove(token) {
  const steps = play.puzzle.steps;
  const step = steps[play.step];
  input = { selected: null, dest: null };
  if (!step.accept.includes(token)) {
    play.wrong = token;
    play.status = 'done';
    finish(false);
    return render();
  }
  const last = play.step + 1 === steps.length;
  play.plies += 1;
  send({ type: 'move', move: token });
  // After the last move the proven answer is shown, if it answers this move.
  play.replies = !last || token === step.accept[0] ? [...(step.replies || [])] : [];
  play.status = 'replying';
  if (last) finish(true);
  render();
}

function finish(solved) {
  const before = record.player;
  record = recordAttempt(record, play.puzzle, solved);
  saveRecord(localStorage, record);
  play.result = solved ? 'solved' : 'failed';
  play.change = { before: before.rating, after: record.player.rating, rated: record.rated };
}

svg.addEventListener('click', (event) => {
  if (!canMove()) return;
  const click = clickInput(event.target, state.board.legal, input);
  if (!click) return;
  if (click.token) return tryMove(click.token);
  input = click.input;
  render();
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') { input = { selected: null, dest: null }; render(); }
});

$('next-puzzle').addEventListener('click', () => {
  clearEvent();
  const played = new Set(record.played);
  if (play) played.add(play.puzzle.id);
  startPuzzle(choosePuzzle(puzzles.filter((p) => !play || p.id !== play.puzzle.id), record.player.rating, played));
});
$('retry-puzzle').addEventListener('click', () => {
  clearEvent();
  if (play) startPuzzle(play.puzzle);
});
window.addEventListener('hashchange', () => {
  if (puzzles.length > 0 && (!play || location.hash !== `#${play.puzzle.id}`)) startPuzzle(puzzleFromAddress());
});

function setConnection(status) {
  const c = $('connection');
  c.dataset.connection = status;
  c.textContent = t(`conn.${status}`);
}

function showEvent(text) {
  const e = $('event');
  e.hidden = false;
  e.textContent = text;
  e.dataset.error = text;
}

function clearEvent() {
  const e = $('event');
  e.hidden = true;
  delete e.dataset.error;
}

function render() {
  document.title = `${t('puzzle.title')} · Wall Go`;
  renderRating();
  if (!play) return;
  const { puzzle } = play;
  const solver = solverOf(puzzle);
  document.body.dataset.puzzleId = puzzle.id;
  document.body.dataset.puzzleState = play.result || play.status;
  const link = $('puzzle-link');
  link.href = `puzzles.html${location.search}#${puzzle.id}`;
  link.textContent = `#${puzzle.id}`;
  $('puzzle-theme').textContent = t(`puzzle.theme.${puzzle.theme}`);
  $('puzzle-rating').textContent = String(Math.round(puzzle.rating));
  $('puzzle-value').textContent = valueText(puzzle, solver);
  $('retry-puzzle').hidden = play.status !== 'done';
  $('position').textContent = puzzle.position;
  $('status').textContent = statusText(solver);
  $('status').className = `status puzzle-${play.result || play.status}`;
  if (!state || play.status === 'loading') return;
  // Not this puzzle's game (refused, or taken by another page): no board.
  if (state.start !== puzzle.position) return svg.replaceChildren();
  const failed = play.result === 'failed';
  const answer = failed ? { candidates: [], better: puzzle.steps[play.step].accept[0] } : null;
  drawBoard(svg, state.board, { ...input, enabled: canMove() }, answer);
  svg.dataset.turn = state.board.turn;
}

function valueText(puzzle, solver) {
  const v = puzzle.value || {};
  if (!['win', 'draw', 'loss'].includes(v.result)) return '';
  return t(`puzzle.value.${v.result}`, { colour: colourName(solver), margin: Math.abs(v.margin || 0) });
}

function statusText(solver) {
  const colour = colourName(solver);
  if (play.result === 'failed') return t('puzzle.failed', { move: play.wrong, answer: play.puzzle.steps[play.step].accept[0] });
  if (play.result === 'solved') return t('puzzle.solved');
  if (play.status === 'loading') return t('puzzle.loading');
  if (play.status === 'done') return '';  // stopped: the header says why
  if (play.status === 'replying') return t('puzzle.right');
  return t(play.step === 0 ? 'puzzle.find' : 'puzzle.findNext', { colour });
}

function renderRating() {
  const { player } = record;
  const box = $('player-rating');
  box.dataset.playerRating = player.rating.toFixed(2);
  box.textContent = t('puzzle.yourRating', { rating: Math.round(player.rating), deviation: Math.round(player.deviation) });
  $('puzzles-played').textContent = t('puzzle.played', { n: record.played.length, solved: record.solved });
  const change = $('rating-change');
  change.hidden = !play || !play.change;
  if (change.hidden) return;
  const { before, after, rated } = play.change;
  change.textContent = rated ? t('puzzle.ratingChange', { before: Math.round(before), after: Math.round(after) })
    : t('puzzle.unrated');
}

// For automation and the browser tests.
window.wallgo = { state: () => state, socket: () => socket, puzzle: () => play && play.puzzle, record: () => record };

initLanguages(render).then(async () => {
  if (record.reset) showEvent(t('puzzle.recordReset'));
  try {
    const response = await fetch(new URL('puzzles.json', import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    puzzles = readPuzzles(await response.json());
  } catch (e) {
    showEvent(t('puzzle.loadFailed', { detail: String(e.message || e) }));
    return;
  }
  play = null;
  startPuzzle(puzzleFromAddress());
  if (staticSite && await startServiceWorker(() => {})) return;
  connect();
});
