// The Puzzles page's data and choices (tools/gui/web/puzzle_set.js): the
// shipped puzzles file reads, a bad one is refused with the reason, the next
// puzzle is near the player's rating, and only a first attempt is rated.
// Run by ctest: node --experimental-default-type=module puzzle_set_test.mjs PUZZLES.json
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { rate, NEW_PLAYER } from '../../../tools/gui/web/glicko2.js';
import { readPuzzles, solverOf, choosePuzzle, loadRecord, saveRecord, recordAttempt, PUZZLE_DEVIATION, THEMES }
  from '../../../tools/gui/web/puzzle_set.js';

const file = process.argv[2];
const shipped = JSON.parse(readFileSync(file, 'utf8'));

test('the puzzles file reads', () => {
  const puzzles = readPuzzles(structuredClone(shipped));
  assert.ok(puzzles.length > 0);
  for (const p of puzzles) {
    assert.ok(THEMES.includes(p.theme), `${p.id}: theme ${p.theme}`);
    assert.match(solverOf(p), /^(red|blue|green|yellow)$/);
  }
});

test('a bad file is refused, saying why', () => {
  const broken = (change) => { const d = structuredClone(shipped); change(d); return d; };
  const cases = [
    [broken((d) => { d.format = 'other'; }), /not a "wallgo-puzzles" file/],
    [broken((d) => { d.version = 2; }), /version 2, this page reads 1/],
    [broken((d) => { d.puzzles = []; }), /no puzzles/],
    [broken((d) => { d.puzzles.push({ ...d.puzzles[0] }); }), /the id is used twice/],
    [broken((d) => { d.puzzles[0].id = 'Bad Id'; }), /a bad id/],
    [broken((d) => { d.puzzles[0].position = 'players=2'; }), /no position with turn=/],
    [broken((d) => { d.puzzles[0].steps = [{ accept: ['a1b1n', 'a1a2n'], replies: [] }, { accept: ['a1a1n'] }]; }),
      /step 1 is not the last, yet accepts 2 moves/],
    [broken((d) => { d.puzzles[0].steps[0].accept = ['a1a1q']; }), /has a move that is no move/],
  ];
  for (const [data, why] of cases) assert.throws(() => readPuzzles(data), why);
});

const set = [1200, 1400, 1500, 1510, 1700, 2100].map((rating, i) => ({ id: `p${i}`, rating }));

test('the next puzzle is near the rating, and not one played', () => {
  assert.equal(choosePuzzle(set, 1490, new Set(), () => 0).id, 'p2');
  const picked = new Set([0, 0.4, 0.99].map((r) => choosePuzzle(set, 1490, new Set(), () => r).id));
  assert.deepEqual([...picked].sort(), ['p1', 'p2', 'p3']);
  assert.equal(choosePuzzle(set, 1490, new Set(['p2', 'p3']), () => 0).id, 'p1');
  assert.equal(choosePuzzle(set, 2000, new Set(), () => 0).id, 'p5');
  assert.equal(choosePuzzle(set, 1490, new Set(set.map((p) => p.id)), () => 0).id, 'p2', 'all played: any');
});

function memoryStorage() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)) };
}

test('an attempt is one Glicko-2 game against the puzzle, rated once', () => {
  const storage = memoryStorage();
  let record = loadRecord(storage);
  assert.deepEqual(record.player, NEW_PLAYER);
  record = recordAttempt(record, { id: 'p1', rating: 1400 }, true);
  assert.ok(record.rated);
  assert.deepEqual(record.player, rate(NEW_PLAYER, [{ rating: 1400, deviation: PUZZLE_DEVIATION, score: 1 }]));
  saveRecord(storage, record);
  const again = recordAttempt(loadRecord(storage), { id: 'p1', rating: 1400 }, false);
  assert.ok(!again.rated);
  assert.deepEqual(again.player, record.player);
  assert.equal(loadRecord(storage).solved, 1);
});

test('a stored record that does not read starts a new player, and says so', () => {
  for (const text of ['{', '{"player":{"rating":"x"},"played":[],"solved":0}', '[]']) {
    const storage = memoryStorage();
    storage.setItem('wallgo-puzzle-player', text);
    const record = loadRecord(storage);
    assert.ok(record.reset, text);
    assert.deepEqual(record.player, NEW_PLAYER);
  }
});
