// The static site on a hidden page (another tab, the phone locked): the
// engine stops and the game's clocks stand still (docs/web.md). Analysis
// is switched off; while a clock runs, an engine moves, reviews or hints,
// the worker (bridge and engine) ends, the game saved with the turn's time
// so far, and a fresh worker takes it up when the page is shown again, as
// after a reload. A records file's games are not saved: with one loaded,
// only analysis stops. wallgo-gui's page does not pause: other people may
// be watching its game.
import { saveGame } from './saved_game.js';

function busy(state) {
  const live = state.board.phase !== 'finished' && state.cursor === state.moves.length;
  const ticking = (s) => s.running && (s.kind === 'engine' || s.turnLeft !== undefined || s.clockLeft !== undefined);
  return (live && state.seats.some(ticking)) || state.review.state === 'running' || state.hint.pending;
}

// `page`: state() (the last state, or null), canPause() (a worker that has
// sent its first state), turnElapsed() (seconds of the running turn now),
// send(message), review() (the message that starts the review again),
// stop() (ends the worker), start() (a fresh one, whose first state
// restores the saved game). Returns takeUp(): the messages that bring back
// what the pause stopped, once the restored game is there.
export function pauseWhenHidden(page) {
  let paused = null;  // { then: messages, worker: ended }
  function pause() {
    const state = page.state();
    if (!state || paused || !page.canPause()) return;
    const then = [];
    if (state.analysis.on) {
      page.send({ type: 'analysis', on: false });
      then.push({ type: 'analysis', on: true, engine: state.analysis.engine });
    }
    if (!busy(state) || state.records) {
      paused = { then, worker: false };
      return;
    }
    if (state.review.state === 'running') then.push(page.review());
    saveGame(state, page.turnElapsed());
    paused = { then, worker: true };
    page.stop();
  }
  function resume() {
    if (!paused) return;
    if (paused.worker) return page.start();
    paused.then.forEach(page.send);
    paused = null;
  }
  // A page being left (reload, navigation) is hidden too, after pagehide:
  // that is no pause, and its saved game stays as the last state left it.
  let leaving = false;
  addEventListener('pagehide', () => { leaving = true; });
  addEventListener('pageshow', () => { leaving = false; });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && !leaving) pause();
    else if (!document.hidden) resume();
  });
  return function takeUp() {
    const then = paused ? paused.then : [];
    paused = null;
    return then;
  };
}
