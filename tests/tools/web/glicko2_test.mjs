// Glicko-2 (tools/gui/web/glicko2.js) against Glickman's worked example
// ("Example of the Glicko-2 system", 2013): a player at 1500 / 200 / 0.06
// plays 1400/30 (won), 1550/100 (lost) and 1700/300 (lost); tau 0.5.
// Run by ctest: node --experimental-default-type=module glicko2_test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rate, isPlayer, NEW_PLAYER } from '../../../tools/gui/web/glicko2.js';

const near = (got, want, tolerance, what) =>
  assert.ok(Math.abs(got - want) <= tolerance, `${what}: ${got}, Glickman's ${want} (±${tolerance})`);

test("Glickman's example", () => {
  const after = rate({ rating: 1500, deviation: 200, volatility: 0.06 }, [
    { rating: 1400, deviation: 30, score: 1 },
    { rating: 1550, deviation: 100, score: 0 },
    { rating: 1700, deviation: 300, score: 0 },
  ]);
  // The paper rounds its intermediate values (mu' = -0.2069): exactly,
  // the rating is 1464.05.
  near(after.rating, 1464.06, 0.02, 'rating');
  near(after.deviation, 151.52, 0.01, 'deviation');
  near(after.volatility, 0.05999, 0.00001, 'volatility');
});

test('a win raises, a loss lowers, a draw against an equal changes little', () => {
  const game = (score) => [{ rating: 1500, deviation: 80, score }];
  assert.ok(rate(NEW_PLAYER, game(1)).rating > 1500);
  assert.ok(rate(NEW_PLAYER, game(0)).rating < 1500);
  near(rate(NEW_PLAYER, game(0.5)).rating, 1500, 1e-9, 'a draw with an equal');
  assert.ok(rate(NEW_PLAYER, game(1)).deviation < NEW_PLAYER.deviation, 'a game makes the rating surer');
});

test('a period without games only widens the deviation, up to a new player\'s', () => {
  const after = rate({ rating: 1600, deviation: 100, volatility: 0.06 }, []);
  assert.equal(after.rating, 1600);
  near(after.deviation, Math.sqrt(100 ** 2 + (0.06 * 173.7178) ** 2), 1e-9, 'deviation');
  assert.equal(rate(NEW_PLAYER, []).deviation, 350);
});

test('isPlayer takes only a whole, finite player', () => {
  assert.ok(isPlayer(NEW_PLAYER));
  for (const bad of [null, {}, { rating: 1500, deviation: 0, volatility: 0.06 },
    { rating: NaN, deviation: 100, volatility: 0.06 }, { rating: 1500, deviation: 100, volatility: 2 }]) {
    assert.ok(!isPlayer(bad), JSON.stringify(bad));
  }
});
