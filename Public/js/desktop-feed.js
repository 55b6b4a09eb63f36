/* GesturePad: the desktop page's live feed (docs/server.md "The desktop page") — the gestures of
 * every phone as they happen, and the commands they ran. It connects as an observer and proves
 * the desktop key, which this page already holds (docs/protocol.md "Proof handshake": `with`
 * "desktop", taken from this computer only): nothing is paired, no device entry is made, and
 * every frame after the proof is sealed as on a phone's connection. */
import { socketUrl, statusUrl } from './address.js';
import { Connection } from './connection.js';
import { Feed } from './feed.js';
import { createPageState, exposeForTests } from './state.js';

const PALETTE = ['#1d5fd1', '#b4236c', '#1a7f37', '#9a6700', '#8250df', '#0f7b8a', '#cf222e', '#0969da'];

/** Starts the feed in `list` (a <ul>), its connection's state written to `status` (a <p>),
 * proving `key`. Returns the connection. */
export function startDesktopFeed(list, status, key) {
  const names = {}, colors = {};
  let order = 0;
  function colorFor(session) {
    if (!colors[session]) colors[session] = PALETTE[order++ % PALETTE.length];
    return colors[session];
  }
  const state = createPageState('observer');
  exposeForTests(state);
  const feed = new Feed(list, {
    max: 14, sessionColor: colorFor, sessionLabel: (session) => names[session] || 'phone ' + session
  });
  const conn = new Connection({
    role: 'observer',
    state,
    token: '',
    credential: () => ({ token: key, key: false, id: '', ticket: false, desktop: true }),
    url: socketUrl,
    statusUrl,
    hello() {
      return { type: 'hello', protocol: 1, role: 'observer', width: 1, height: 1, dpr: 1, client: 'gesturepad-desktop/1' };
    },
    onStatus(phase, detail) {
      status.dataset.state = phase;
      status.textContent = phase === 'live' ? 'Live: each phone’s gestures appear here as they happen.'
        : phase === 'reconnecting' ? 'Not connected to the server: reconnecting…' : (detail || phase);
    },
    onMessage(m) {
      if (m.type === 'session' && typeof m.session === 'string' && typeof m.name === 'string' && m.name) {
        names[m.session] = m.name;
      } else if (m.type === 'gesture' || m.type === 'command') {
        feed.add(m);
        state.feedRows = list.children.length;
      }
    }
  });
  conn.start();
  return conn;
}
