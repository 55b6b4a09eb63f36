/* GesturePad: the WebSocket connection shared by the touchpad and the observer — the protocol
 * messages, the status (connecting → live → reconnecting with backoff | refused with the
 * reason), ping / keep-alive, and the batching: outgoing messages are queued and sent as ONE
 * JSON array per animation frame — and, for moves known before their frame
 * (pointerrawupdate, moves.js), at once unless the socket is backed up.
 *
 * No DOM: the page gives it the pairing secret, the URLs and the hello, and hears what happens
 * through callbacks (status, live, down, message, rtt, notice, device). */
import { record } from './state.js';
import { round3 } from './numbers.js';
import {
  CLOSE_DEVICE_NOT_PAIRED as NOT_PAIRED, CLOSE_PAIRING_DECLINED as PAIRING_DECLINED, CLOSE_PROOF_UNKNOWN as PROOF_UNKNOWN,
  CLOSE_PROOF_REVOKED as PROOF_REVOKED, CLOSE_PAIRING_CLOSED as PAIRING_CLOSED, CLOSE_SEAL_BROKEN as SEAL_BROKEN,
  CLOSE_DEVICE_LIMIT as DEVICE_LIMIT
} from './wire.js';
import { SEALED_TYPES, answerChallenge } from './proof.js';

const CLOSE_REASONS = {
  1001: 'server going away', 1003: 'binary data refused', 1007: 'invalid text', 1008: 'policy violation (rate or error limit)',
  1009: 'message too big', 1011: 'server error', [SEAL_BROKEN]: 'a sealed message did not open'
};
/* Pairing (docs/protocol.md "Pairing"): these closes of a live connection are answers, not
 * accidents; the page says why and waits for the person (a new link, a reload) instead of
 * trying again. */
const REMOVED_TEXT = 'This phone was removed on the computer: scan the code again to pair it.';
const PAIRING_TEXT = {
  [NOT_PAIRED]: REMOVED_TEXT,
  [PAIRING_DECLINED]: 'The computer did not accept this phone: reload the page to ask again.'
};
const UNPAIRED_TEXT = 'This phone is not paired any more: scan the code on the computer to pair it again.';
/** A refused observer is a browser, often a desktop's, not a phone: the texts say so. */
const OBSERVER_NONE = 'This browser is not paired with the computer. Open the observer address the computer ' +
  'printed (gesturepad url prints it again; it ends in #token=…).';
function forRole(text, role) {
  return role === 'observer' ? text.replace(/This phone/g, 'This browser').replace(/this phone/g, 'this browser') : text;
}
/** The text of a pairing close (4403, 4401), said once: the page's own for a removed device;
 * the server's reason (which says why it declined) for a declined one. */
function pairingClosed(code, reason, role) {
  if (code === PAIRING_DECLINED && reason) return forRole(reason.charAt(0).toUpperCase() + reason.slice(1) + '.', role);
  return forRole(PAIRING_TEXT[code], role);
}
/** What the status pill says of a live connection: the computer and what drives it. */
export function liveDetail(welcome, role) {
  const host = typeof welcome.host === 'string' ? welcome.host : '';
  const what = role === 'observer' ? 'all sessions'
    : (controlActive(welcome) ? String(welcome.control.backend || '') : 'gestures only');
  return [host, what].filter(Boolean).join(' · ');
}
/* A refused proof closes the connection with a code that says why (docs/protocol.md "Proof
 * handshake"); a refused upgrade (no credential in it: too many tries, another origin, no
 * room) hides its status from the browser, so the page asks `GET /pairing` whether its
 * address has tries left. */
const REFUSAL_TEXT = {
  none: 'This phone is not paired yet. Open the link the computer printed (it ends in #token=…) or scan its QR code.',
  revoked: REMOVED_TEXT,
  unknownKey: 'This computer does not know this phone (its pairings were reset, or it is another computer): scan the code again to pair it.',
  unknownSecret: 'This pairing link (#token=…) is not valid, or no longer: open the link the computer prints now, or scan its QR code.',
  limited: 'Too many refused attempts from this phone’s address: trying again in a minute.',
  pairingClosed: 'Pairing is closed on the computer: run gesturepad pair there, then scan the code it shows.',
  deviceLimit: 'The computer has as many phones paired as it keeps: forget one there (gesturepad devices forget NAME), then scan the code again.',
  fakeServer: 'The computer’s answer did not prove it knows this phone: not connecting (another device on the network may be pretending to be it).',
  other: 'The server refused the connection, though this phone may connect: another origin, or too many connections.'
};
const STATUS_RETRY_MS = 15000;
const LIMITED_RETRY_MS = 60000;
const PING_EVERY = 2000;
const KEEP_ALIVE_AFTER = 1500; // silent this long with a pointer down: a keep-alive ping
const POINTER_TYPES = { down: 1, move: 1, up: 1 };
/** Above this many bytes not yet handed to the network (`WebSocket.bufferedAmount`), early
 * moves wait for the next animation frame and go out together, as every other message does: a
 * backed-up connection gets one frame per animation frame, not one per move. 1 KiB is about
 * ten moves; on a connection that keeps up the buffer is empty again long before the next
 * input event (4–16 ms later). */
export const BACKLOG_BYTES = 1024;
const none = () => {};

/** Whether a welcome says that this connection drives the computer (CONTROL.md). */
export function controlActive(welcome) { return !!(welcome && welcome.control && welcome.control.active === true); }

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

/** One connection with its own status, reconnect loop, ping and per-frame batching. */
export class Connection {
  /**
   * opts:
   * - role: 'touchpad' | 'observer'; state: the page state (state.js), written as things happen
   * - token: the pairing secret ('' once paired); credential(secret) → what the next connection
   *   proves it holds, { token, key, id } (the device key, else the secret: address.js); url()
   *   → the WebSocket URL; statusUrl() → `GET /pairing` (asked after a failed upgrade: 429
   *   says this address has no tries left); model() → the phone's model, naming a new device;
   *   prepare() → a promise to wait for before the first connection (the phone's model)
   * - hello() → the hello message; busy() → a pointer is down or hovering (no timing ping);
   *   hidden() → the page is hidden (no ping); nextFrame(fn): requestAnimationFrame
   * - callbacks: onStatus(status, detail), onLive(welcome), onDown(), onMessage(m), onRtt(ms),
   *   onNotice(text) (something to tell the person: a server error, a close by the server),
   *   onDevice(device) (welcome.device: keep its key), onUnpaired() (forget the key)
   */
  constructor(opts) {
    this.role = opts.role;
    this.state = opts.state;
    this.token = opts.token || '';
    this.credential = opts.credential;
    this.url = opts.url;
    this.statusUrl = opts.statusUrl;
    this.model = opts.model || (() => '');
    this.handshake = null;  // the proof handshake of the current socket (proof.js)
    this.prepare = opts.prepare || null;
    this.onDevice = opts.onDevice || none;
    this.onUnpaired = opts.onUnpaired || none;
    this.unpairing = false;
    this.stopped = false;  // an answer (not paired, declined): no retry until a new link
    this.makeHello = opts.hello;
    this.busy = opts.busy || (() => false);
    this.hidden = opts.hidden || (() => false);
    this.nextFrame = opts.nextFrame || ((fn) => requestAnimationFrame(fn));
    this.onStatus = opts.onStatus || none;
    this.onLive = opts.onLive || none;
    this.onDown = opts.onDown || none;
    this.onMessage = opts.onMessage || none;
    this.onRtt = opts.onRtt || none;
    this.onNotice = opts.onNotice || none;
    this.lastPointerT = null; // the newest pointer `t` sent (keep-alive pings carry it)
    this.lastSentAt = 0;
    this.keepAliveT = null;
    this.ws = null;
    this.queue = [];
    this.frameRequested = false;
    this.frameNo = 0;          // animation frames seen; one batch per frame at most
    this.slotUsed = false;
    this.soonPending = false;
    this.attempt = 0;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.everLive = false;
    this.onFrame = this.onFrame.bind(this);
  }

  /** A new pairing secret (a new link opened in this tab): connect with it at once, unless this
   * connection is live with it already, or live as a paired device. */
  useToken(token) {
    // Live with this link's secret, or live as a paired device (its key decides, whatever the
    // link): nothing to change.
    if (this.state.status === 'live' && (token === this.token || this.state.device)) return;
    this.token = token;
    this.restart('new pairing link');
  }

  /** "Unpair this phone": asks the server to forget this device (it closes every connection of
   * it), and forgets the key here. */
  unpair() {
    this.unpairing = true;
    this.onUnpaired();
    this.state.device = null;
    if (this.live()) { this.send({ type: 'unpair' }); this.flushNow(); }
    else this.stop(UNPAIRED_TEXT);
  }

  /** An answer that trying again cannot change: say it, and wait for a new link or a reload. */
  stop(reason) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.setStatus('refused', reason);
  }

  /** Drops the current connection (if any) and connects again now, from a fresh backoff. */
  restart(why) {
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    if (ws) {
      this.ws = null; // its onclose is ignored from now on
      this.dropped();
      try { ws.close(1000, why || 'restart'); } catch (e) { /* already closing */ }
    }
    this.attempt = 0;
    this.stopped = false;
    this.setStatus('connecting', why || '');
    this.start();
  }

  setStatus(status, detail) {
    this.state.status = status;
    this.state.detail = detail || '';
    this.onStatus(status, this.state.detail);
  }

  start() {
    clearTimeout(this.retryTimer);
    if (this.prepare) {  // once, before the first connection
      const ready = this.prepare();
      this.prepare = null;
      ready.then(() => this.start(), () => this.start());
      return;
    }
    // A refused page keeps saying so (and why) while it quietly tries again.
    if (this.state.status !== 'refused') {
      this.setStatus(this.attempt === 0 && !this.everLive ? 'connecting' : 'reconnecting', this.attempt ? 'attempt ' + (this.attempt + 1) : '');
    }
    const presented = this.credential(this.token);
    let ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.retry('cannot open: ' + e.message); return; }
    this.ws = ws;
    this.handshake = null;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.state.connects++;
    };
    ws.onmessage = (ev) => this.receive(ev.data, presented);
    ws.onerror = () => { /* onclose follows and decides */ };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (opened) record(this.state.closes, ev.code);
      const wasLive = this.state.status === 'live';
      this.dropped();
      if (opened && (ev.code === NOT_PAIRED || ev.code === PAIRING_DECLINED)) {
        if (this.unpairing) { this.unpairing = false; this.stop(UNPAIRED_TEXT); }
        else this.stop(pairingClosed(ev.code, ev.reason, this.role));
      } else if (opened && (ev.code === PROOF_UNKNOWN || ev.code === PROOF_REVOKED || ev.code === PAIRING_CLOSED ||
                            ev.code === DEVICE_LIMIT)) {
        this.explain(ev.code, presented);
      } else if (opened) {
        const why = CLOSE_REASONS[ev.code] || (ev.reason || 'connection closed');
        if (ev.code === 1008 || ev.code === 1009 || ev.code === 1003) this.onNotice('closed by server: ' + why);
        this.retry(wasLive ? why : 'closed: ' + why);
      } else {
        this.diagnose(presented);
      }
    };
  }

  /** The socket is gone: nothing queued survives, the page lets go of what was down. */
  dropped() {
    this.handshake = null;
    clearInterval(this.pingTimer);
    this.queue.length = 0;
    this.state.session = null;
    this.onDown();
  }

  /** An upgrade that failed: the server is down (retry), or it refused the upgrade — the page
   * asks `GET /pairing` whether this address has tries left, and says why. */
  diagnose(presented) {
    if (!presented.token) { this.refuse(this.role === 'observer' ? OBSERVER_NONE : REFUSAL_TEXT.none); return; }
    fetch(this.statusUrl(), { cache: 'no-store' }).then((r) => {
      if (r.status === 429) return this.refuse(forRole(REFUSAL_TEXT.limited, this.role), LIMITED_RETRY_MS);
      return this.refuse(forRole(REFUSAL_TEXT.other, this.role));
    }).catch(() => this.retry('server unreachable'));
  }

  /** Says why the proof of `presented` was refused, from the close `code`. A dead device key
   * stops the page — unless a newer link brought a secret: then the key is let go and the
   * secret pairs this phone again. */
  explain(code, presented) {
    if (code === PAIRING_CLOSED || code === DEVICE_LIMIT) {
      this.stop(forRole(code === PAIRING_CLOSED ? REFUSAL_TEXT.pairingClosed : REFUSAL_TEXT.deviceLimit, this.role));
    } else if (presented.key) {
      if (this.token) {
        this.onUnpaired();
        this.state.device = null;
        this.restart('pairing again with the new link');
      } else {
        this.stop(forRole(code === PROOF_REVOKED ? REFUSAL_TEXT.revoked : REFUSAL_TEXT.unknownKey, this.role));
      }
    } else {
      this.refuse(REFUSAL_TEXT.unknownSecret);
    }
  }

  refuse(reason, delay) {
    this.setStatus('refused', reason);
    // Keep trying slowly: a restarted server may accept us again.
    this.attempt = Math.max(this.attempt, 6);
    this.schedule(delay || STATUS_RETRY_MS);
  }

  retry(why) {
    const delay = Math.min(4000, 250 * Math.pow(1.8, this.attempt)) * (0.85 + Math.random() * 0.3);
    this.setStatus('reconnecting', why + ' · retry in ' + (delay / 1000).toFixed(1) + ' s');
    this.schedule(delay);
  }

  schedule(delay) {
    if (this.stopped) return;
    this.attempt++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.start(), delay);
  }

  receive(data, presented) {
    let msg;
    try { msg = JSON.parse(data); } catch (e) { return; }
    for (let m of Array.isArray(msg) ? msg : [msg]) {
      if (m && m.type === 'sealed') m = this.handshake ? this.handshake.seal.open(m.box) : null;
      if (!m || typeof m !== 'object') continue;
      record(this.state.received, m);
      if (m.type === 'challenge') {
        this.answer(m, presented);
      } else if (m.type === 'authenticated') {
        if (!this.handshake || m.proof !== this.handshake.serverProof) {
          this.hangUp(forRole(REFUSAL_TEXT.fakeServer, this.role));
          return;
        }
      } else if (m.type === 'welcome') {
        this.attempt = 0;
        this.everLive = true;
        if (m.device && typeof m.device === 'object') {
          // Paired: the key this connection derived (proof.js) is kept, the secret is not needed any more.
          const derived = this.handshake && this.handshake.deviceKey;
          const isNew = this.onDevice(m.device, derived || '');
          this.token = '';
          this.state.device = { id: m.device.id, name: m.device.name, newKey: !!isNew };
        }
        this.state.session = m.session;
        this.state.host = typeof m.host === 'string' ? m.host : null;
        this.state.run = typeof m.run === 'string' ? m.run : null;
        this.state.config = m.config || null;
        this.state.control = m.control && typeof m.control === 'object' ? m.control : null;
        this.setStatus('live', liveDetail(m, this.role));
        if (this.role !== 'observer') this.startPing(); // an observer sends nothing after hello
        this.onLive(m);
      } else if (m.type === 'pairing' && m.state === 'waiting') {
        const name = m.device && typeof m.device.name === 'string' ? m.device.name : 'this phone';
        this.setStatus('waiting', 'Accept “' + name + '” on the computer (its notification, or gesturepad devices allow).');
      } else if (m.type === 'device' && m.device && typeof m.device.name === 'string') {
        // Renamed on the computer (`gesturepad devices rename`): the new name, at once.
        this.onDevice({ id: m.device.id, name: m.device.name });
        this.state.device = Object.assign({}, this.state.device, { id: m.device.id, name: m.device.name });
      } else if (m.type === 'pong') {
        if (typeof m.t === 'number' && m.t !== this.keepAliveT) {
          this.state.rtt = Math.max(0, performance.now() - m.t);
          this.onRtt(this.state.rtt);
        }
      } else if (m.type === 'error') {
        record(this.state.errors, m);
        this.onNotice((m.code || 'error') + ': ' + (m.message || ''));
      }
      this.onMessage(m);
    }
  }

  /** The server's challenge: the proof of `presented` goes out, and the hello right after it
   * (the server reads it once the proof is accepted). A challenge with `auth: false` (a server
   * without authentication) asks for no proof. */
  answer(challenge, presented) {
    if (challenge.auth !== false && !presented.token) {
      // Nothing to prove with: not paired, and no link opened.
      this.hangUp(this.role === 'observer' ? OBSERVER_NONE : REFUSAL_TEXT.none);
      return;
    }
    if (challenge.auth !== false) {
      const answered = answerChallenge(challenge, presented, this.model());
      if (!answered) { this.hangUp(forRole(REFUSAL_TEXT.fakeServer, this.role)); return; }
      this.handshake = answered.handshake;
      this.ws.send(JSON.stringify(answered.message));
    }
    const hello = this.makeHello();
    this.sendFrame(JSON.stringify(hello), [hello], false);
  }

  /** Closes this socket and stops with `text`: nothing to prove with, or the server failed to
   * prove it holds the same credential (not this computer). */
  hangUp(text) {
    const ws = this.ws;
    this.ws = null;
    this.dropped();
    try { ws.close(1000, 'no proof'); } catch (e) { /* closing */ }
    this.stop(text);
  }

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

  live() { return !!this.ws && this.ws.readyState === 1 && this.state.status === 'live'; }

  /* Batching: at most one frame per animation frame. Each animation frame opens a slot; the
   * first message queued in a free slot goes out at the end of the current task (a tap's down
   * or up leaves at once, with everything the same input event produced), later ones wait for
   * the next animation frame, which sends them together and opens the next slot. */

  /** Queues a message for the next batch; false when not live (the message is dropped). On a
   * proven connection `text`, `key` and `button` go sealed, each in its own frame, after what
   * was queued before them (docs/protocol.md "Sealed messages"). */
  send(msg) {
    if (!this.live()) return false;
    if (SEALED_TYPES[msg.type] && this.handshake) {
      if (this.queue.length) this.sendQueue(null, false);
      this.sendFrame(this.handshake.seal.seal(msg), [msg], false);
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
    if (!this.ws || this.ws.readyState !== 1) { this.queue = []; return; }
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
    if (!this.queue.length || !this.ws || this.ws.readyState !== 1) return false;
    if (this.ws.bufferedAmount > BACKLOG_BYTES) return false;
    this.sendQueue(null, true);
    return true;
  }

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

  /** Sends what is queued right now (page hidden: animation frames stop). */
  flushNow() { this.flush(true); }

  sendFrame(text, msgs, isBatch, frameStamp, early) {
    try { this.ws.send(text); } catch (e) { return; }
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
