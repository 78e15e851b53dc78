// The Puzzles page's data and choices, without the DOM (Node's tests import
// it): reading puzzles.json (its format: docs/gui.md, "Puzzles"), picking
// the next puzzle near the player's rating, and the player's record kept in
// the browser.
import { rate, isPlayer, NEW_PLAYER } from './glicko2.js';

export const FORMAT = 'wallgo-puzzles';
export const VERSION = 1;
// Each attempt is one game against the puzzle at its rating with this
// deviation: the puzzles' ratings are estimates too.
export const PUZZLE_DEVIATION = 80;
export const THEMES = ['seal', 'trap', 'tempo', 'breaker', 'race'];
const MOVE = /^([a-g][1-7]([a-g][1-7]x?[nesw])?|pass)$/;

function bad(why) { throw new Error(`puzzles.json: ${why}`); }

// The puzzles of a parsed puzzles.json, checked: a file of another format
// or version, or a puzzle without what the page needs, is an Error that
// says what is wrong.
export function readPuzzles(data) {
  if (!data || data.format !== FORMAT) bad(`not a "${FORMAT}" file`);
  if (data.version !== VERSION) bad(`version ${data.version}, this page reads ${VERSION}`);
  if (!Array.isArray(data.puzzles) || data.puzzles.length === 0) bad('no puzzles');
  const ids = new Set();
  for (const p of data.puzzles) {
    const where = `puzzle ${JSON.stringify(p && p.id)}`;
    if (!p || typeof p.id !== 'string' || !/^[a-z0-9-]+$/.test(p.id)) bad(`${where}: a bad id`);
    if (ids.has(p.id)) bad(`${where}: the id is used twice`);
    ids.add(p.id);
    if (typeof p.position !== 'string' || !/\bturn=(red|blue|green|yellow)\b/.test(p.position)) {
      bad(`${where}: no position with turn=`);
    }
    if (!Number.isFinite(p.rating)) bad(`${where}: no rating`);
    if (!Array.isArray(p.steps) || p.steps.length === 0) bad(`${where}: no steps`);
    p.steps.forEach((step, i) => {
      const moves = [...(step.accept || []), ...(step.replies || [])];
      if (!Array.isArray(step.accept) || step.accept.length === 0) bad(`${where}: step ${i + 1} accepts nothing`);
      if (i + 1 < p.steps.length && step.accept.length !== 1) {
        bad(`${where}: step ${i + 1} is not the last, yet accepts ${step.accept.length} moves`);
      }
      if (!moves.every((m) => MOVE.test(m))) bad(`${where}: step ${i + 1} has a move that is no move`);
    });
  }
  return data.puzzles;
}

// The colour to move in a puzzle's position: the one who solves it.
export function solverOf(puzzle) {
  return /\bturn=(\w+)/.exec(puzzle.position)[1];
}

// The next puzzle for a player rated `rating`: of those not played yet
// (all of them once every one is played), one of the `spread` nearest in
// rating, picked by `random` (0 <= x < 1).
export function choosePuzzle(puzzles, rating, played, random = Math.random, spread = 3) {
  const fresh = puzzles.filter((p) => !played.has(p.id));
  const pool = (fresh.length > 0 ? fresh : puzzles)
    .map((p) => ({ p, distance: Math.abs(p.rating - rating) }))
    .sort((a, b) => a.distance - b.distance || (a.p.id < b.p.id ? -1 : 1))
    .slice(0, spread);
  return pool[Math.floor(random() * pool.length)].p;
}

const PLAYER_KEY = 'wallgo-puzzle-player';

// The player's record from `storage` (localStorage): the Glicko-2 rating,
// the ids played, how many solved. Missing or unreadable: a new player
// (`reset` says it was unreadable).
export function loadRecord(storage) {
  let text = null;
  try { text = storage.getItem(PLAYER_KEY); } catch (e) { /* storage off */ }
  const fresh = { player: { ...NEW_PLAYER }, played: [], solved: 0, reset: false };
  if (text === null) return fresh;
  try {
    const r = JSON.parse(text);
    if (isPlayer(r.player) && Array.isArray(r.played) && Number.isInteger(r.solved)) {
      return { player: r.player, played: r.played.filter((id) => typeof id === 'string'), solved: r.solved, reset: false };
    }
  } catch (e) { /* unreadable: below */ }
  return { ...fresh, reset: true };
}

export function saveRecord(storage, record) {
  const { player, played, solved } = record;
  try { storage.setItem(PLAYER_KEY, JSON.stringify({ player, played, solved })); } catch (e) { /* storage off */ }
}

// The record after an attempt at `puzzle`: rated (one Glicko-2 period, a
// game won when solved) only on the first attempt at that puzzle.
export function recordAttempt(record, puzzle, solved) {
  if (record.played.includes(puzzle.id)) return { ...record, rated: false };
  const player = rate(record.player, [{ rating: puzzle.rating, deviation: PUZZLE_DEVIATION, score: solved ? 1 : 0 }]);
  return { player, played: [...record.played, puzzle.id], solved: record.solved + (solved ? 1 : 0), reset: false,
           rated: true };
}
