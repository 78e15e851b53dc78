// Draws the board as SVG from the server's state (no rules code here: the
// server sends the stones, walls, owned regions and legal move tokens) and
// turns clicks into move tokens. Every cell carries data-cell="d4", every
// wall data-edge="d4n" (canonical: north or east side), and every choice
// offered during move input is a clickable element with the same attribute
// and the class "choice".
const NS = 'http://www.w3.org/2000/svg';
const CELL = 60, MARGIN = 30, FILES = 'abcdefg';
export const LETTERS = { red: 'R', blue: 'B', green: 'G', yellow: 'Y' };

export function cellXY(name) {
  const col = FILES.indexOf(name[0]), row = Number(name[1]) - 1;
  return { x: MARGIN + col * CELL, y: MARGIN + (6 - row) * CELL, col, row };
}
const cellName = (col, row) => FILES[col] + (row + 1);

// The canonical edge (north or east side of a cell) of `side` of `cell`;
// null for the rim.
export function canonicalEdge(cell, side) {
  const { col, row } = cellXY(cell);
  if (side === 'n') return row < 6 ? cell + 'n' : null;
  if (side === 'e') return col < 6 ? cell + 'e' : null;
  if (side === 's') return row > 0 ? cellName(col, row - 1) + 'n' : null;
  if (side === 'w') return col > 0 ? cellName(col - 1, row) + 'e' : null;
  return null;
}

function edgeLine(edge) {
  const { x, y } = cellXY(edge.slice(0, 2));
  return edge[2] === 'n' ? [x, y, x + CELL, y] : [x + CELL, y, x + CELL, y + CELL];
}

// A move token split into its parts: placement d4, turn c3c5n, break
// c3c4xw, pass, resign.
export function parseToken(token) {
  if (token === 'pass' || token === 'resign') return { kind: token };
  if (token.length === 2) return { kind: 'place', to: token };
  const brk = token[4] === 'x';
  return { kind: brk ? 'break' : 'turn', from: token.slice(0, 2), to: token.slice(2, 4),
           side: token[brk ? 5 : 4] };
}

// What a click on `target` (an element of the board) means during move
// input, given the legal move tokens and the input so far ({selected,
// dest}): { token } for a whole move, { input } for the next input, null
// for a click on nothing to choose. A placement or a wall choice is a move;
// a cell selects a stone, then its destination.
export function clickInput(target, legalTokens, input) {
  const hit = target.closest('[data-token], [data-cell]');
  if (!hit) return null;
  if (hit.dataset.token) return { token: hit.dataset.token };
  const cell = hit.dataset.cell;
  const legal = legalTokens.map(parseToken);
  if (legal.some((m) => m.kind === 'place' && m.to === cell)) return { token: cell };
  const turns = legal.filter((m) => m.from);
  if (input.selected && !input.dest && turns.some((m) => m.from === input.selected && m.to === cell)) {
    return { input: { selected: input.selected, dest: cell } };
  }
  if (turns.some((m) => m.from === cell)) return { input: { selected: cell, dest: null } };
  return { input: { selected: null, dest: null } };
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function stoneShape(g, colour, x, y, r) {
  const cx = x + CELL / 2, cy = y + CELL / 2;
  let shape;
  if (colour === 'blue') {
    shape = el('rect', { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: 5 });
  } else if (colour === 'green') {
    shape = el('polygon', { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` });
  } else if (colour === 'yellow') {
    shape = el('polygon', { points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}` });
  } else {
    shape = el('circle', { cx, cy, r });
  }
  shape.setAttribute('class', `stone-body fill-${colour}`);
  g.appendChild(shape);
  const text = el('text', { x: cx, y: cy + (colour === 'yellow' ? 6 : 1), class: `stone-letter letter-${colour}` }, g);
  text.textContent = LETTERS[colour];
}

// Draws `view` (state.board plus what the user is choosing) into `svg`.
// `input` = { selected: cell|null, dest: cell|null, enabled: bool }.
export function drawBoard(svg, board, input, analysis) {
  svg.replaceChildren();
  el('rect', { x: 0, y: 0, width: 480, height: 480, class: 'board-bg' }, svg);
  const owner = {};
  for (const region of board.regions) for (const c of region.cells) owner[c] = region.owner;
  const cells = el('g', { class: 'cells' }, svg);
  for (let row = 6; row >= 0; --row) {
    for (let col = 0; col < 7; ++col) {
      const name = cellName(col, row);
      const { x, y } = cellXY(name);
      const cls = ['cell'];
      if (owner[name]) cls.push('owned', `owned-${owner[name]}`);
      el('rect', { x, y, width: CELL, height: CELL, class: cls.join(' '), 'data-cell': name }, cells);
    }
  }
  const labels = el('g', { class: 'coords' }, svg);
  for (let i = 0; i < 7; ++i) {
    el('text', { x: MARGIN + i * CELL + CELL / 2, y: 474 }, labels).textContent = FILES[i];
    el('text', { x: 14, y: MARGIN + (6 - i) * CELL + CELL / 2 + 5 }, labels).textContent = String(i + 1);
  }
  // Owned regions also get a hatch in the owner's colour: a second cue.
  const marks = el('g', { class: 'owner-marks' }, svg);
  for (const [c, colour] of Object.entries(owner)) {
    const { x, y } = cellXY(c);
    el('text', { x: x + CELL - 9, y: y + 14, class: `owner-letter letter-on-board-${colour}` }, marks)
      .textContent = LETTERS[colour].toLowerCase();
  }
  const legal = board.legal.map(parseToken);
  const last = board.last ? parseToken(board.last.move) : null;
  if (last && last.from && last.from !== last.to) {
    const a = cellXY(last.from), b = cellXY(last.to);
    el('line', { x1: a.x + 30, y1: a.y + 30, x2: b.x + 30, y2: b.y + 30, class: 'last-path' }, svg);
  }
  const walls = el('g', { class: 'walls' }, svg);
  for (const w of board.walls) {
    const [x1, y1, x2, y2] = edgeLine(w.edge);
    el('line', { x1, y1, x2, y2, class: `wall wall-${w.colour}`, 'data-edge': w.edge,
                 'data-colour': w.colour }, walls);
  }
  if (last && last.side) {
    const edge = canonicalEdge(last.to, last.side);
    if (edge) {
      const [x1, y1, x2, y2] = edgeLine(edge);
      el('line', { x1, y1, x2, y2, class: 'last-wall' }, svg);
    }
  }
  el('rect', { x: MARGIN, y: MARGIN, width: 7 * CELL, height: 7 * CELL, class: 'rim' }, svg);
  const stones = el('g', { class: 'stones' }, svg);
  for (const [colour, list] of Object.entries(board.stones)) {
    for (const c of list) {
      const { x, y } = cellXY(c);
      const g = el('g', { class: `stone stone-${colour}`, 'data-stone': c, 'data-colour': colour }, stones);
      stoneShape(g, colour, x, y, 20);
    }
  }
  if (last && last.to) {
    const { x, y } = cellXY(last.to);
    el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: 'last-move' }, svg);
  }
  if (analysis) drawAnalysis(svg, analysis);
  if (input.enabled) drawChoices(svg, legal, input);
}

function drawChoices(svg, legal, input) {
  const g = el('g', { class: 'choices' }, svg);
  const dot = (cell, kind, token) => {
    const { x, y } = cellXY(cell);
    const attrs = { cx: x + 30, cy: y + 30, r: kind === 'place-choice' ? 7 : 10, class: `choice ${kind}`, 'data-cell': cell };
    if (token) attrs['data-token'] = token;
    el('circle', attrs, g);
  };
  if (legal.some((m) => m.kind === 'place')) {
    for (const m of legal) if (m.kind === 'place') dot(m.to, 'place-choice', m.to);
    return;
  }
  const turns = legal.filter((m) => m.kind === 'turn' || m.kind === 'break');
  if (!input.selected) {
    for (const from of new Set(turns.map((m) => m.from))) {
      const { x, y } = cellXY(from);
      el('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: 'choice stone-choice',
                   'data-cell': from }, g);
    }
    return;
  }
  const { x, y } = cellXY(input.selected);
  el('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: 'selected' }, g);
  const mine = turns.filter((m) => m.from === input.selected);
  if (!input.dest) {
    for (const to of new Set(mine.map((m) => m.to))) dot(to, 'dest-choice');
    return;
  }
  const { x: dx, y: dy } = cellXY(input.dest);
  el('rect', { x: dx + 6, y: dy + 6, width: CELL - 12, height: CELL - 12, class: 'selected-dest' }, g);
  const walls = mine.filter((m) => m.to === input.dest).map((m) => ({
    m, edge: canonicalEdge(m.to, m.side), token: m.from + m.to + (m.kind === 'break' ? 'x' : '') + m.side }));
  // A thumb's hit area for each wall: the quarter of the destination cell
  // nearest that side (the triangle from the side to the cell's centre),
  // under the lines themselves, which also take a tap just beyond the side.
  for (const { m, edge, token } of walls) {
    el('polygon', { points: sideTriangle(dx, dy, m.side), class: 'wall-hit', 'data-wall-hit': edge,
                    'data-token': token }, g);
  }
  for (const { m, edge, token } of walls) {
    const [x1, y1, x2, y2] = edgeLine(edge);
    el('line', { x1, y1, x2, y2, class: `choice wall-choice ${m.kind}-choice`, 'data-edge': edge,
                 'data-token': token }, g);
  }
}

// The triangle between side `side` (n, e, s, w) of the cell at (x, y) and
// the cell's centre, as an SVG points list.
function sideTriangle(x, y, side) {
  const corners = { n: [[x, y], [x + CELL, y]], e: [[x + CELL, y], [x + CELL, y + CELL]],
                    s: [[x + CELL, y + CELL], [x, y + CELL]], w: [[x, y + CELL], [x, y]] }[side];
  return [...corners, [x + CELL / 2, y + CELL / 2]].map((p) => p.join(',')).join(' ');
}

// A move's arrow (stone to destination) and wall side, classed
// `${kind}-arrow` and `${kind}-wall`.
function drawMoveMarks(parent, m, kind) {
  if (!m.to) return;
  const b = cellXY(m.to);
  if (m.from && m.from !== m.to) {
    const a = cellXY(m.from);
    el('line', { x1: a.x + 30, y1: a.y + 30, x2: b.x + 30, y2: b.y + 30, class: `${kind}-arrow`,
                 'marker-end': 'url(#arrow)' }, parent);
  }
  if (m.side) {
    const edge = canonicalEdge(m.to, m.side);
    if (edge) {
      const [x1, y1, x2, y2] = edgeLine(edge);
      el('line', { x1, y1, x2, y2, class: `${kind}-wall` }, parent);
    }
  }
}

// Candidates: an arrow from stone to destination, the wall side marked, and
// visits and win rate; `analysis.preview` is a principal variation to show.
function drawAnalysis(svg, analysis) {
  const g = el('g', { class: 'analysis' }, svg);
  const defs = el('defs', {}, g);
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5,
                                markerHeight: 5, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }, marker);
  const list = analysis.candidates.slice(0, 5);
  const labelled = new Set();
  list.forEach((c, i) => {
    const m = parseToken(c.move);
    const cg = el('g', { class: `candidate rank-${i}`, 'data-candidate': c.move }, g);
    if (m.to) {
      const b = cellXY(m.to);
      drawMoveMarks(cg, m, 'candidate');
      // One label per destination: the best candidate's (they come best first).
      if (!labelled.has(m.to)) {
        labelled.add(m.to);
        const label = el('text', { x: b.x + 30, y: b.y + 54, class: 'candidate-label' }, cg);
        label.textContent = `${(c.winrate * 100).toFixed(0)}% ${c.visits}`;
      }
    }
  });
  if (analysis.hint) {
    const hg = el('g', { class: 'hint-move', 'data-hint-move': analysis.hint }, g);
    const m = parseToken(analysis.hint);
    if (m.to && !(m.from && m.from !== m.to)) {
      const b = cellXY(m.to);
      el('circle', { cx: b.x + 30, cy: b.y + 30, r: 22, class: 'hint-ring' }, hg);
    }
    drawMoveMarks(hg, m, 'hint');
  }
  // The review's better move before a mistake: a green arrow and wall.
  if (analysis.better) {
    const m = parseToken(analysis.better);
    const bg = el('g', { class: 'better-move', 'data-better-move': analysis.better }, g);
    if (m.to && !(m.from && m.from !== m.to)) {
      const b = cellXY(m.to);
      el('circle', { cx: b.x + 30, cy: b.y + 30, r: 22, class: 'better-ring' }, bg);
    }
    drawMoveMarks(bg, m, 'better');
  }
  if (analysis.preview) {
    const pg = el('g', { class: 'pv-preview' }, g);
    analysis.preview.forEach((token, i) => {
      const m = parseToken(token);
      if (!m.to) return;
      const b = cellXY(m.to);
      if (m.side) {
        const edge = canonicalEdge(m.to, m.side);
        if (edge) {
          const [x1, y1, x2, y2] = edgeLine(edge);
          el('line', { x1, y1, x2, y2, class: 'pv-wall' }, pg);
        }
      }
      el('circle', { cx: b.x + 30 + (i % 2 ? 12 : -12), cy: b.y + 30, r: 10, class: 'pv-dot' }, pg);
      el('text', { x: b.x + 30 + (i % 2 ? 12 : -12), y: b.y + 34, class: 'pv-number' }, pg)
        .textContent = String(i + 1);
    });
  }
}
