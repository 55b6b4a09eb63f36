/* GesturePad: the life of the page's connection as one pure reducer — `next(state, event)` →
 * `{ state, effects }` (docs/page.md "The connection's life"). The state is plain data; the
 * effects are data too (open a socket, close it, answer a challenge, schedule a retry, keep or
 * forget the device, say a status…), carried out by the shell, connection.js, which turns
 * what happens (socket opened, a message, a close, the retry timer, "unpair", a new link) into
 * events. Every event of a socket carries its id: an event of any socket but the current one
 * changes nothing, so a stale socket's welcome, message or close cannot undo what happened
 * since. No DOM, no timers, no randomness (the shell puts `jitter`, 0…1, on each event). */
import {
  CLOSE_DEVICE_NOT_PAIRED as NOT_PAIRED, CLOSE_PAIRING_DECLINED as PAIRING_DECLINED, CLOSE_PROOF_UNKNOWN as PROOF_UNKNOWN,
  CLOSE_PROOF_REVOKED as PROOF_REVOKED, CLOSE_PAIRING_CLOSED as PAIRING_CLOSED, CLOSE_DEVICE_LIMIT as DEVICE_LIMIT,
  CLOSE_OBSERVER_ONLY as OBSERVER_ONLY
} from './wire.js';
import {
  CLOSE_REASONS, MOVING_TEXT, UNPAIRED_TEXT, OBSERVER_NONE, OBSERVER_ONLY_TEXT, REFUSAL_TEXT, forRole, pairingClosed,
  liveDetail, waitingText
} from './link-texts.js';

/** What the server sends plain on a connection whose server proved itself (docs/protocol.md
 * "Sealed messages"). */
const PLAIN_AFTER_PROOF = { gesture: 1, session: 1 };

const STATUS_RETRY_MS = 15000;
const LIMITED_RETRY_MS = 60000;
/** The phases (`stopped` also while the page moves to the https address). Socket ones: `connecting` (upgrade under way), `proving` (open, no welcome yet),
 * `waiting` (the computer's user has not accepted this phone), `live`. Without a socket:
 * `idle` (not started), `retrying` (a timer is set), `asking` (`GET /pairing` under way after
 * a refused upgrade), `stopped` (an answer: no retry until a new link or a reload). */
export const PHASES = ['idle', 'connecting', 'proving', 'waiting', 'live', 'retrying', 'asking', 'stopped'];

/** The state before `start`: `role` ('touchpad' | 'observer'), `token` (the pairing secret or ''). */
export function initial(role, token) {
  return {
    role, token: token || '', phase: 'idle', status: '', detail: '',
    socket: 0, lastSocket: 0, presented: null, opened: false, serverProof: null, deviceKey: null, handshake: '',
    attempt: 0, everLive: false, paired: false, unpairing: false, timer: 0, ask: 0, answered: false
  };
}

/** Whether `phase` has a socket. */
export function hasSocket(phase) { return phase === 'connecting' || phase === 'proving' || phase === 'waiting' || phase === 'live'; }

/** The next state and the effects of `event` (see docs/page.md for the list). Never mutates `state`. */
export function next(state, event) {
  const t = new Transition(state);
  t.handle(event);
  return { state: t.s, effects: t.effects };
}

class Transition {
  constructor(state) { this.s = Object.assign({}, state); this.effects = []; }

  emit(effect) { this.effects.push(effect); }

  set(fields) { Object.assign(this.s, fields); }

  status(status, detail) {
    this.set({ status, detail: detail || '' });
    this.emit({ do: 'status', status, detail: detail || '' });
  }

  /** Whether `event` belongs to the current socket. */
  current(event) { return hasSocket(this.s.phase) && event.socket === this.s.socket; }

  handle(ev) {
    const s = this.s;
    switch (ev.type) {
      case 'start': if (s.phase === 'idle') this.open(); return;
      case 'opened':
        if (!this.current(ev) || s.opened) return;
        this.set({ opened: true, phase: 'proving', answered: false });
        this.emit({ do: 'connected' });
        return;
      case 'credential': if (this.current(ev)) this.set({ presented: ev.presented }); return;
      case 'cannotOpen':
        if (!this.current(ev)) return;
        this.set({ socket: 0 });
        this.retry('cannot open: ' + ev.message, ev.jitter);
        return;
      case 'message': if (this.current(ev)) this.message(ev.message, ev.sealed === true); return;
      case 'proof':
        if (this.current(ev)) this.set({ serverProof: ev.serverProof, deviceKey: ev.deviceKey || null });
        return;
      case 'proofFailed': if (this.current(ev)) this.hangUp(forRole(REFUSAL_TEXT.fakeServer, s.role)); return;
      case 'closed': if (this.current(ev)) this.closed(ev); return;
      case 'timer': if (s.phase === 'retrying' && ev.timer === s.timer) this.open(); return;
      case 'pairingStatus': if (s.phase === 'asking' && ev.ask === s.ask) this.asked(ev); return;
      case 'token':
        if (s.phase === 'idle') { this.set({ token: ev.token }); return; }
        // Live with this link's secret, or live as a paired device (its key decides): nothing to change.
        if (s.phase === 'live' && (ev.token === s.token || s.paired)) return;
        this.set({ token: ev.token });
        this.restart('new pairing link');
        return;
      case 'unpair': this.unpair(); return;
      default: return;
    }
  }

  /** A new socket; the status says connecting, or reconnecting and which attempt — unless the
   * page is refused: it keeps saying so (and why) while it quietly tries again. */
  open() {
    const s = this.s;
    const id = s.lastSocket + 1;
    this.set({ phase: 'connecting', socket: id, lastSocket: id, opened: false, presented: null, serverProof: null, deviceKey: null, handshake: '' });
    if (s.status !== 'refused') {
      this.status(s.attempt === 0 && !s.everLive ? 'connecting' : 'reconnecting', s.attempt ? 'attempt ' + (s.attempt + 1) : '');
    }
    this.emit({ do: 'open', socket: id, token: s.token });
  }

  /** Ends the current socket (if any): the shell closes it, and the page lets go of what was down. */
  endSocket(code, reason) {
    if (!this.s.socket) return;
    this.emit({ do: 'close', socket: this.s.socket, code, reason });
    this.emit({ do: 'drop' });
    this.set({ socket: 0, serverProof: null, deviceKey: null });
  }

  /** Drops the current connection and connects again now, from a fresh backoff. */
  restart(why) {
    this.endSocket(1000, why || 'restart');
    this.cancelRetry();
    this.set({ attempt: 0, phase: 'idle', answered: false });
    this.status('connecting', why || '');
    this.open();
  }

  /** An answer that trying again cannot change: say it, and wait for a new link or a reload. */
  stop(reason, closeReason) {
    this.endSocket(1000, closeReason || 'stopped');
    this.cancelRetry();
    this.set({ phase: 'stopped' });
    this.status('refused', reason);
  }

  /** A retry timer set is let go (and its event would be ignored: the timer's id changes). */
  cancelRetry() {
    if (this.s.phase === 'retrying') this.emit({ do: 'cancelRetry' });
    this.set({ timer: this.s.timer + 1 });
  }

  /** Closes this socket and stops with `text`: nothing to prove with, or the server failed to prove it. */
  hangUp(text) {
    this.endSocket(1000, 'no proof');
    this.stop(text);
  }

  schedule(delay) {
    const timer = this.s.timer + 1;
    this.set({ phase: 'retrying', attempt: this.s.attempt + 1, timer });
    this.emit({ do: 'schedule', timer, delay });
  }

  retry(why, jitter) {
    const j = typeof jitter === 'number' ? jitter : 0.5;
    const delay = Math.min(4000, 250 * Math.pow(1.8, this.s.attempt)) * (0.85 + j * 0.3);
    this.status('reconnecting', why + ' · retry in ' + (delay / 1000).toFixed(1) + ' s');
    this.schedule(delay);
  }

  /** Refused, but keep trying slowly: a restarted server may accept us again. */
  refuse(reason, delay) {
    this.status('refused', reason);
    this.set({ attempt: Math.max(this.s.attempt, 6) });
    this.schedule(delay || STATUS_RETRY_MS);
  }

  unpair() {
    this.set({ unpairing: true, paired: false });
    this.emit({ do: 'forget' });
    if (this.s.phase === 'live') {
      this.emit({ do: 'send', message: { type: 'unpair' } });
      this.emit({ do: 'flush' });
      return;
    }
    // Not live: no server hears it, so no socket may go on (its welcome would pair this phone again).
    this.set({ unpairing: false });
    this.stop(UNPAIRED_TEXT, 'unpaired');
  }

  closed(ev) {
    const s = this.s;
    const wasLive = s.phase === 'live';
    const presented = s.presented || {};
    const id = s.socket;
    if (s.opened) this.emit({ do: 'recordClose', code: ev.code });
    this.emit({ do: 'drop' });
    this.set({ socket: 0, serverProof: null, deviceKey: null }); // each case below sets the phase
    const code = ev.code;
    if (s.opened && (code === NOT_PAIRED || code === PAIRING_DECLINED)) {
      if (s.unpairing) { this.set({ unpairing: false }); this.stop(UNPAIRED_TEXT); } else this.stop(pairingClosed(code, ev.reason, s.role));
    } else if (s.opened && (code === PROOF_UNKNOWN || code === PROOF_REVOKED || code === PAIRING_CLOSED || code === DEVICE_LIMIT)) {
      this.explain(code, presented);
    } else if (s.opened && code === OBSERVER_ONLY) {
      // This browser's key was paired to watch: a touchpad page stops — unless a link was opened
      // since, whose secret pairs this browser again, as a touchpad (the watching key goes).
      if (this.s.token && presented.key) {
        this.set({ paired: false });
        this.emit({ do: 'forget' });
        this.restart('pairing this browser as a touchpad with the link');
      } else {
        this.stop(OBSERVER_ONLY_TEXT);
      }
    } else if (s.opened) {
      const why = CLOSE_REASONS[code] || (ev.reason || 'connection closed');
      if (code === 1008 || code === 1009 || code === 1003) this.emit({ do: 'notice', text: 'closed by server: ' + why });
      this.retry(wasLive ? why : 'closed: ' + why, ev.jitter);
    } else if (!presented.token) {
      // An upgrade that failed with nothing to present: not paired.
      this.refuse(s.role === 'observer' ? OBSERVER_NONE : REFUSAL_TEXT.none);
    } else {
      // The server is down (retry), or it refused the upgrade: `GET /pairing` says which.
      this.set({ phase: 'asking', ask: id });
      this.emit({ do: 'ask', ask: id });
    }
  }

  /** The answer of `GET /pairing`: 429 (no tries left from this address), another status, or
   * none. An answer after an upgrade that failed proves a refusal only the second time in a row:
   * the first may come from a server that started between the two (the upgrade found nothing
   * listening, the ask found it up), so the page tries again at once rather than waiting 15 s. */
  asked(ev) {
    if (ev.status === 429) this.refuse(forRole(REFUSAL_TEXT.limited, this.s.role), LIMITED_RETRY_MS);
    else if (ev.status === null || ev.status === undefined) {
      this.set({ answered: false });
      this.retry('server unreachable', ev.jitter);
    } else if (!this.s.answered) {
      this.set({ answered: true, attempt: 0 });
      this.retry('the server answers: trying again', ev.jitter);
    } else this.refuse(forRole(REFUSAL_TEXT.other, this.s.role));
  }

  /** Says why the proof of `presented` was refused, from the close `code`. A dead device key
   * stops the page — unless a newer link brought a secret: then the key is let go and the
   * secret pairs this phone again. */
  explain(code, presented) {
    const role = this.s.role;
    if (code === PAIRING_CLOSED || code === DEVICE_LIMIT) {
      this.stop(forRole(code === PAIRING_CLOSED ? REFUSAL_TEXT.pairingClosed : REFUSAL_TEXT.deviceLimit, role));
    } else if (presented.ticket) {
      // The move ticket is used, or too old: it proves nothing any more.
      this.emit({ do: 'forgetMove' });
      if (this.s.token) this.restart('pairing with the link');
      else this.stop(forRole(REFUSAL_TEXT.moveFailed, role));
    } else if (presented.key) {
      if (this.s.token) {
        this.set({ paired: false });
        this.emit({ do: 'forget' });
        this.restart('pairing again with the new link');
      } else {
        this.stop(forRole(code === PROOF_REVOKED ? REFUSAL_TEXT.revoked : REFUSAL_TEXT.unknownKey, role));
      }
    } else {
      this.refuse(REFUSAL_TEXT.unknownSecret);
    }
  }

  /** The handshake, once per socket and in this order (docs/security.md "An attacker on the
   * path"): `challenge`; with a credential, `authenticated` carrying the server's proof; then
   * `welcome`. Until the server proved itself nothing else is believed (ignored, not
   * delivered); anything out of order, repeated, or a challenge that asks a page holding a
   * credential for no proof (`auth: false`: a stripped handshake would leave the page unsealed)
   * hangs up. The `handshake` field says how far it got: '' → 'open' (challenge without proof:
   * a server without authentication, and the page holds nothing) or 'challenged' → 'proven' →
   * 'welcomed'. Returns false when the message must go no further. */
  handshake(m) {
    const s = this.s;
    const credential = !!(s.presented && s.presented.token);
    const fake = () => { this.hangUp(forRole(REFUSAL_TEXT.fakeServer, s.role)); return false; };
    switch (m.type) {
      case 'challenge':
        if (s.handshake !== '') return fake();
        if (m.auth === false) {
          if (credential) return fake();
          this.set({ handshake: 'open' });
          this.emit({ do: 'answer', socket: s.socket, challenge: m, presented: s.presented, prove: false });
          return true;
        }
        if (!credential) {
          // Nothing to prove with: not paired, and no link opened. A plain page of a computer
          // that speaks HTTPS now goes there (a hint only: nothing secret goes with it).
          if (m.https === true) { this.moveToHttps(null); return false; }
          this.hangUp(s.role === 'observer' ? OBSERVER_NONE : REFUSAL_TEXT.none);
          return true;
        }
        this.set({ handshake: 'challenged' });
        this.emit({ do: 'answer', socket: s.socket, challenge: m, presented: s.presented, prove: true });
        return true;
      case 'authenticated':
        if (s.handshake !== 'challenged' || !s.serverProof || m.proof !== s.serverProof) return fake();
        this.set({ handshake: 'proven' });
        return true;
      case 'welcome':
        if (s.handshake !== 'proven' && s.handshake !== 'open') return fake();
        this.set({ handshake: 'welcomed' });
        return true;
      default:
        // Before the proof, nothing is believed.
        return s.handshake === 'welcomed' || s.handshake === 'proven' || s.handshake === 'open';
    }
  }

  /** The computer speaks HTTPS now (docs/protocol.md "Moving to HTTPS"): this socket ends and
   * the shell opens the same page at the https address, with `ticket` (a paired browser's) or
   * the secret this page holds, in the fragment. */
  moveToHttps(ticket) {
    this.endSocket(1000, 'moving to https');
    this.cancelRetry();
    this.set({ phase: 'stopped' });
    this.status('moving', forRole(MOVING_TEXT, this.s.role));
    this.emit({ do: 'moveToHttps', ticket: typeof ticket === 'string' ? ticket : null });
  }

  message(m, sealed) {
    const s = this.s;
    // Once the server proved itself, everything it says comes sealed but the gesture feed and
    // the observers' session notices (the same bytes for every observer): a plain message of
    // any other type is not the server's (an attacker on the path can write it), and nothing of
    // it is believed (docs/protocol.md "Sealed messages").
    if (!sealed && (s.handshake === 'proven' || s.handshake === 'welcomed') && !PLAIN_AFTER_PROOF[m.type]) return;
    this.emit({ do: 'received', message: m });
    if (m.type === 'move') {
      // Believed only sealed, on a connection whose server proved itself and said nothing else yet.
      if (sealed && s.handshake === 'proven') this.moveToHttps(m.ticket);
      return;
    }
    if (!this.handshake(m)) return;
    if (m.type === 'welcome') {
      this.set({ attempt: 0, everLive: true, phase: 'live' });
      if (m.device && typeof m.device === 'object') {
        // Paired: the key this connection derived is kept, the secret is not needed any more.
        // A key on the wire is never taken: a device key is derived on both sides, never sent.
        this.emit({ do: 'device', device: { id: m.device.id, name: m.device.name }, key: s.deviceKey || '' });
        this.set({ token: '', paired: true });
      }
      this.emit({ do: 'welcome', welcome: m });
      this.status('live', liveDetail(m, s.role));
      if (s.role !== 'observer') this.emit({ do: 'ping' }); // an observer sends nothing after hello
      this.emit({ do: 'live', welcome: m });
    } else if (m.type === 'pairing' && (m.state === 'waiting' || m.state === 'closed')) {
      this.set({ phase: 'waiting' });
      this.status('waiting', waitingText(m));
    } else if (m.type === 'device' && m.device && typeof m.device.name === 'string') {
      this.emit({ do: 'renamed', device: { id: m.device.id, name: m.device.name } });
    }
    this.emit({ do: 'deliver', message: m });
  }
}
