// The win rate and score margin over the game, from the analyses made so
// far (the server keeps one point per ply as the user reviews). With two
// players both lines are red's; with more, the side to move's.
const NS = 'http://www.w3.org/2000/svg';
const W = 320, H = 120, PAD = 6;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

export function drawGraph(svg, graph, plies, cursor, players, onPick) {
  svg.replaceChildren();
  const n = Math.max(plies, 1);
  const x = (ply) => PAD + (ply / n) * (W - 2 * PAD);
  const y = (v) => PAD + (1 - v) * (H - 2 * PAD);
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }, svg);
  el('line', { x1: PAD, y1: y(0.5), x2: W - PAD, y2: y(0.5), class: 'graph-mid' }, svg);
  el('line', { x1: x(cursor), y1: 0, x2: x(cursor), y2: H, class: 'graph-cursor' }, svg);
  const own = (p) => players === 2 && p.turn !== 'red';
  const win = graph.map((p) => [p.ply, own(p) ? 1 - p.winrate : p.winrate]);
  const margin = graph.map((p) => [p.ply, (own(p) ? -p.score : p.score)]);
  const maxMargin = Math.max(10, ...margin.map(([, s]) => Math.abs(s)));
  const path = (points, scale) => points.map(([p, v], i) => `${i ? 'L' : 'M'}${x(p).toFixed(1)},${y(scale(v)).toFixed(1)}`).join(' ');
  if (margin.length) el('path', { d: path(margin, (s) => 0.5 + s / (2 * maxMargin)), class: 'graph-score' }, svg);
  if (win.length) el('path', { d: path(win, (v) => v), class: 'graph-winrate' }, svg);
  for (const [p, v] of win) {
    el('circle', { cx: x(p), cy: y(v), r: 2.5, class: 'graph-point', 'data-graph-ply': p }, svg);
  }
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width * W - PAD) / (W - 2 * PAD) * n);
    onPick(Math.min(Math.max(ply, 0), plies));
  };
  return players === 2 ? 'graph.redView' : 'graph.moverView';  // catalogue keys
}
