/* GesturePad: the batching of what the page sends (docs/page.md "Batching", "Early moves", "A
 * slow link"): outgoing messages are queued and sent as ONE JSON array per animation frame —
 * and, for moves known before their frame (pointerrawupdate, moves.js), at once unless the
 * link is backed up; while it is, the queue waits and each finger's moves merge into its
 * newest; `text`, `key`, `button` and `media` go sealed, each in a frame of its own, in their place
 * among the rest; the timing ping, the keep-alive ping and the probes that tell whether the
 * link keeps up. No DOM: the connection gives it the socket, whether it is live, the seal of
 * the proof handshake and the page's conditions. */
import { record } from './state.js';
import { round3 } from './numbers.js';
import { SEALED_TYPES } from './proof.js';

const PING_EVERY = 2000;
const KEEP_ALIVE_AFTER = 1500; // silent this long with a pointer down: a keep-alive ping
const POINTER_TYPES = { down: 1, move: 1, up: 1 };
/** Above this many bytes not yet handed to the network (`WebSocket.bufferedAmount`) the link
 * is backed up. 1 KiB is about ten moves; on a connection that keeps up the buffer is empty
 * again long before the next input event (4–16 ms later). Browsers count only what they have
 * not passed on to their own network layer, which takes everything at once: Chromium, Firefox
 * and WebKitGTK all read 0 with 500 KB waiting behind a 2 KB/s link. So the page also asks the
 * server (LAG_MS). */
export const BACKLOG_BYTES = 1024;
/** The link is backed up while a ping has waited for its pong this much longer (ms) than the
 * connection's quickest round trip: what the page sent before it is still on its way, queued
 * somewhere (the browser, the phone's kernel, the Wi-Fi). Above the quickest round trip, so a
 * link that is merely far away (a VPN, 150 ms each way) is not counted as backed up. 100 ms:
 * about the delay a person notices on a pointer, and more than a busy phone or server takes to
 * answer (at 50 ms a test machine under heavy load held moves back on a loopback link). */
export const LAG_MS = 100;
/** While pointer messages flow, a probe (a ping) goes with a batch when no ping is waiting for
 * its pong, at most this often (ms): a link that turns slow is noticed within PROBE_MS + LAG_MS
 * plus a round trip, for at most twenty pings a second. */
export const PROBE_MS = 50;

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

/** Merges the move `msg` into the move of its pointer still waiting in `queue` — the newest
 * one, and only when nothing but moves follows it (no down, up, cancel, leave, text, key,
 * button, ping, resize or settings of any pointer: what went on between stays between) and it
 * has the same `buttons` (a mouse button pressed or released while moving is an event, not a
 * position). The move with the later `t` stays — its position, `t`, `pressure` and every other
 * field; the newer message when they are equal — so a pointer's `t` never goes back. Returns
 * whether it merged (false: `msg` still has to be queued). */
export function mergeMove(queue, msg) {
  for (let i = queue.length - 1; i >= 0 && queue[i].type === 'move'; i--) {
    const waiting = queue[i];
    if (waiting.id !== msg.id) continue;
    if (waiting.buttons !== msg.buttons) return false;
    if (!(msg.t < waiting.t)) queue[i] = msg;
    return true;
  }
  return false;
}

/** Merges each pointer's moves in `queue` as `mergeMove` does, in place: what a backed-up link
 * finds queued from before it was backed up. Returns how many moves merged away. */
export function compact(queue) {
  const kept = [];
  let merged = 0;
  for (const m of queue) {
    if (m.type === 'move' && mergeMove(kept, m)) merged++;
    else kept.push(m);
  }
  queue.splice(0, queue.length, ...kept);
  return merged;
}

/** The most moves of one pointer in `queue`. */
export function mostMoves(queue) {
  const count = new Map();
  let most = 0;
  for (const m of queue) {
    if (m.type !== 'move') continue;
    const n = (count.get(m.id) || 0) + 1;
    count.set(m.id, n);
    most = Math.max(most, n);
  }
  return most;
}

/** The queue, the per-frame slots and the pings of one connection. */
export class Batcher {
  /**
   * opts: state (the page state: counters and records), socket() → the open WebSocket or null,
   * live() → whether messages may go, seal() → the proof handshake's seal or null,
   * nextFrame(fn) (requestAnimationFrame), busy() → a pointer is down or hovering, hidden() →
   * the page is hidden (no ping); now() → the page's clock (performance.now), soon(fn) → runs
   * `fn` after the current task (setTimeout 0)
   */
  constructor(opts) {
    Object.assign(this, { state: opts.state, socket: opts.socket, live: opts.live, seal: opts.seal,
      nextFrame: opts.nextFrame, busy: opts.busy, hidden: opts.hidden,
      now: opts.now || (() => performance.now()), soon: opts.soon || ((fn) => setTimeout(fn, 0)) });
    this.lastPointerT = null; // the newest pointer `t` sent (keep-alive pings and probes carry it)
    this.lastSentAt = 0;
    this.pings = [];          // the pings sent and not answered yet, oldest first: { t, at, timing }
    this.lastPingAt = -Infinity;
    this.quickest = Infinity; // the connection's quickest round trip (ms)
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
    this.pings.length = 0;
    this.lastPingAt = -Infinity;
    this.quickest = Infinity;
  }

  /** A pong with `t`: its ping — and any before it — is answered, so everything sent before
   * it has reached the server. Returns whether it timed a round trip (a timing ping; not a
   * keep-alive ping or a probe, whose `t` is a pointer's). */
  pong(t) {
    const i = this.pings.findIndex((p) => p.t === t);
    if (i < 0) return false;
    const ping = this.pings[i];
    this.pings.splice(0, i + 1);
    this.quickest = Math.min(this.quickest, this.now() - ping.at);
    return ping.timing;
  }

  /** Whether the link is backed up: the browser holds more than BACKLOG_BYTES not handed to
   * the network, or the oldest ping unanswered has waited LAG_MS longer than the quickest round
   * trip (any wait, before the first pong). */
  behind() {
    const ws = this.socket();
    if (!ws) return false;
    if (ws.bufferedAmount > BACKLOG_BYTES) return true;
    const oldest = this.pings[0];
    if (!oldest) return false;
    return this.now() - oldest.at > (this.quickest === Infinity ? 0 : this.quickest) + LAG_MS;
  }

  startPing() {
    clearInterval(this.pingTimer);
    // No timing ping while a pointer is down or hovering: its `t` (now) is later than the
    // pending pointer timestamps and would move the server's gesture clock ahead of them.
    // A finger held still sends nothing, though, and the server releases whatever a silent
    // connection holds after 10 s (docs/control.md): then a keep-alive ping goes out that
    // carries the last pointer `t`, so it moves no clock (its pong is not a round trip) —
    // unless a ping is still unanswered: the server has yet to hear what went before it.
    const ping = () => {
      if (!this.live() || this.hidden()) return;
      if (!this.busy()) { this.send({ type: 'ping', t: round3(this.now()) }); return; }
      if (this.lastPointerT !== null && this.now() - this.lastSentAt > KEEP_ALIVE_AFTER && !this.pings.length) {
        this.send({ type: 'ping', t: this.lastPointerT, keepAlive: true });
      }
    };
    ping();
    this.pingTimer = setInterval(ping, PING_EVERY);
  }

  /* At most one frame per animation frame. Each animation frame opens a slot: the first
   * message queued in a free slot goes out at the end of the current task (a tap's down or up
   * leaves at once, with everything the same input event produced), later ones wait for the
   * next animation frame, which sends them together and opens the next slot. While the link is
   * backed up (`behind`) the queue waits instead, each finger's moves merged into its newest,
   * and every animation frame looks again. */

  /** Queues a message for the next batch; false when not live (the message is dropped). On a
   * proven connection `text`, `key`, `button` and `media` go sealed, each in its own frame, after what
   * was queued before them (docs/protocol.md "Sealed messages") — at once, or when a backed-up
   * link lets the queue go. */
  send(msg) {
    if (!this.live()) return false;
    const seal = this.seal();
    if (SEALED_TYPES[msg.type] && seal && !this.behind()) {
      if (this.queue.length) this.sendQueue(null, false);
      this.sendFrame(seal.seal(msg), [msg], false);
      return true;
    }
    this.enqueue(msg);
    if (!this.slotUsed && !this.soonPending) {
      this.soonPending = true;
      this.soon(() => { this.soonPending = false; if (!this.slotUsed) this.flush(); });
    }
    this.wantFrame();
    return true;
  }

  /** Puts `msg` in the queue; a move, while the link is backed up, merged into its pointer's
   * waiting move where it may be (`mergeMove`). */
  enqueue(msg) {
    if (msg.type === 'move' && this.behind() && mergeMove(this.queue, msg)) this.state.backlog.merged++;
    else this.queue.push(msg);
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

  /** Sends the queue as one batch in this frame's slot — unless the link is backed up: then
   * it waits (`force`: it goes anyway). */
  flush(force) {
    if (!this.queue.length) return;
    const ws = this.socket();
    if (!ws || ws.readyState !== 1) { this.queue = []; return; }
    if (!force && this.behind()) { this.holdQueue(); return; }
    const frame = force && this.slotUsed ? null : this.frameNo;
    this.slotUsed = true;
    this.wantFrame(); // the next frame frees the slot
    this.sendQueue(frame, false);
  }

  /** The link is backed up: the queue stays, what it held from before merged as new moves are
   * (`compact`); the next animation frame looks again. */
  holdQueue() {
    const b = this.state.backlog;
    b.merged += compact(this.queue);
    b.held++;
    b.most = Math.max(b.most, mostMoves(this.queue));
    this.wantFrame();
  }

  /** Queues a move known before its animation frame (pointerrawupdate) without asking for a
   * slot: it leaves with `flushEarly`, with a message sent by `send`, or with the next
   * animation frame at the latest. False when not live (the move is dropped). */
  hold(msg) {
    if (!this.live()) return false;
    this.enqueue(msg);
    this.wantFrame();
    return true;
  }

  /** Sends the queue now, between animation frames and outside their slots (the page has a
   * complete step of early moves) — unless the link is backed up (`behind`): then the queue
   * waits for the next animation frame. Returns whether it sent. */
  flushEarly() {
    const ws = this.socket();
    if (!this.queue.length || !ws || ws.readyState !== 1) return false;
    if (this.behind()) return false;
    this.sendQueue(null, true);
    return true;
  }

  /** Sends what is queued right now (page hidden: animation frames stop). */
  flushNow() { this.flush(true); }

  /** The queue as one batch, moves in time order — or, with sealed messages in it (queued while
   * the link was backed up), as the batches between them and each of them sealed, in order;
   * `frame`: the animation frame whose slot it uses (null: none; only the first batch takes
   * it); `early`: sent by flushEarly. */
  sendQueue(frame, early) {
    const queue = this.queue;
    this.queue = [];
    const seal = this.seal();
    let batch = [];
    for (const m of queue) {
      if (!(seal && SEALED_TYPES[m.type])) { batch.push(m); continue; }
      if (batch.length) { this.sendBatch(batch, frame, early); frame = null; batch = []; }
      this.sendFrame(seal.seal(m), [m], false);
    }
    if (batch.length) this.sendBatch(batch, frame, early);
  }

  /** One batch, moves in time order, pings stamped; with pointer messages in it and no ping
   * unanswered, a probe at its end (at most one per PROBE_MS): a ping carrying the newest
   * pointer `t`, which moves no clock, and whose pong says the batch has arrived. */
  sendBatch(batch, frame, early) {
    interleave(batch);
    const now = this.now();
    let input = false;
    for (const m of batch) {
      if (m.type === 'ping') {
        // A ping measures the wire, not the wait for this frame: stamp it now.
        if (!m.keepAlive) m.t = round3(now);
        this.pings.push({ t: m.t, at: now, timing: !m.keepAlive });
        this.lastPingAt = now;
      } else if (POINTER_TYPES[m.type] && typeof m.t === 'number') {
        input = true;
        this.lastPointerT = this.lastPointerT === null ? m.t : Math.max(this.lastPointerT, m.t);
      }
    }
    if (input && !this.pings.length && now - this.lastPingAt >= PROBE_MS) {
      const probe = { type: 'ping', t: this.lastPointerT, probe: true };
      batch.push(probe);
      this.pings.push({ t: probe.t, at: now, timing: false });
      this.lastPingAt = now;
      this.state.backlog.probes++;
    }
    // On a proven connection every frame goes sealed (docs/protocol.md "Sealed messages").
    const seal = this.seal();
    this.sendFrame(seal ? seal.seal(batch) : JSON.stringify(batch), batch, true, frame, early);
  }

  /** Sends one frame (`text`, the messages `msgs` it carries) and records it. */
  sendFrame(text, msgs, isBatch, frameStamp, early) {
    const ws = this.socket();
    try { ws.send(text); } catch (e) { return; }
    this.lastSentAt = this.now();
    const st = this.state;
    st.framesSent++;
    for (const m of msgs) record(st.sent, m);
    if (isBatch) {
      st.batchesSent++;
      record(st.batches, { n: msgs.length, frame: frameStamp, early: !!early });
    }
  }
}
