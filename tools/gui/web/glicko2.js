// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a
// rating, its deviation (how unsure it is) and a volatility (how much the
// player's strength moves), updated after a rating period of games. The
// Puzzles page rates each attempt as one period: one game against the
// puzzle, whose rating has a fixed deviation. No DOM here: Node's tests
// import it too (tests/tools/web/glicko2_test.mjs).

// Glicko-2's scale: rating = 173.7178 mu + 1500.
const SCALE = 173.7178;
const CENTRE = 1500;
// The system constant tau (Glickman: 0.3..1.2; his example's 0.5) and the
// convergence tolerance of the volatility's iteration.
export const TAU = 0.5;
const EPSILON = 0.000001;

// A new player: Glickman's defaults.
export const NEW_PLAYER = Object.freeze({ rating: 1500, deviation: 350, volatility: 0.06 });
// A deviation never grows past a new player's.
const MAX_DEVIATION = 350;

const g = (phi) => 1 / Math.sqrt(1 + 3 * phi * phi / (Math.PI * Math.PI));
const expected = (mu, muJ, phiJ) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

// The new volatility (step 5: the Illinois algorithm on f).
function newVolatility(sigma, phi, v, delta, tau) {
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
  }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

// The player after one rating period: `player` {rating, deviation,
// volatility}, `games` a list of {rating, deviation, score} (score 1 won,
// 0.5 drawn, 0 lost). Without games only the deviation grows (step 6).
export function rate(player, games, tau = TAU) {
  const mu = (player.rating - CENTRE) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) {
    const grown = Math.sqrt(phi * phi + sigma * sigma) * SCALE;
    return { ...player, deviation: Math.min(grown, MAX_DEVIATION) };
  }
  let vInverse = 0, sum = 0;
  for (const game of games) {
    const muJ = (game.rating - CENTRE) / SCALE, phiJ = game.deviation / SCALE;
    const e = expected(mu, muJ, phiJ);
    vInverse += g(phiJ) * g(phiJ) * e * (1 - e);
    sum += g(phiJ) * (game.score - e);
  }
  const v = 1 / vInverse;
  const volatility = newVolatility(sigma, phi, v, v * sum, tau);
  const phiStar = Math.sqrt(phi * phi + volatility * volatility);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return {
    rating: muNew * SCALE + CENTRE,
    deviation: Math.min(phiNew * SCALE, MAX_DEVIATION),
    volatility,
  };
}

// Whether `value` reads as a player (stored in the browser: anything else
// there is ignored, not trusted).
export function isPlayer(value) {
  return Boolean(value) && [value.rating, value.deviation, value.volatility].every(Number.isFinite) &&
    value.deviation > 0 && value.deviation <= MAX_DEVIATION && value.volatility > 0 && value.volatility < 1;
}
