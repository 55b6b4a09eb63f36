/* GesturePad observer (watch.html's module): connects with role "observer", lists the live
 * sessions by their phones' names (this run's apart from an earlier run's) and draws / lists
 * every session's gestures, and the commands it sent, as they happen. */
import {
  credential, forgetDevice, forgetMove, keepDevice, phoneModel, socketUrl, statusUrl, takeMove, takeToken, watchAddress,
  whenModelKnown
} from './address.js';
import { Connection } from './connection.js';
import { moveToSecure } from './secure.js';
import { Feed, bindDetails } from './feed.js';
import { createPageState, exposeForTests } from './state.js';
import { bindStatus, toast } from './status.js';
import { View } from './view.js';

const state = createPageState('observer');
exposeForTests(state);
state.sessions = [];
const PALETTE = ['#58a6ff', '#f778ba', '#3fb950', '#e3b341', '#a371f7', '#39c5cf', '#ff7b72', '#79c0ff'];
// Sessions by key: the server's run and the session id ("run/3"), so that after a restart of the
// server (session ids start again at 1) a new session is never counted with the last run's.
const sessions = {};   // key -> {key, id, run, name, state, color, count, li}
let order = 0;
let run = '';          // the run of the server this observer is connected to (welcome.run)
const listEl = document.getElementById('sessions');

function keyOf(id) { return (run || '?') + '/' + id; }
// The view and the feed name sessions by id: theirs are all of the current run.
function colorFor(id) { return session(keyOf(id)).color; }
function labelFor(id) { return session(keyOf(id)).name; }

/** What a session is called: its phone's name (the paired device's, docs/protocol.md "Server
 * identity"), else "phone N" (a server without pairing names no device). */
function nameOf(s) { return s.device || 'phone ' + s.id; }

function session(key, device) {
  var s = sessions[key];
  if (s) {
    if (device && device !== s.device) { s.device = device; s.name = nameOf(s); paint(s); }
    return s;
  }
  var slash = key.lastIndexOf('/');
  s = sessions[key] = { key: key, run: key.slice(0, slash), id: key.slice(slash + 1), device: device || '', state: 'open',
    color: PALETTE[order++ % PALETTE.length], count: 0, li: null };
  s.name = nameOf(s);
  var none = listEl.querySelector('.none');
  if (none) none.remove();
  s.li = document.createElement('li');
  s.li.dataset.session = s.id;
  s.li.dataset.run = s.run;
  s.li.innerHTML = '<i></i><code></code><span></span>';
  s.li.style.setProperty('--c', s.color);
  listEl.insertBefore(s.li, listEl.firstChild);
  // Keep the list short: drop the oldest closed sessions.
  var closed = listEl.querySelectorAll('li.closed');
  for (var i = 8; i < closed.length; i++) {
    delete sessions[closed[i].dataset.run + '/' + closed[i].dataset.session];
    closed[i].remove();
  }
  paint(s);
  return s;
}

function paint(s) {
  var earlier = s.run !== run;
  s.li.className = s.state + (earlier ? ' earlier' : '');
  s.li.dataset.state = s.state;
  s.li.querySelector('code').textContent = s.name;
  s.li.title = 'session ' + s.id + (earlier ? ', before the server restarted' : '');
  s.li.querySelector('span').textContent = (s.state === 'closed' ? 'closed · ' : '') + s.count + ' event' + (s.count === 1 ? '' : 's') +
    (earlier ? ' · earlier run' : '');
  state.sessions = Object.keys(sessions).map(function (k) {
    var x = sessions[k];
    return { id: x.id, run: x.run, key: k, name: x.name, state: x.state, count: x.count, current: x.run === run };
  });
}

const canvas = document.getElementById('surface');
function rect(el) { var r = el.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; }
const feedEl = document.getElementById('feed'), sessionsEl = listEl.parentNode;
const view = new View(canvas, { fit: true, sessionColor: colorFor, linger: 2.5, area: frameArea, obstacles: panels });

/** Where the phone frame is drawn: below the header, clear of the session list, and either
 * above the feed's band or beside the feed's column — whichever draws it larger. */
function frameArea(w, h) {
  var s = view.surface, pad = 12, list = sessionsEl.getBoundingClientRect();
  function fit(a) {
    var room = w - a.left - a.right - 2 * pad;
    var sc = Math.min(room / s.w, (h - a.top - a.bottom) / s.h, 1.5);
    var l = a.left + pad + (room - s.w * sc) / 2, r = l + s.w * sc;
    if (list.height && r > list.left && l < list.right && a.top < list.bottom + 10) {
      a.top = list.bottom + 10;
      return fit(a);
    }
    a.sc = sc;
    return a;
  }
  var below = fit({ top: 56, bottom: Math.min(h * 0.34, h - 64) + 16, left: 0, right: 0 });
  var beside = fit({ top: 56, bottom: pad, left: feedEl.offsetWidth + 4, right: 0 });
  return beside.sc >= below.sc ? beside : below;
}

/** Page panels over the canvas, for labels to keep clear of. */
function panels() {
  var out = [], rows = feedEl.children;
  for (var i = 0; i < rows.length; i++) out.push(rect(rows[i]));
  out.push(rect(sessionsEl));
  var bar = document.querySelectorAll('.bar > *');
  for (var j = 0; j < bar.length; j++) out.push(rect(bar[j]));
  return out;
}
const feed = new Feed(document.getElementById('feed'), { max: 12, sessionColor: colorFor, sessionLabel: labelFor });
state.drawn = view.drawn;
state.frame = view.record;
takeMove(); // a move ticket brought from this page's plain-HTTP address (secure.js)
const conn = new Connection({
  role: 'observer',
  pairAs: 'observer', // a browser paired here watches: it is listed as an observer, and cannot be a touchpad
  state,
  token: takeToken(),
  credential,
  url: socketUrl,
  statusUrl,
  model: phoneModel,
  prepare: whenModelKnown,
  onDevice: keepDevice,
  onUnpaired: forgetDevice,
  onMove: moveToSecure,
  onForgetMove: forgetMove,
  hello() {
    return { type: 'hello', protocol: 1, role: 'observer', width: Math.round(innerWidth), height: Math.round(innerHeight),
      dpr: window.devicePixelRatio || 1, client: 'gesturepad-watch/1' };
  },
  onStatus: bindStatus(document.getElementById('status')),
  onLive(welcome) {
    if (welcome.config) view.config = welcome.config;
    run = typeof welcome.run === 'string' ? welcome.run : '';
    for (const k in sessions) paint(sessions[k]);
  },
  onDown() {
    // Disconnected: what was open may be gone by the time we are back.
    view.clearActive();
    for (const k in sessions) if (sessions[k].state === 'open') { sessions[k].state = 'closed'; paint(sessions[k]); }
  },
  onMessage(m) {
    if (m.type === 'session' && typeof m.session === 'string') {
      const s = session(keyOf(m.session), typeof m.name === 'string' ? m.name : '');
      s.state = m.state === 'closed' ? 'closed' : 'open';
      if (s.state === 'closed') view.clearActive(m.session);
      paint(s);
    } else if (m.type === 'gesture' || m.type === 'command') {
      const s = session(keyOf(typeof m.session === 'string' ? m.session : '?'));
      s.count++;
      paint(s);
      if (m.type === 'gesture') view.gesture(m);
      feed.add(m);
    }
  },
  onNotice: toast
});
watchAddress((token) => conn.useToken(token));
bindDetails(document.getElementById('details'), feed, view, state);
window.addEventListener('resize', () => view.resize());
conn.start();
