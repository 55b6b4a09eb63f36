/* GesturePad: drag lock, seen from the page. The server says nothing when it keeps a button
 * down, so the page follows its own touches with the settings in force: a one-finger touch
 * that starts within multiTapInterval of a tap (tap-and-drag), a long-press drag, or a touch
 * while a lock is on holds the button; when that finger lifts after moving beyond slop, with
 * drag lock on, the button stays down — a haptic pulse says so. No DOM. */

const DRAG_LOCK_TIMEOUT = 1000; // the server's dragLockTimeout default

/** Whether taps click on the computer with the settings in force (the page state's). */
export function tapsClick(state) { return !state.settings || state.settings.tapToClick !== false; }

export class DragLock {
  /** opts: state (the page state: config, settings), controlShown() → the controls are
   * shown, buzz(pattern, why). */
  constructor(opts) {
    this.state = opts.state;
    this.controlShown = opts.controlShown;
    this.buzz = opts.buzz;
    this.count = 0;
    this.lastTap = -1e9;
    this.lockedUntil = -1e9;
    this.holding = false;
    this.moved = false;
    this.finger = null;
    this.start = null;
  }

  cfg(k, d) { const c = this.state.config; return c && typeof c[k] === 'number' ? c[k] : d; }

  on() { return this.controlShown() && this.state.settings && this.state.settings.dragLock === true; }

  /** A pointer message the page sends. */
  input(m) {
    if (m.pointerType !== 'touch' && m.type !== 'cancel') return;
    const st = this.state;
    if (m.type === 'down') {
      this.count++;
      if (this.count === 1) {
        const tapDrag = st.settings && st.settings.tapAndDrag !== false && tapsClick(st) &&
          m.t - this.lastTap <= this.cfg('multiTapInterval', 300);
        this.holding = tapDrag || m.t <= this.lockedUntil;
        this.moved = false; this.finger = m.id; this.start = { x: m.x, y: m.y, t: m.t };
        this.lockedUntil = -1e9;
      } else { this.holding = false; } // a second finger releases the drag
    } else if (m.type === 'move' && m.id === this.finger && this.start) {
      if (Math.hypot(m.x - this.start.x, m.y - this.start.y) > this.cfg('slop', 10)) this.moved = true;
    } else if (m.type === 'up' || m.type === 'cancel') {
      this.count = Math.max(0, m.id === 'all' ? 0 : this.count - 1);
      if (m.type === 'up' && m.id === this.finger) {
        const s0 = this.start;
        if (this.holding && this.moved && this.on()) {
          this.lockedUntil = m.t + DRAG_LOCK_TIMEOUT;
          this.buzz([15, 60, 15], 'drag lock');
        } else if (s0 && !this.moved && m.t - s0.t <= this.cfg('tapMaxDuration', 250)) {
          this.lastTap = m.t;
        }
        this.holding = false; this.finger = null;
      }
      if (m.type === 'cancel') { this.holding = false; this.finger = null; }
    }
  }

  /** The server began a long-press drag: the finger down holds the button. */
  buttonHeld() { if (this.finger !== null) { this.holding = true; this.moved = true; } }
}
