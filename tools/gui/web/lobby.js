// The games list: every game of this wallgo-gui with its players, moves
// and state, a link to each, and a form that opens a new game by name.
const $ = (id) => document.getElementById(id);
let socket = null;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function seatText(seat) {
  return seat.kind === 'engine' ? `${seat.colour} ${seat.engine}${seat.level ? ` (level ${seat.level})` : ''}` : `${seat.colour} human`;
}

function render(list) {
  const body = $('games').querySelector('tbody');
  body.replaceChildren();
  for (const g of list.games) {
    const tr = document.createElement('tr');
    tr.dataset.game = g.name;
    const state = g.over ? `over: ${g.winners.join(', ')} ${g.winners.length > 1 ? 'draw' : 'wins'}` : `${g.turn} to move`;
    tr.innerHTML = `<td><a href="/game/${encodeURIComponent(g.name)}" data-game-link="${escapeHtml(g.name)}">${escapeHtml(g.name)}</a></td>` +
      `<td>${g.seats.map((s) => escapeHtml(seatText(s))).join(' · ')}</td><td>${g.moves}</td><td>${escapeHtml(state)}</td>` +
      `<td><button data-close="${escapeHtml(g.name)}">Close</button></td>`;
    body.appendChild(tr);
  }
  $('games-limit').textContent = `${list.games.length} of at most ${list.maxGames} games (wallgo-gui --max-games)`;
  document.body.dataset.games = String(list.games.length);
  document.body.dataset.ready = 'true';
}

function connect() {
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket.onopen = () => { $('connection').dataset.connection = 'open'; $('connection').textContent = 'connected'; };
  socket.onclose = () => {
    $('connection').dataset.connection = 'closed';
    $('connection').textContent = 'disconnected: reconnecting…';
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'games') render(message);
    else if (message.type === 'error') { $('event').hidden = false; $('event').textContent = message.message; }
  };
}

// The list follows the games: asked for again every two seconds.
setInterval(() => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'games' })); }, 2000);

document.addEventListener('click', (event) => {
  const b = event.target.closest('button[data-close]');
  if (b && confirm(`Close the game ${b.dataset.close}? Its engines stop.`)) {
    socket.send(JSON.stringify({ type: 'close', game: b.dataset.close }));
  }
});

$('new-game-form').addEventListener('submit', (event) => {
  event.preventDefault();
  location.href = `/game/${encodeURIComponent($('new-game-name').value.trim())}`;
});

// A fresh name to start from: game-1, game-2, ... not yet taken.
$('new-game-name').value = `game-${Math.floor(Date.now() / 1000) % 100000}`;
connect();
