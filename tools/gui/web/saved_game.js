// The static site keeps its game across reloads (docs/web.md): the bridge
// lives in the page's worker and starts afresh, so the page stores the game
// (start position, moves with their times, seats, ply shown, when the
// running turn began) in localStorage and, on load, asks the new bridge to
// restore it with the messages any page may send. The turn that was running
// goes on from where it was: a reload does not give a player a new turn
// time, and the clocks read as they did. Stored state that is not a game's
// (corrupt, or from another version) is dropped: the page starts a fresh
// game and says so. A game saved by a page hidden mid-turn (paused) keeps
// the turn's time as it stood: hidden time is nobody's.
const KEY = 'wallgo-site-game';
// The last state drawn, so that a page loading draws its board at once,
// before its engine has started (offline too); the game itself comes back
// from KEY through the bridge.
const BOARD_KEY = 'wallgo-site-board';
const VERSION = 2;
const SEAT_FIELDS = ['kind', 'engine', 'level', 'movetime', 'visits', 'clock', 'increment', 'turn', 'timeout'];
const MOVE_FIELDS = ['move', 'ms', 'random', 'timeout'];

// `pausedTurn`: the seconds the running turn had taken when the page was
// hidden; its clock stands still until the game is taken up again.
export function saveGame(state, pausedTurn = null) {
  const saved = {
    version: VERSION,
    start: state.start,
    played: state.moves.map((m) => Object.fromEntries(
      MOVE_FIELDS.filter((f) => m[f] !== undefined).map((f) => [f, m[f]]))),
    seats: state.seats.map((seat) => Object.fromEntries(
      SEAT_FIELDS.filter((f) => seat[f] !== undefined).map((f) => [f, seat[f]]))),
    cursor: state.cursor,
    // Wall-clock time, which goes on across reloads (the page's own clock
    // starts again with it).
    turnStartedAt: Date.now() - 1000 * (state.turnElapsed || 0),
  };
  if (pausedTurn !== null) saved.pausedTurn = pausedTurn;
  try {
    localStorage.setItem(KEY, JSON.stringify(saved));
    localStorage.setItem(BOARD_KEY, JSON.stringify({ ...state, records: null }));
  } catch (e) { /* storage off or full */ }
}

// The last state saved, to be drawn until the bridge sends its own; null
// without one.
export function savedBoard() {
  try {
    const board = JSON.parse(localStorage.getItem(BOARD_KEY));
    return board && board.type === 'state' && board.board && Array.isArray(board.seats) ? board : null;
  } catch (e) {
    return null;
  }
}

export function forgetGame() {
  try {
    localStorage.removeItem(KEY);
    localStorage.removeItem(BOARD_KEY);
  } catch (e) { /* storage off */ }
}

// The messages that bring a fresh bridge to the saved game, in order; []
// without one; null for stored state that is not a saved game.
export function restoreMessages() {
  let text = null;
  try { text = localStorage.getItem(KEY); } catch (e) { return []; }
  if (text === null) return [];
  let saved;
  try { saved = JSON.parse(text); } catch (e) { return null; }
  const ok = saved && saved.version === VERSION && typeof saved.start === 'string' &&
    Array.isArray(saved.played) && saved.played.every((m) => m && typeof m.move === 'string') &&
    Array.isArray(saved.seats) && Number.isInteger(saved.cursor) &&
    Number.isFinite(saved.turnStartedAt);
  if (!ok) return null;
  // The bridge checks the rest (moves, times, seats) as it checks any page's.
  const elapsed = Number.isFinite(saved.pausedTurn) ? saved.pausedTurn : (Date.now() - saved.turnStartedAt) / 1000;
  const turnElapsed = Math.min(Math.max(elapsed, 0), 86400);
  return [
    { type: 'moves', position: saved.start, played: saved.played },
    { type: 'seats', seats: saved.seats, turnElapsed },
    { type: 'goto', ply: saved.cursor },
  ];
}
