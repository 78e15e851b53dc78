// The games list (/games): every game of this wallgo-gui with its players,
// moves and state, a link to each, a form that opens a new game by name,
// and a link to a board ready to play (/).
import { t, colourName, initLanguages } from '/i18n.js';

const $ = (id) => document.getElementById(id);
let last = null;  // the last list, redrawn when the language changes
// The host's key (wallgo-gui prints it when it listens beyond loopback):
// kept, so that the game pages opened from here are the host's too.
const urlKey = new URLSearchParams(location.search).get('key');
try { if (urlKey) localStorage.setItem('wallgo-host-key', urlKey); } catch (e) { /* private mode */ }
let hostKey = urlKey || '';
try { hostKey = hostKey || localStorage.getItem('wallgo-host-key') || ''; } catch (e) { /* private mode */ }
let socket = null;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function seatText(seat) {
  return `${colourName(seat.colour)} ` + (seat.kind === 'engine'
    ? `${seat.engine}${seat.level ? ` (${t('seat.levelPlain', { n: seat.level })})` : ''}` : t('who.human'));
}

function render(list) {
  last = list;
  const body = $('games').querySelector('tbody');
  body.replaceChildren();
  for (const g of list.games) {
    const tr = document.createElement('tr');
    tr.dataset.game = g.name;
    const state = g.over ? (g.winners.length === 1 ? t('lobby.over', { who: colourName(g.winners[0]) }) : t('lobby.drawn'))
      : t('lobby.toMove', { colour: colourName(g.turn) });
    tr.innerHTML = `<td><a href="/game/${encodeURIComponent(g.name)}" data-game-link="${escapeHtml(g.name)}">${escapeHtml(g.name)}</a></td>` +
      `<td>${g.seats.map((s) => escapeHtml(seatText(s))).join(' · ')}</td><td>${g.moves}</td><td>${escapeHtml(state)}</td>` +
      `<td><button data-close="${escapeHtml(g.name)}">${escapeHtml(t('lobby.close'))}</button></td>`;
    body.appendChild(tr);
  }
  $('games-limit').textContent = t('lobby.limit', { n: list.games.length, max: list.maxGames });
  document.body.dataset.games = String(list.games.length);
  document.body.dataset.ready = 'true';
}

function connect() {
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${hostKey ? `?key=${encodeURIComponent(hostKey)}` : ''}`);
  setConnection('connecting');
  socket.onopen = () => setConnection('open');
  socket.onclose = () => {
    setConnection('closed');
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'games') render(message);
    else if (message.type === 'error') { $('event').hidden = false; $('event').textContent = message.message; }
  };
}

function setConnection(status) {
  $('connection').dataset.connection = status;
  $('connection').textContent = t(`conn.${status}`);
}

// The list follows the games: asked for again every two seconds.
setInterval(() => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'games' })); }, 2000);

document.addEventListener('click', (event) => {
  const b = event.target.closest('button[data-close]');
  if (b && confirm(t('lobby.closeConfirm', { name: b.dataset.close }))) {
    socket.send(JSON.stringify({ type: 'close', game: b.dataset.close }));
  }
});

// A board ready to play, the host's with its key.
if (hostKey) $('play-link').search = `?key=${encodeURIComponent(hostKey)}`;

$('new-game-form').addEventListener('submit', (event) => {
  event.preventDefault();
  location.href = `/game/${encodeURIComponent($('new-game-name').value.trim())}`;
});

// A fresh name to start from: game-1, game-2, ... not yet taken.
$('new-game-name').value = `game-${Math.floor(Date.now() / 1000) % 100000}`;
initLanguages(() => { if (last) render(last); }).then(connect);
