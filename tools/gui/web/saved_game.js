// The static site keeps its game across reloads (docs/web.md): the bridge
// lives in the page's worker and starts afresh, so the page stores the game
// (start position, moves, seats, ply shown) in localStorage and, on load,
// asks the new bridge to restore it with the messages any page may send.
// Stored state that is not a game's (corrupt, or from another version) is
// dropped: the page starts a fresh game and says so.
const KEY = 'wallgo-site-game';
const VERSION = 1;
const SEAT_FIELDS = ['kind', 'engine', 'level', 'movetime', 'visits', 'clock', 'increment', 'turn', 'timeout'];

export function saveGame(state) {
  const saved = {
    version: VERSION,
    start: state.start,
    moves: state.moves.map((m) => m.move),
    seats: state.seats.map((seat) => Object.fromEntries(
      SEAT_FIELDS.filter((f) => seat[f] !== undefined).map((f) => [f, seat[f]]))),
    cursor: state.cursor,
  };
  try { localStorage.setItem(KEY, JSON.stringify(saved)); } catch (e) { /* storage off or full */ }
}

export function forgetGame() {
  try { localStorage.removeItem(KEY); } catch (e) { /* storage off */ }
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
    Array.isArray(saved.moves) && saved.moves.every((m) => typeof m === 'string') &&
    Array.isArray(saved.seats) && Number.isInteger(saved.cursor);
  if (!ok) return null;
  return [
    { type: 'moves', position: saved.start, moves: saved.moves.join(' ') },
    { type: 'seats', seats: saved.seats },
    { type: 'goto', ply: saved.cursor },
  ];
}
