/* GesturePad: the feed of recent gestures (DOM, bounded).
 *
 * Two modes. The calm one (default) lists what a person did — tap, double tap, long press,
 * pointer, drag, swipe, scroll, pinch, rotate, hover — one row per gesture, updated in place while it
 * runs; on a touchpad that drives the computer it lists what the computer did instead (click,
 * double click, right click, the pointer moved, a drag with the button held, scroll, zoom, and
 * a swipe only where it is bound to keys): a brisk stroke is pointer motion there, not a
 * "swipe". The "details" mode lists every engine event (timedPress, singleTapConfirmed, press,
 * release, end, repeat ticks) with its key fields, as a debugging aid; the observer always
 * shows the gestures. Rows never clip: they wrap, and the oldest rows that no longer fit the
 * box are dropped. What each row says comes from js/feed-words.js. */
import { CONTINUOUS, colorOf } from './gestures.js';
import { num } from './numbers.js';
import { INTERNAL, commandWords, computerDid, describe, say } from './feed-words.js';

const DETAILS_KEY = 'gesturepad.details';
const HISTORY = 300;

/** The list of recent gestures; continuous gestures update their own line. */
export class Feed {
  /** opts: max (rows), sessionColor(session) and sessionLabel(session) (observer), computer() → null, or the touchpad's
   * mapping while it drives the computer: {settings, mapping, held} (`held`: a button is
   * held by the touch, e.g. tap-and-drag). */
  constructor(el, opts) {
    opts = opts || {};
    this.el = el;
    this.max = opts.max || 10;
    this.sessionColor = opts.sessionColor || null;
    this.sessionLabel = opts.sessionLabel || null;   // observer: a session's name
    this.computer = opts.computer || function () { return null; };
    this.details = false;
    this.open = {};      // running rows by session + gesture
    this.taps = {};      // by session: the row of the latest tap sequence
    this.history = [];   // the latest events, to redraw the list when the mode changes
    var self = this;
    window.addEventListener('resize', function () { self.fit(); });
  }

  /** Switches between the calm list and the details list, rebuilding it from recent events. */
  setDetails(on) {
    on = !!on;
    if (on === this.details) return;
    this.details = on;
    this.el.classList.toggle('details', on);
    this.el.textContent = '';
    this.open = {}; this.taps = {};
    var past = this.history;
    this.history = [];
    for (var i = 0; i < past.length; i++) this.add(past[i]);
  }

  add(m) {
    this.history.push(m);
    if (this.history.length > HISTORY) this.history.splice(0, this.history.length - HISTORY);
    if (m.type === 'command') this.addCommand(m);
    else if (this.details) this.addDetail(m); else this.addCalm(m);
    this.fit();
  }

  row(m, g) {
    var li = document.createElement('li');
    // Spaces between the parts: the row reads as words (screen readers, copy and paste).
    li.innerHTML = '<span class="s"></span> <b></b> <span class="ph"></span> <span class="kv"></span>';
    this.el.insertBefore(li, this.el.firstChild);
    while (this.el.childNodes.length > this.max) this.el.removeChild(this.el.lastChild);
    var s = li.querySelector('.s');
    if (this.sessionColor && m.session) {
      s.textContent = this.sessionLabel ? this.sessionLabel(m.session) : '#' + m.session.slice(0, 8);
      s.style.color = this.sessionColor(m.session);
    }
    else s.hidden = true;
    if (m.session) li.dataset.session = m.session;
    li.style.setProperty('--c', colorOf(g));
    return li;
  }

  /** A page command the computer carried out (the same row in both modes). */
  addCommand(m) {
    var li = this.row(m, 'command');
    fill(li, 'command', 'ended', commandWords(m), '', '');
    li.dataset.command = m.command || '';
  }

  /** Details mode: every event, with its phase and key fields. */
  addDetail(m) {
    var g = m.gesture;
    var key = (m.session || '') + '|' + g, merge = CONTINUOUS[g] || (g === 'repeat' && m.count > 1);
    var li = merge ? this.open[key] : null;
    if (!li || m.phase === 'began' || !li.parentNode) {
      li = this.row(m, g);
      if (CONTINUOUS[g] || g === 'repeat') this.open[key] = li;
    }
    fill(li, g, m.phase, g, m.phase === 'ended' && !CONTINUOUS[g] ? '' : (m.phase || ''), describe(m));
    // Every repeat tick is "ended"; its row stays open for the next count (count 1 starts anew).
    if ((m.phase === 'ended' || m.phase === 'cancelled') && g !== 'repeat') delete this.open[key];
  }

  /** Touchpad that drives the computer, calm mode: one row per thing the computer did. */
  addComputer(m, c) {
    var session = m.session || '', key = session + '|' + m.gesture, li = this.open[key];
    var held = li && li.parentNode && m.phase !== 'began' ? li.dataset.held === '1' : !!c.held;
    var did = computerDid(m, c, held);
    if (!did) return;
    if (did[0] === 'tap') {
      // A multi-tap is one row: "click", then "double click", … as the count grows.
      li = this.taps[session];
      if (!(li && li.parentNode && num(m.count, 1) > 1)) li = this.taps[session] = this.row(m, 'tap');
      fill(li, 'tap', m.phase, did[1], '', did[2]);
      return;
    }
    if (!li || m.phase === 'began' || !li.parentNode) {
      li = this.row(m, m.gesture);
      li.dataset.held = held ? '1' : '';
      if (CONTINUOUS[m.gesture]) this.open[key] = li;
    }
    fill(li, m.gesture, m.phase, did[1], m.phase === 'cancelled' ? 'cancelled' : '', did[2]);
    if (m.phase === 'ended' || m.phase === 'cancelled') delete this.open[key];
  }

  /** Calm mode: one row per thing the person did. */
  addCalm(m) {
    var g = m.gesture, session = m.session || '';
    if (INTERNAL[g] || typeof g !== 'string') return;
    var c = this.computer();
    if (c) { this.addComputer(m, c); return; }
    var words = say(m), li;
    if (!words) return;
    if (g === 'tap' || g === 'doubleTap') {
      // A multi-tap is one row: "tap", then "double tap", … as the count grows.
      li = this.taps[session];
      var sequel = li && li.parentNode && (g === 'doubleTap' || num(m.count, 1) > 1);
      if (!sequel) li = this.taps[session] = this.row(m, g);
      fill(li, g, m.phase, words[0], '', words[1]);
      li.style.setProperty('--c', colorOf(g));
      return;
    }
    var key = session + '|' + g;
    li = this.open[key];
    if (!li || m.phase === 'began' || !li.parentNode) {
      li = this.row(m, g);
      if (CONTINUOUS[g]) this.open[key] = li;
    }
    fill(li, g, m.phase, words[0], m.phase === 'cancelled' ? 'cancelled' : '', words[1]);
    if (m.phase === 'ended' || m.phase === 'cancelled') delete this.open[key];
  }

  /** Drops the oldest rows (at the top) that do not fit entirely inside the box. */
  fit() {
    var el = this.el;
    if (!el.lastElementChild || !el.getClientRects().length) return;
    var top = el.getBoundingClientRect().top + (parseFloat(getComputedStyle(el).paddingTop) || 0);
    while (el.children.length > 1 && el.lastElementChild.getBoundingClientRect().top < top - 0.5) {
      el.removeChild(el.lastElementChild);
    }
  }
}

function fill(li, g, phase, name, phaseText, detail) {
  li.dataset.gesture = g;
  li.dataset.phase = phase || '';
  var ph = li.querySelector('.ph'), kv = li.querySelector('.kv');
  li.querySelector('b').textContent = name;
  ph.textContent = phaseText || '';
  ph.hidden = !phaseText;
  kv.textContent = detail || '';
  kv.hidden = !detail;
}

/** A header button that switches the feed (and the live view) between calm and details; the
 * mode is kept on the phone and written to the page state. */
export function bindDetails(button, feed, view, state) {
  var on = false;
  try { on = localStorage.getItem(DETAILS_KEY) === '1'; } catch (e) { /* private mode */ }
  function apply(v) {
    on = v;
    feed.setDetails(v);
    if (view) view.details = v;
    if (button) { button.setAttribute('aria-pressed', v ? 'true' : 'false'); button.classList.toggle('on', v); }
    state.details = v;
  }
  apply(on);
  if (button) button.addEventListener('click', function () {
    apply(!on);
    try { if (on) localStorage.setItem(DETAILS_KEY, '1'); else localStorage.removeItem(DETAILS_KEY); } catch (e) { /* ignore */ }
  });
  return apply;
}
