/* GesturePad touchpad (index.html's module): captures Pointer Events (coalesced moves) or,
 * where PointerEvent is missing, Touch Events; sends them as protocol messages through the
 * connection (one batch per animation frame; moves at once where pointerrawupdate tells of
 * them early, moves.js); draws and lists what the server recognized; the controls for the
 * computer when the server drives it. */
import { showAbout } from './about.js';
import {
  credential, forgetDevice, forgetMove, keepDevice, phoneModel, socketUrl, statusUrl, takeMove, takeToken, watchAddress,
  whenModelKnown
} from './address.js';
import { Connection } from './connection.js';
import { moveToSecure } from './secure.js';
import { Controls } from './controls.js';
import { Feed, bindDetails } from './feed.js';
import { Held } from './held.js';
import { Hint } from './hint.js';
import { EarlyMoves, hasRawUpdates } from './moves.js';
import { round2 as r2, round3 as r3 } from './numbers.js';
import { bindPairing } from './pairing.js';
import { bindFullscreen, haptics, keepStill, registerServiceWorker, wakeLocker } from './phone.js';
import { createPageState, exposeForTests } from './state.js';
import { bindStatus, toast } from './status.js';
import { keepTouchesOnSurface } from './surface.js';
import { View } from './view.js';

const canvas = document.getElementById('surface');
let down = {};       // pointer ids in contact
let hovering = {};   // mouse / pen ids hovering
let size = surfaceSize();
const rttEl = document.getElementById('rtt');

const state = createPageState('touchpad');
exposeForTests(state);
state.input = window.PointerEvent ? 'pointer' : 'touch';
// Moves sent as soon as pointerrawupdate tells of them, where the browser has it (moves.js).
const early = window.PointerEvent && hasRawUpdates(window) ? new EarlyMoves() : null;
state.earlyMoves = !!early;
const buzz = haptics(state);
const wakeLock = wakeLocker(state);
const view = new View(canvas, { obstacles: panels });
state.drawn = view.drawn;
state.frame = view.record;
// While the server drives the computer, the calm feed says what the computer did.
const feed = new Feed(document.getElementById('feed'), {
  max: 6,
  // As the desktop's own touchpad the desktop decides what a touch does: the feed shows the gestures.
  computer: () => controls.active && !controls.native
    ? { settings: state.settings, mapping: state.mapping, held: held.button } : null
});
const showStatus = bindStatus(document.getElementById('status'));

takeMove(); // a move ticket brought from this page's plain-HTTP address (secure.js)
const conn = new Connection({
  role: 'touchpad',
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
    size = surfaceSize();
    return { type: 'hello', protocol: 1, role: 'touchpad', width: size.w, height: size.h,
      dpr: window.devicePixelRatio || 1, client: 'gesturepad-page/1' };
  },
  busy: () => Object.keys(down).length > 0 || Object.keys(hovering).length > 0,
  hidden: () => document.visibilityState === 'hidden',
  onStatus(status, detail) {
    const live = status === 'live';
    showStatus(status, detail);
    showPairing();
    if (!live) rttEl.textContent = '– ms';
    wakeLock(live);
    // One state: not live, the hint goes, the controls are disabled and the notice says why.
    document.body.classList.toggle('offline', !live);
    controls.setLive(live);
    hint.setLive(live);
  },
  onLive(welcome) {
    if (welcome.config) view.config = welcome.config;
    held.clear();
    controls.welcome(welcome);
    hint.welcome(controls.active, controls.native);
    showAbout(document.getElementById('help'), welcome);
  },
  onDown() { down = {}; hovering = {}; if (early) early.clear(); view.clearActive(); controls.release(); held.clear(); },
  onMessage(m) {
    controls.message(m);
    held.message(m);
    if (m.type === 'device') showPairing();     // renamed on the computer
    if (m.type === 'command') feed.add(m);      // what the computer was told to do
    if (m.type !== 'gesture') return;
    view.gesture(m);
    feed.add(m);
    if (m.gesture === 'tap') buzz(12, controls.active && !controls.native && tapsClick() ? 'click' : 'tap');
    else if (m.gesture === 'longPress' && m.phase === 'began') buzz(35, 'long press');
  },
  onRtt(rtt) { rttEl.textContent = (rtt < 10 ? rtt.toFixed(1) : Math.round(rtt)) + ' ms'; },
  onNotice(text, error) {
    // No player to command (it left as the tap went out): the media view says so calmly.
    if (!(error && error.code === 'media_unavailable')) toast(text);
  }
});
watchAddress((token) => conn.useToken(token));
const showPairing = bindPairing(document.getElementById('sheet'), conn, state);
bindDetails(document.getElementById('details'), feed, view, state);
const hint = new Hint(document.getElementById('hint'), state);
// The toolbar, the panels, the settings sheet and the media and presenter views; `media` and
// `media-art` reach the media view through controls.message (onMessage above).
const controls = new Controls({ conn, state, buzz, toast, onToolbar: () => hint.render() });
// What the computer holds for this phone, as the server says it (`held`).
const held = new Held({ state, dock: document.getElementById('dock'), buzz });

/** Whether taps click on the computer with the settings in force. */
function tapsClick() { return !state.settings || state.settings.tapToClick !== false; }

/** Page panels over the surface (feed rows, toolbar, key row and button bar), for the live
 * view's labels to keep clear of. */
function panels() {
  const out = [], els = document.querySelectorAll('#feed li, #tools:not([hidden]), #keys:not([hidden]), #mousebar:not([hidden]), .bar > *');
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (r.width) out.push({ x: r.left, y: r.top, w: r.width, h: r.height });
  }
  return out;
}

function surfaceSize() {
  return { w: r2(canvas.clientWidth || window.innerWidth), h: r2(canvas.clientHeight || window.innerHeight) };
}

function firstTouch() { hint.touched(); }

// ---- Pointer Events -------------------------------------------------------------------
function pointerMsg(type, e) {
  var m = { type: type, id: e.pointerId, x: r2(e.clientX), y: r2(e.clientY), t: r3(e.timeStamp), pointerType: e.pointerType || 'touch' };
  if (type !== 'up') {
    if (e.pointerType === 'pen' || (e.pointerType === 'touch' && e.pressure > 0 && e.pressure !== 0.5)) m.pressure = r3(e.pressure);
    if (e.pointerType !== 'touch') m.buttons = e.buttons;
  }
  return m;
}

function onPointerDown(e) {
  // A mouse or pen: no text selection, no focus moved. A touch's pointerdown is never
  // cancelled (Gecko would drop the other fingers): surface.js stops its defaults instead.
  if (e.pointerType !== 'touch') e.preventDefault();
  firstTouch();
  try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* already gone */ }
  down[e.pointerId] = true;
  delete hovering[e.pointerId];
  var m = pointerMsg('down', e);
  if (early) early.down(m.id, m.t);
  conn.send(m);
  view.pointer('down', e.pointerId, e.clientX, e.clientY);
}

/** A pointer event's coalesced events (the event itself when it has none). */
function coalesced(e) {
  var list = (e.getCoalescedEvents && e.getCoalescedEvents()) || [];
  return list.length ? list : [e];
}

/** The moves of a pointer event (`list`: its coalesced events), each with its own `t` — where
 * early moves are on, only those not sent yet (`raw`: the event is a pointerrawupdate).
 * Returns false for a touch that is not down. */
function moves(e, list, raw) {
  var isDown = !!down[e.pointerId];
  if (!isDown && e.pointerType === 'touch') return false;
  if (!isDown) hovering[e.pointerId] = true;
  var last = r3(list[list.length - 1].timeStamp);
  for (var i = 0; i < list.length; i++) {
    var m = pointerMsg('move', list[i]);
    m.id = e.pointerId; m.pointerType = e.pointerType || 'touch';
    if (raw) { if (early.raw(m.id, m.t)) conn.hold(m); } // with the next batch (moves.js)
    else if (!early || early.frame(m.id, m.t, last)) conn.send(m);
  }
  return true;
}

/** pointerrawupdate: the moves go at once when their step is complete, else with the next
 * batch; a late one is left to pointermove (moves.js). */
function onRawUpdate(e) {
  var list = coalesced(e), oldest = list[0].timeStamp;
  for (var i = 1; i < list.length; i++) oldest = Math.min(oldest, list[i].timeStamp);
  if (!early.timely(oldest, performance.now())) return;
  if (moves(e, list, true) && early.complete()) conn.flushEarly();
}

/** pointermove: draws; sends the moves (without early moves), or those pointerrawupdate did
 * not bring. */
function onPointerMove(e) {
  if (!moves(e, coalesced(e), false)) return;
  view.pointer(down[e.pointerId] ? 'move' : 'hover', e.pointerId, e.clientX, e.clientY);
}

function onPointerUp(e) {
  if (!down[e.pointerId]) return;
  delete down[e.pointerId];
  if (early) early.gone(e.pointerId);
  conn.send(pointerMsg('up', e));
  view.pointer('up', e.pointerId);
}

function onPointerCancel(e) {
  if (!down[e.pointerId] && !hovering[e.pointerId]) return;
  delete down[e.pointerId]; delete hovering[e.pointerId];
  if (early) early.gone(e.pointerId);
  conn.send({ type: 'cancel', id: e.pointerId, t: r3(e.timeStamp) });
  view.pointer('cancel', e.pointerId);
}

function onPointerLeave(e) {
  if (!hovering[e.pointerId] || down[e.pointerId]) return;
  delete hovering[e.pointerId];
  if (early) early.gone(e.pointerId);
  conn.send({ type: 'leave', id: e.pointerId, t: r3(e.timeStamp) });
  view.pointer('cancel', e.pointerId);
}

// ---- Touch Events (no PointerEvent) --------------------------------------------------
function touchMsgs(type, e) {
  var list = e.changedTouches;
  for (var i = 0; i < list.length; i++) {
    var tc = list[i], id = tc.identifier;
    if (type === 'cancel') { delete down[id]; conn.send({ type: 'cancel', id: id, t: r3(e.timeStamp) }); view.pointer('cancel', id); continue; }
    if (type === 'down') down[id] = true;
    else if (!down[id]) continue;
    if (type === 'up') delete down[id];
    var m = { type: type, id: id, x: r2(tc.clientX), y: r2(tc.clientY), t: r3(e.timeStamp), pointerType: 'touch' };
    if (type !== 'up' && tc.force > 0) m.pressure = r3(tc.force);
    conn.send(m);
    view.pointer(type, id, tc.clientX, tc.clientY);
  }
}

const opts = { passive: false };
if (window.PointerEvent) {
  keepTouchesOnSurface(canvas, onPointerDown, state);
  canvas.addEventListener('pointerdown', onPointerDown, opts);
  canvas.addEventListener('pointermove', onPointerMove, opts);
  if (early) canvas.addEventListener('pointerrawupdate', onRawUpdate);
  canvas.addEventListener('pointerup', onPointerUp, opts);
  canvas.addEventListener('pointercancel', onPointerCancel, opts);
  canvas.addEventListener('pointerleave', onPointerLeave, opts);
  canvas.addEventListener('lostpointercapture', function (e) {
    // Capture lost without an up or cancel (rare): treat it as a cancel.
    if (down[e.pointerId]) onPointerCancel(e);
  });
} else {
  canvas.addEventListener('touchstart', function (e) { e.preventDefault(); firstTouch(); touchMsgs('down', e); }, opts);
  canvas.addEventListener('touchmove', function (e) { e.preventDefault(); touchMsgs('move', e); }, opts);
  canvas.addEventListener('touchend', function (e) { e.preventDefault(); touchMsgs('up', e); }, opts);
  canvas.addEventListener('touchcancel', function (e) { touchMsgs('cancel', e); }, opts);
}

// ---- page lifecycle: cancel everything when the page goes away --------------------------
// Only when something is down or hovering: focus moving between windows is common and
// there is nothing to cancel then (the three events also come together: one cancel).
function cancelAll() {
  controls.release(); // a mouse-bar button held down goes up
  var any = Object.keys(down).length || Object.keys(hovering).length;
  if (!any) return;
  down = {}; hovering = {};
  if (early) early.clear();
  conn.send({ type: 'cancel', id: 'all', t: r3(performance.now()) });
  view.clearActive();
  conn.flushNow(); // animation frames stop on a hidden page: send now
}
document.addEventListener('visibilitychange', function () {
  if (document.visibilityState === 'hidden') cancelAll();
  else wakeLock(state.status === 'live');
});
window.addEventListener('blur', cancelAll);
window.addEventListener('pagehide', cancelAll);

// ---- surface size -------------------------------------------------------------------
let resizePending = false;
function onResize() {
  if (resizePending) return;
  resizePending = true;
  requestAnimationFrame(function () {
    resizePending = false;
    view.resize();
    var now = surfaceSize();
    if (now.w === size.w && now.h === size.h) return;
    size = now;
    conn.send({ type: 'resize', width: now.w, height: now.h });
  });
}
window.addEventListener('resize', onResize);
window.addEventListener('orientationchange', onResize);
if (window.visualViewport) window.visualViewport.addEventListener('resize', onResize);

keepStill(canvas, [document.getElementById('sheet'), document.getElementById('media-view')]);
bindFullscreen(document.getElementById('fullscreen'));
registerServiceWorker(state);
conn.start();
