/* GesturePad: the presenter view — a slide remote to use without looking. The whole lower half
 * of the screen is "Next slide", the upper left "Previous slide", beside it "Blank screen"; they
 * send the keys presentation programs take (`PageDown`, `PageUp`, `b`: LibreOffice Impress,
 * PowerPoint, reveal.js, PDF viewers; docs/control.md) as `key` messages, and each buzzes its
 * own way.
 * Above them the time of day and an elapsed timer (start, pause, reset; it starts by itself
 * with the first slide change), kept across a reload of the tab. */
import { clockText } from './media.js';

const STORE = 'gesturepad.presenterTimer'; // sessionStorage: this tab's talk, not tomorrow's
const KEYS = { next: 'PageDown', previous: 'PageUp', blank: 'b' };
/** Haptics: one pulse forward, two back, a long one for the blank screen. */
const PULSES = { next: 15, previous: [10, 50, 10], blank: 40 };

const START_ICON = '<path d="M8 5v14l11-7z"/>';
const PAUSE_ICON = '<path d="M8 5v14M16 5v14"/>';

// ---- pure: the timer -------------------------------------------------------------------------
/** A timer: `elapsed` ms counted before `since`, and `since` (ms, wall clock) when it last
 * started — null while it is paused. */
export const TIMER_ZERO = Object.freeze({ elapsed: 0, since: null });

/** The time counted at `now`. */
export function timerElapsed(timer, now) {
  return timer.elapsed + (timer.since === null ? 0 : Math.max(0, now - timer.since));
}

/** Started at `now` (a running timer runs on). */
export function timerStart(timer, now) {
  return timer.since === null ? { elapsed: timer.elapsed, since: now } : timer;
}

/** Paused at `now`, keeping what it counted. */
export function timerPause(timer, now) {
  return timer.since === null ? timer : { elapsed: timerElapsed(timer, now), since: null };
}

/** A stored timer, checked (anything else: zero). */
export function timerFrom(value) {
  if (!value || typeof value !== 'object') return TIMER_ZERO;
  const elapsed = typeof value.elapsed === 'number' && value.elapsed >= 0 && isFinite(value.elapsed) ? value.elapsed : 0;
  const since = typeof value.since === 'number' && isFinite(value.since) ? value.since : null;
  return { elapsed, since };
}

// ---- the view --------------------------------------------------------------------------------
/**
 * opts: root (the view's <section>), state (the page state: `presenter`), sendKey(key) → bool
 * (a `key` message while the server drives the computer), buzz(pattern, why), now() (the wall
 * clock, ms; default Date.now).
 */
export class PresenterView {
  constructor(opts) {
    this.root = opts.root;
    this.state = opts.state;
    this.sendKey = opts.sendKey;
    this.buzz = opts.buzz || function () {};
    this.now = opts.now || (() => Date.now());
    this.open = false;
    this.usable = false;
    this.clockTimer = 0;
    let stored = null;
    try { stored = JSON.parse(sessionStorage.getItem(STORE) || 'null'); } catch (e) { /* private mode */ }
    this.timer = timerFrom(stored);
    const q = (sel) => this.root.querySelector(sel);
    this.el = {
      clock: q('.presenter-clock'), elapsed: q('.presenter-elapsed'), timer: q('[data-action=timer]'),
      reset: q('[data-action=reset]'), slides: this.root.querySelectorAll('[data-slide]')
    };
    for (const b of this.el.slides) b.addEventListener('click', () => this.slide(b.dataset.slide));
    this.el.timer.addEventListener('click', () => {
      this.setTimer(this.timer.since === null ? timerStart(this.timer, this.now()) : timerPause(this.timer, this.now()));
      this.buzz(8, 'timer');
    });
    this.el.reset.addEventListener('click', () => { this.setTimer(TIMER_ZERO); this.buzz(8, 'timer'); });
    this.record();
    this.render();
  }

  /** Next, previous, blank: the key goes out, and the first slide change starts the timer. */
  slide(what) {
    if (!this.usable || !KEYS[what]) return;
    this.sendKey(KEYS[what]);
    this.buzz(PULSES[what], what + ' slide');
    if (what !== 'blank' && this.timer.since === null && this.timer.elapsed === 0) this.setTimer(timerStart(this.timer, this.now()));
  }

  setTimer(timer) {
    this.timer = timer;
    try { sessionStorage.setItem(STORE, JSON.stringify(timer)); } catch (e) { /* private mode */ }
    this.record();
    this.render();
  }

  record() {
    this.state.presenter = { timer: Object.assign({}, this.timer), running: this.timer.since !== null };
  }

  setOpen(open) {
    this.open = open;
    this.root.hidden = !open;
    clearTimeout(this.clockTimer);
    if (open) this.render();
  }

  /** Live or not: not live, the slide buttons are disabled (the page's notice says why). */
  setUsable(usable) {
    this.usable = usable;
    for (const b of this.el.slides) b.disabled = !usable;
  }

  /** The clock and the timer, again at the next second while the view is open. */
  render() {
    const now = this.now(), running = this.timer.since !== null, counted = timerElapsed(this.timer, now);
    this.el.clock.textContent = new Date(now).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    this.el.clock.dateTime = new Date(now).toISOString();
    this.el.elapsed.textContent = clockText(counted);
    const label = running ? 'Pause timer' : this.timer.elapsed ? 'Resume timer' : 'Start timer';
    this.el.timer.setAttribute('aria-label', label);
    this.el.timer.title = label;
    this.el.timer.querySelector('svg').innerHTML = running ? PAUSE_ICON : START_ICON;
    this.el.timer.classList.toggle('on', running);
    this.el.reset.disabled = !running && this.timer.elapsed === 0;
    clearTimeout(this.clockTimer);
    // At the timer's next second while it runs (else the clock's): neither lags behind.
    if (this.open) this.clockTimer = setTimeout(() => this.render(), 1000 - ((running ? counted : now) % 1000) + 5);
  }
}
