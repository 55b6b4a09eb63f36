/* GesturePad: moves sent as soon as the browser knows them (docs/page.md "Early moves").
 *
 * Browsers deliver `pointermove` with the next animation frame; where they have
 * `pointerrawupdate` (Chromium 77 and later, Android too; Firefox 148; only in secure contexts:
 * localhost, or the page served with --tls) it fires as soon as the touch screen reports a
 * move, a frame earlier. The page listens to it there and sends each move at once, unless the
 * step it belongs to is not complete yet: the server judges the moves that share a `t` as one
 * step, so the moves of two fingers at one moment must travel in one batch, and Chromium may
 * dispatch them in separate tasks. A step is complete when every pointer down has reported
 * that moment; one with a finger held still waits for the animation frame, as every move did
 * before. `pointermove` still comes; its coalesced moves that `pointerrawupdate` already sent
 * are not sent again, so the server sees each move once, with the `t` it always had.
 *
 * A late `pointerrawupdate` is not used (`timely`): Chromium coalesces a raw update still
 * queued behind a busy main thread with the raw updates that arrive after it for the same
 * touch id — across a lift and a new touch of that finger — and dispatches the result with
 * the first contact's pointer id. Such an event is necessarily late (its oldest move is older
 * than a lift and a new touch take); its moves come with `pointermove`, which never mixes
 * contacts, and the pointer's later raw updates queue behind that `pointermove`.
 *
 * No DOM. */

/** How old (ms) the oldest move of a `pointerrawupdate` may be for the page to use it: a
 * finger cannot lift and touch again that fast, so no event mixing two contacts is this
 * fresh; and a main thread that far behind gains nothing from early moves. (Headless
 * Chromium delivers 99 % of raw updates within 30 ms of the touch, on a loaded machine.) */
export const LATE_MS = 64;

/** Whether this browser fires `pointerrawupdate` on this page (the event handler exists only
 * where it does, and only in secure contexts). */
export function hasRawUpdates(win) {
  return 'onpointerrawupdate' in win;
}

/** Which moves have been sent, and whether the step of the moves held back is complete. */
export class EarlyMoves {
  constructor() {
    /** pointer id → the `t` of its latest message sent (down or move), for every pointer down
     * or hovering. */
    this.latest = new Map();
    /** pointer id → the `t`s of its moves sent early that no `pointermove` brought yet. */
    this.unconfirmed = new Map();
    /** The pointers down: each must report a moment before its step may go. */
    this.downs = new Set();
    /** The newest `t` of a move of a pointer down. */
    this.newest = -Infinity;
  }

  /** Pointer `id` went down at `t`. */
  down(id, t) {
    this.downs.add(id);
    this.latest.set(id, t);
  }

  /** Pointer `id` lifted, was cancelled or left. */
  gone(id) {
    this.downs.delete(id);
    this.latest.delete(id);
    this.unconfirmed.delete(id);
  }

  /** Every pointer gone (the page cancelled everything, the connection dropped). */
  clear() {
    this.downs.clear();
    this.latest.clear();
    this.unconfirmed.clear();
    this.newest = -Infinity;
  }

  /** Whether a `pointerrawupdate` whose oldest move has `oldest` as its `t` may be used at
   * `now` (both page clock): not older than LATE_MS, and not in the future (events stamped
   * ahead come only from test harnesses; they go with `pointermove`). */
  timely(oldest, now) {
    return oldest <= now + 2 && now - oldest <= LATE_MS;
  }

  /** A move of pointer `id` at `t` from `pointerrawupdate`: whether it is new (later than
   * the pointer's latest message) and so goes out early; it is then noted as sent. */
  raw(id, t) {
    const last = this.latest.get(id);
    if (last !== undefined && t <= last) return false;
    this.sent(id, t);
    let early = this.unconfirmed.get(id);
    if (!early) this.unconfirmed.set(id, (early = new Set()));
    early.add(t);
    return true;
  }

  /** A move of pointer `id` at `t` from `pointermove`: whether it still has to go out (no
   * `pointerrawupdate` sent it: none came, or it came late). `last`: the newest `t` of this
   * `pointermove`; early moves up to it are settled. */
  frame(id, t, last) {
    const early = this.unconfirmed.get(id);
    const sentEarly = !!early && early.has(t);
    if (early && t === last) {
      for (const s of early) if (s <= last) early.delete(s);
    }
    if (sentEarly) return false;
    if (!(this.latest.get(id) >= t)) this.sent(id, t);
    return true;
  }

  /** Pointer `id`'s move at `t` goes out (now or with the next batch). */
  sent(id, t) {
    this.latest.set(id, t);
    if (this.downs.has(id) && t > this.newest) this.newest = t;
  }

  /** Whether every pointer down has reported the newest moment a pointer down moved at: the
   * moves queued make whole steps and may go now. */
  complete() {
    for (const id of this.downs) if (!(this.latest.get(id) >= this.newest)) return false;
    return true;
  }
}
