/* GesturePad: the WebSocket connection shared by the touchpad and the observer — the shell of
 * the connection's life (link.js, a pure reducer: connecting → live → reconnecting with
 * backoff | waiting for the computer | refused with the reason). It turns what the socket,
 * the timers and the page do into the reducer's events, each socket's stamped with its id, and
 * carries out the effects the reducer returns. Batching and pings: batcher.js.
 *
 * No DOM: the page gives it the pairing secret, the URLs and the hello, and hears what happens
 * through callbacks (status, live, down, message, rtt, notice, device). */
import { record } from './state.js';
import { answerChallenge } from './proof.js';
import { initial, next } from './link.js';
import { Batcher } from './batcher.js';

export { controlActive, liveDetail } from './link-texts.js';
export { interleave, BACKLOG_BYTES } from './batcher.js';

const none = () => {};

/** Under the test hook: a connection's exchanged key, in the page state and in this tab's
 * session storage (a reload keeps it), for tests/sealing.py to open the wire. */
function keepForTests(state, exchange) {
  record(state.exchanges, exchange);
  try {
    const kept = JSON.parse(sessionStorage.getItem('gesturepad.test.exchanges') || '[]');
    kept.push(exchange);
    sessionStorage.setItem('gesturepad.test.exchanges', JSON.stringify(kept));
  } catch (e) { /* storage refused: the state still has it */ }
}

/** One connection with its own status, reconnect loop, ping and per-frame batching. */
export class Connection {
  /**
   * opts:
   * - role: 'touchpad' | 'observer'; state: the page state (state.js), written as things happen
   * - pairAs: what a pairing with the secret pairs this browser as ('observer' from the observer
   *   page: `auth.kind`; absent: a touchpad)
   * - token: the pairing secret ('' once paired); credential(secret) → what the next connection
   *   proves it holds, { token, key, id } (the device key, else the secret: address.js); url()
   *   → the WebSocket URL; statusUrl() → `GET /pairing` (asked after a failed upgrade: 429
   *   says this address has no tries left); model() → the phone's model, naming a new device;
   *   prepare() → a promise to wait for before the first connection (the phone's model)
   * - hello() → the hello message; busy() → a pointer is down or hovering (no timing ping);
   *   hidden() → the page is hidden (no ping); nextFrame(fn): requestAnimationFrame
   * - callbacks: onStatus(status, detail), onLive(welcome), onDown(), onMessage(m), onRtt(ms),
   *   onNotice(text, error) (something to tell the person: a server error — the `error`
   *   message too —, a close by the server),
   *   onDevice(device) (welcome.device: keep its key), onUnpaired() (forget the key),
   *   onMove(ticket) (the computer speaks HTTPS now: open the page there, secure.js),
   *   onForgetMove() (the move ticket proved nothing)
   */
  constructor(opts) {
    this.state = opts.state;
    this.credential = opts.credential;
    this.url = opts.url;
    this.statusUrl = opts.statusUrl;
    this.model = opts.model || (() => '');
    this.prepare = opts.prepare || null;
    this.makeHello = opts.hello;
    this.pairAs = opts.pairAs || '';
    for (const name of ['onDevice', 'onUnpaired', 'onStatus', 'onLive', 'onDown', 'onMessage', 'onRtt', 'onNotice',
      'onMove', 'onForgetMove']) {
      this[name] = opts[name] || none;
    }
    this.link = initial(opts.role, opts.token);  // the reducer's state
    this.ws = null;         // the current socket, and its id in the reducer
    this.socketId = 0;
    this.seal = null;       // the current socket's sealing, once its proof went out (proof.js)
    this.retryTimer = 0;
    this.events = [];       // events raised while effects are carried out wait for their turn
    this.running = false;
    this.batcher = new Batcher({
      state: this.state, socket: () => this.ws, live: () => this.live(), seal: () => this.seal,
      nextFrame: opts.nextFrame || ((fn) => requestAnimationFrame(fn)),
      busy: opts.busy || (() => false), hidden: opts.hidden || (() => false)
    });
  }

  /** Connects for the first time (once `prepare()` is done). */
  start() {
    const prepare = this.prepare;
    this.prepare = null;
    if (!prepare) { this.dispatch({ type: 'start' }); return; }
    prepare().then(() => this.dispatch({ type: 'start' }), () => this.dispatch({ type: 'start' }));
  }

  /** A new pairing secret (a new link opened in this tab): connect with it at once, unless this
   * connection is live with it already, or live as a paired device. */
  useToken(token) { this.dispatch({ type: 'token', token }); }

  /** "Unpair this phone": asks the server to forget this device (it closes every connection of
   * it), and forgets the key here; not live, it ends every socket and stops. */
  unpair() { this.dispatch({ type: 'unpair' }); }

  live() { return !!this.ws && this.ws.readyState === 1 && this.link.phase === 'live'; }

  /** Queues a message for the next batch (batcher.js); false when not live. */
  send(msg) { return this.batcher.send(msg); }

  /** Queues an early move without asking for a slot (batcher.js); false when not live. */
  hold(msg) { return this.batcher.hold(msg); }

  /** Sends the early moves now unless the socket is backed up; whether it sent. */
  flushEarly() { return this.batcher.flushEarly(); }

  /** Sends what is queued right now (page hidden: animation frames stop). */
  flushNow() { this.batcher.flushNow(); }

  /** Hands `event` to the reducer and carries out its effects; an event raised meanwhile is
   * handled after them, against the state they left. */
  dispatch(event) {
    this.events.push(Object.assign({ jitter: Math.random() }, event));
    if (this.running) return;
    this.running = true;
    try {
      while (this.events.length) {
        const { state, effects } = next(this.link, this.events.shift());
        this.link = state;
        for (const effect of effects) this.carryOut(effect);
      }
    } finally {
      this.running = false;
    }
  }

  carryOut(e) {
    const st = this.state;
    switch (e.do) {
      case 'status': st.status = e.status; st.detail = e.detail; this.onStatus(e.status, e.detail); break;
      case 'open': this.open(e.socket, e.token); break;
      case 'connected': st.connects++; break;
      case 'close': this.close(e.socket, e.code, e.reason); break;
      case 'drop':  // the socket is gone: nothing queued survives, the page lets go of what was down
        this.ws = null;
        this.seal = null;
        this.batcher.drop();
        st.session = null;
        this.onDown();
        break;
      case 'recordClose': record(st.closes, e.code); break;
      case 'schedule':
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.dispatch({ type: 'timer', timer: e.timer }), e.delay);
        break;
      case 'cancelRetry': clearTimeout(this.retryTimer); break;
      case 'ask':
        fetch(this.statusUrl(), { cache: 'no-store' }).then(
          (r) => this.dispatch({ type: 'pairingStatus', ask: e.ask, status: r.status }),
          () => this.dispatch({ type: 'pairingStatus', ask: e.ask, status: null }));
        break;
      case 'answer': this.answer(e); break;
      case 'received': record(st.received, e.message); break;
      case 'device': {
        const isNew = this.onDevice(e.device, e.key);
        st.device = { id: e.device.id, name: e.device.name, newKey: !!isNew };
        break;
      }
      case 'renamed':  // renamed on the computer (`gesturepad devices rename`): the new name, at once
        this.onDevice(e.device);
        st.device = Object.assign({}, st.device, e.device);
        break;
      case 'forget': this.onUnpaired(); st.device = null; break;
      case 'welcome': {
        const m = e.welcome;
        st.session = m.session;
        st.host = typeof m.host === 'string' ? m.host : null;
        st.run = typeof m.run === 'string' ? m.run : null;
        st.config = m.config || null;
        st.control = m.control && typeof m.control === 'object' ? m.control : null;
        break;
      }
      case 'ping': this.batcher.startPing(); break;
      case 'live': this.onLive(e.welcome); break;
      case 'send': this.batcher.send(e.message); break;
      case 'flush': this.batcher.flushNow(); break;
      case 'notice': this.onNotice(e.text); break;
      case 'moveToHttps': this.onMove(e.ticket); break;
      case 'forgetMove': this.onForgetMove(); break;
      case 'deliver': this.deliver(e.message); break;
      default: break;
    }
  }

  /** A new socket `id`, proving what `token` leads to (the device key, else the secret). */
  open(id, token) {
    this.dispatch({ type: 'credential', socket: id, presented: this.credential(token) });
    let ws;
    try { ws = new WebSocket(this.url()); } catch (err) {
      this.dispatch({ type: 'cannotOpen', socket: id, message: err.message });
      return;
    }
    this.ws = ws;
    this.socketId = id;
    this.seal = null;
    ws.onopen = () => this.dispatch({ type: 'opened', socket: id });
    ws.onmessage = (ev) => this.receive(id, ev.data);
    ws.onerror = () => { /* onclose follows and decides */ };
    ws.onclose = (ev) => this.dispatch({ type: 'closed', socket: id, code: ev.code, reason: ev.reason });
  }

  close(id, code, reason) {
    if (id !== this.socketId || !this.ws) return;
    const ws = this.ws;
    this.ws = null;
    this.seal = null;
    try { ws.close(code, reason); } catch (err) { /* already closing */ }
  }

  /** The messages of a frame of socket `id` (a batch or one), sealed ones opened — with this
   * socket's seal only — as events. */
  receive(id, data) {
    let msg;
    try { msg = JSON.parse(data); } catch (err) { return; }
    for (let m of Array.isArray(msg) ? msg : [msg]) {
      const sealed = !!(m && m.type === 'sealed');
      if (sealed) m = id === this.socketId && this.seal ? this.seal.open(m.box) : null;
      if (!m || typeof m !== 'object') continue;
      this.dispatch({ type: 'message', socket: id, message: m, sealed });
    }
  }

  /** The server's challenge: the proof of `presented` goes out, and the hello right after it
   * (the server reads it once the proof is accepted). A challenge with `auth: false` (a server
   * without authentication) asks for no proof. */
  answer(e) {
    if (e.socket !== this.socketId || !this.ws) return;
    if (e.prove) {
      const answered = answerChallenge(e.challenge, e.presented, this.model(), this.pairAs);
      if (!answered) { this.dispatch({ type: 'proofFailed', socket: e.socket }); return; }
      const h = answered.handshake;
      if (globalThis.__gesturepadTest === true) keepForTests(this.state, h.exchange);
      this.seal = h.seal;
      this.dispatch({ type: 'proof', socket: e.socket, serverProof: h.serverProof, deviceKey: h.deviceKey });
      this.ws.send(JSON.stringify(answered.message));
    }
    const hello = this.makeHello();
    this.batcher.sendFrame(this.seal ? this.seal.seal(hello) : JSON.stringify(hello), [hello], false);
  }

  /** What the page hears of a message: the round trip of a pong, a server error, and the rest. */
  deliver(m) {
    const st = this.state;
    if (m.type === 'pong') {
      if (typeof m.t === 'number' && this.batcher.pong(m.t)) {
        st.rtt = Math.max(0, performance.now() - m.t);
        this.onRtt(st.rtt);
      }
    } else if (m.type === 'error') {
      record(st.errors, m);
      this.onNotice((m.code || 'error') + ': ' + (m.message || ''), m);
    }
    this.onMessage(m);
  }
}
