/* GesturePad: the batching of what the page sends (docs/page.md "Batching", "Early moves"):
 * outgoing messages are queued and sent as ONE JSON array per animation frame — and, for moves
 * known before their frame (pointerrawupdate, moves.js), at once unless the socket is backed
 * up; `text`, `key` and `button` go sealed, each in a frame of its own; the timing ping and
 * the keep-alive ping. No DOM: the connection gives it the socket, whether it is live, the
 * seal of the proof handshake and the page's conditions. */
import { record } from './state.js';
import { round3 } from './numbers.js';
import { SEALED_TYPES } from './proof.js';

const PING_EVERY = 2000;
const KEEP_ALIVE_AFTER = 1500; // silent this long with a pointer down: a keep-alive ping
const POINTER_TYPES = { down: 1, move: 1, up: 1 };
/** Above this many bytes not yet handed to the network (`WebSocket.bufferedAmount`), early
 * moves wait for the next animation frame and go out together, as every other message does: a
 * backed-up connection gets one frame per animation frame, not one per move. 1 KiB is about
 * ten moves; on a connection that keeps up the buffer is empty again long before the next
 * input event (4–16 ms later). */
export const BACKLOG_BYTES = 1024;

/** Coalesced moves come pointer by pointer (all of finger 1's, then finger 2's); the server
 * judges moves with the same `t` as one step, so each run of moves is put in time order
 * (stable: same-`t` moves keep their order). Sorts `batch` in place and returns it. */
export function interleave(batch) {
  let i = 0;
  const n = batch.length;
  while (i < n) {
    if (batch[i].type !== 'move') { i++; continue; }
    let j = i + 1, sorted = true;
    for (; j < n && batch[j].type === 'move'; j++) if (batch[j].t < batch[j - 1].t) sorted = false;
    if (!sorted) {
      const run = batch.slice(i, j).sort((a, b) => a.t - b.t);
      for (let k = 0; k < run.length; k++) batch[i + k] = run[k];
    }
    i = j;
  }
  return batch;
}

/** The queue, the per-frame slots and the pings of one connection. */
export class Batcher {
  /**
   * opts: state (the page state: counters and records), socket() → the open WebSocket or null,
   * live() → whether messages may go, seal() → the proof handshake's seal or null,
   * nextFrame(fn) (requestAnimationFrame), busy() → a pointer is down or hovering, hidden() →
   * the page is hidden (no ping)
   */
  constructor(opts) {
    Object.assign(this, { state: opts.state, socket: opts.socket, live: opts.live, seal: opts.seal,
      nextFrame: opts.nextFrame, busy: opts.busy, hidden: opts.hidden });
    this.lastPointerT = null; // the newest pointer `t` sent (keep-alive pings carry it)
    this.lastSentAt = 0;
    this.keepAliveT = null;
    this.queue = [];
    this.frameRequested = false;
    this.frameNo = 0;          // animation frames seen; one batch per frame at most
    this.slotUsed = false;
    this.soonPending = false;
    this.pingTimer = 0;
    this.onFrame = this.onFrame.bind(this);
  }

  /** The socket is gone: nothing queued survives, no more pings. */
  drop() {
    clearInterval(this.pingTimer);
    this.queue.length = 0;
  }

  /** Whether a pong's `t` answers a keep-alive ping (not a round trip). */
  keptAlive(t) { return t === this.keepAliveT; }

  startPing() {
    clearInterval(this.pingTimer);
    // No timing ping while a pointer is down or hovering: its `t` (now) is later than the
    // pending pointer timestamps and would move the server's gesture clock ahead of them.
    // A finger held still sends nothing, though, and the server releases whatever a silent
    // connection holds after 10 s (docs/control.md): then a keep-alive ping goes out that
    // carries the last pointer `t`, so it moves no clock (its pong is not a round trip).
    const ping = () => {
      if (!this.live() || this.hidden()) return;
      if (!this.busy()) { this.send({ type: 'ping', t: round3(performance.now()) }); return; }
      if (this.lastPointerT !== null && performance.now() - this.lastSentAt > KEEP_ALIVE_AFTER) {
        this.keepAliveT = this.lastPointerT;
        this.send({ type: 'ping', t: this.lastPointerT, keepAlive: true });
      }
    };
    ping();
    this.pingTimer = setInterval(ping, PING_EVERY);
  }

  /* At most one frame per animation frame. Each animation frame opens a slot: the first
   * message queued in a free slot goes out at the end of the current task (a tap's down or up
   * leaves at once, with everything the same input event produced), later ones wait for the
   * next animation frame, which sends them together and opens the next slot. */

  /** Queues a message for the next batch; false when not live (the message is dropped). On a
   * proven connection `text`, `key` and `button` go sealed, each in its own frame, after what
   * was queued before them (docs/protocol.md "Sealed messages"). */
  send(msg) {
    if (!this.live()) return false;
    const seal = this.seal();
    if (SEALED_TYPES[msg.type] && seal) {
      if (this.queue.length) this.sendQueue(null, false);
      this.sendFrame(seal.seal(msg), [msg], false);
      return true;
    }
    this.queue.push(msg);
    if (!this.slotUsed && !this.soonPending) {
      this.soonPending = true;
      setTimeout(() => { this.soonPending = false; if (!this.slotUsed) this.flush(); }, 0);
    }
    this.wantFrame();
    return true;
  }

  wantFrame() {
    if (!this.frameRequested) { this.frameRequested = true; this.nextFrame(this.onFrame); }
  }

  onFrame() {
    this.frameRequested = false;
    this.frameNo++;
    this.slotUsed = false;
    if (this.queue.length) this.flush();
  }

  /** Sends the queue as one batch in this frame's slot. */
  flush(force) {
    if (!this.queue.length) return;
    const frame = force && this.slotUsed ? null : this.frameNo;
    const ws = this.socket();
    if (!ws || ws.readyState !== 1) { this.queue = []; return; }
    this.slotUsed = true;
    this.wantFrame(); // the next frame frees the slot
    this.sendQueue(frame, false);
  }

  /** Queues a move known before its animation frame (pointerrawupdate) without asking for a
   * slot: it leaves with `flushEarly`, with a message sent by `send`, or with the next
   * animation frame at the latest. False when not live (the move is dropped). */
  hold(msg) {
    if (!this.live()) return false;
    this.queue.push(msg);
    this.wantFrame();
    return true;
  }

  /** Sends the queue now, between animation frames and outside their slots (the page has a
   * complete step of early moves) — unless the socket is backed up (`bufferedAmount` above
   * BACKLOG_BYTES): then the queue waits for the next animation frame. Returns whether it
   * sent. */
  flushEarly() {
    const ws = this.socket();
    if (!this.queue.length || !ws || ws.readyState !== 1) return false;
    if (ws.bufferedAmount > BACKLOG_BYTES) return false;
    this.sendQueue(null, true);
    return true;
  }

  /** Sends what is queued right now (page hidden: animation frames stop). */
  flushNow() { this.flush(true); }

  /** The queue as one batch, moves in time order; `frame`: the animation frame whose slot it
   * uses (null: none); `early`: sent by flushEarly. */
  sendQueue(frame, early) {
    const batch = interleave(this.queue);
    this.queue = [];
    // A ping measures the wire, not the wait for this frame: stamp it now.
    for (const m of batch) {
      if (m.type === 'ping' && !m.keepAlive) m.t = round3(performance.now());
      else if (POINTER_TYPES[m.type] && typeof m.t === 'number') {
        this.lastPointerT = this.lastPointerT === null ? m.t : Math.max(this.lastPointerT, m.t);
      }
    }
    this.sendFrame(JSON.stringify(batch), batch, true, frame, early);
  }

  /** Sends one frame (`text`, the messages `msgs` it carries) and records it. */
  sendFrame(text, msgs, isBatch, frameStamp, early) {
    const ws = this.socket();
    try { ws.send(text); } catch (e) { return; }
    this.lastSentAt = performance.now();
    const st = this.state;
    st.framesSent++;
    for (const m of msgs) record(st.sent, m);
    if (isBatch) {
      st.batchesSent++;
      record(st.batches, { n: msgs.length, frame: frameStamp, early: !!early });
    }
  }
}
