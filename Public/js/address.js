/* GesturePad: what the page proves it holds (docs/server.md "Pairing") and the WebSocket URL.
 *
 * No credential is ever sent: the upgrade is `/ws?proof=1`, and the page answers the server's
 * challenge with a proof (proof.js) by its device's key pair once this browser is paired, by
 * the pairing secret until then.
 * - The pairing secret comes in the page's address (#token=, which the browser never sends;
 *   ?token= is read too, as PROTOCOL.md says, but that one travels with the page's request):
 *   it is kept (localStorage) only until this browser is paired, and removed from the address
 *   bar.
 * - The device's key pair is made here as this browser pairs: its private key is kept
 *   (localStorage, never sent) with the device's id and the server's identity key pinned then,
 *   and proves every later connection; the computer keeps only the public key. A device key
 *   kept from before key pairs (shared with the computer) is moved over on its next connection.
 * A new link opened in this tab (`hashchange`) brings a new secret. No DOM: location, history,
 * storage and navigator only. */

const SECRET_KEY = 'gesturepad.token';
const DEVICE_KEY = 'gesturepad.deviceKey';
const DEVICE_NAME = 'gesturepad.deviceName';
const DEVICE_ID = 'gesturepad.deviceId';
const MOVE_KEY = 'gesturepad.move';
const SERVER_KEY = 'gesturepad.serverKey';

function stored(name) { try { return localStorage.getItem(name) || ''; } catch (e) { return ''; } }
function store(name, value) {
  try { if (value) localStorage.setItem(name, value); else localStorage.removeItem(name); } catch (e) { /* private mode */ }
}

/** The secret in the page's address (fragment first, then query), or ''. */
function tokenInAddress() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  return hash.get('token') || new URLSearchParams(location.search).get('token') || '';
}

/** Reads the secret from the address, keeps it and removes it from the address bar; without
 * one in the address, the kept one (or ''). */
export function takeToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const token = hash.get('token') || query.get('token');
  if (token) {
    store(SECRET_KEY, token);
    hash.delete('token'); query.delete('token');
    const q = query.toString(), h = hash.toString();
    try { history.replaceState(history.state, '', location.pathname + (q ? '?' + q : '') + (h ? '#' + h : '')); } catch (e) { /* ignore */ }
    return token;
  }
  return stored(SECRET_KEY);
}

/** Takes a move ticket from the address (`#move=ID.TICKET`, docs/protocol.md "Moving to HTTPS":
 * the plain-HTTP page of this browser put it there as it opened this https one), keeps it until
 * it is used and removes it from the address bar. */
export function takeMove() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const move = hash.get('move');
  if (!move) return;
  if (/^[0-9A-Za-z_-]{1,64}\.[0-9A-Za-z_-]{43}$/.test(move)) store(MOVE_KEY, move);
  hash.delete('move');
  const h = hash.toString();
  try { history.replaceState(history.state, '', location.pathname + location.search + (h ? '#' + h : '')); } catch (e) { /* ignore */ }
}

/** Forgets the move ticket (used, or refused). */
export function forgetMove() { store(MOVE_KEY, ''); }

/** The same page at the https address, for a page told to move there: with `ticket` (a paired
 * browser's, from the sealed `move`) as `#move=ID.TICKET`, or with the pairing secret this
 * browser holds as `#token=` — in the fragment, which the browser never sends. */
export function secureUrl(ticket) {
  const id = stored(DEVICE_ID), secret = stored(SECRET_KEY);
  let fragment = '';
  if (ticket && deviceKey() && id) fragment = '#move=' + encodeURIComponent(id) + '.' + ticket;
  else if (!deviceKey() && secret) fragment = '#token=' + encodeURIComponent(secret);
  return 'https://' + location.host + location.pathname + fragment;
}

/** This browser's device key ('' until paired). */
export function deviceKey() { return stored(DEVICE_KEY); }

/** This browser's device name, as the computer knows it ('' until paired). */
export function deviceName() { return stored(DEVICE_NAME); }

/** `welcome.device`: keeps the device's name and id, and `key` — `{ secret, server }`, the key
 * pair this connection made for this browser and the server identity key it proved (proof.js);
 * a paired browser keeps no pairing secret. A key the server sends (`welcome.device.key`, given
 * to `?token=` clients) is never taken: on the wire it could be an attacker's. Returns true when
 * the key is new. */
export function keepDevice(device, key) {
  if (!device || typeof device !== 'object') return false;
  if (typeof device.name === 'string') store(DEVICE_NAME, device.name);
  if (!key || typeof key !== 'object' || !key.secret || !key.server) return false;
  store(SECRET_KEY, '');
  store(MOVE_KEY, '');
  store(DEVICE_KEY, key.secret);
  store(SERVER_KEY, key.server);
  if (typeof device.id === 'string') store(DEVICE_ID, device.id);
  return true;
}

/** Forgets this browser's device key, id and name (it unpaired itself). */
export function forgetDevice() { store(DEVICE_KEY, ''); store(DEVICE_ID, ''); store(DEVICE_NAME, ''); store(SERVER_KEY, ''); }

let model = '';
let modelAsked = null;

/** Resolves once the phone's model is known (Chrome's `navigator.userAgentData`; its user agent
 * no longer names it) or after 300 ms: the name a new device gets on the computer uses it. */
export function whenModelKnown() {
  if (modelAsked) return modelAsked;
  const data = navigator.userAgentData;
  const asked = data && data.getHighEntropyValues ? data.getHighEntropyValues(['model']).then((v) => {
    model = typeof v.model === 'string' ? v.model.slice(0, 60) : '';
  }, () => {}) : Promise.resolve();
  modelAsked = Promise.race([asked, new Promise((done) => setTimeout(done, 300))]);
  return modelAsked;
}

/** The phone's model ('' until known): it names a new device on the computer. */
export function phoneModel() { return model; }

/** What the next connection proves it holds: `{ token, key, id, ticket, serverKey }` — this
 * browser's device key and its id when it has them (`key` true; with the server's identity key
 * pinned as it paired, `serverKey`, the key is a key pair's private half — without it, a shared
 * key from before key pairs, moved over on this connection), else a move ticket brought from the
 * plain-HTTP page (`ticket` true, with the device's id), else the pairing secret given (a new
 * browser, or a new link opened), else nothing (`token` ''). */
export function credential(secret) {
  const key = deviceKey(), id = stored(DEVICE_ID), move = stored(MOVE_KEY);
  if (key && id) return { token: key, key: true, id, ticket: false, serverKey: stored(SERVER_KEY) };
  const dot = move.indexOf('.');
  if (dot > 0) return { token: move.slice(dot + 1), key: false, id: move.slice(0, dot), ticket: true };
  return { token: secret || '', key: false, id: '', ticket: false };
}

/** The WebSocket URL (`/ws?proof=1` next to the page, same scheme family): no credential in it. */
export function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return scheme + '//' + location.host + base() + 'ws?proof=1';
}

/** `GET /pairing` next to the page, with no token (docs/protocol.md "Pairing status"): asked
 * after a failed upgrade, whose status a browser cannot read — 429 says this address has no
 * tries left. */
export function statusUrl() { return base() + 'pairing'; }

function base() { return location.pathname.replace(/[^/]*$/, ''); }

/** Calls `onToken(token)` when a link with a secret is opened in this tab (only the fragment
 * changes: nothing reloads). */
export function watchAddress(onToken) {
  window.addEventListener('hashchange', () => {
    if (tokenInAddress()) onToken(takeToken());
  });
}
