/* GesturePad: what the page connects with (docs/server.md "Pairing") and the WebSocket URL.
 *
 * The upgrade carries one token, `/ws?token=`: the device key once this browser is paired, the
 * pairing secret until then.
 * - The pairing secret comes in the page's address (#token=, or ?token=): it is kept
 *   (localStorage) only until this browser is paired, and removed from the address bar.
 * - The device key comes in the welcome of the connection that paired this browser; it is kept
 *   (localStorage) and is the token of every later connection.
 * A new link opened in this tab (`hashchange`) brings a new secret. No DOM: location, history,
 * storage and navigator only. */

const SECRET_KEY = 'gesturepad.token';
const DEVICE_KEY = 'gesturepad.deviceKey';
const DEVICE_NAME = 'gesturepad.deviceName';

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

/** This browser's device key ('' until paired). */
export function deviceKey() { return stored(DEVICE_KEY); }

/** This browser's device name, as the computer knows it ('' until paired). */
export function deviceName() { return stored(DEVICE_NAME); }

/** `welcome.device`: keeps the key (sent once, when this browser was paired) and the name; a
 * paired browser keeps no secret. Returns true when the key is new. */
export function keepDevice(device) {
  if (!device || typeof device !== 'object') return false;
  if (typeof device.name === 'string') store(DEVICE_NAME, device.name);
  store(SECRET_KEY, '');
  if (typeof device.key !== 'string' || !device.key) return false;
  store(DEVICE_KEY, device.key);
  return true;
}

/** Forgets this browser's device key and name (it unpaired itself). */
export function forgetDevice() { store(DEVICE_KEY, ''); store(DEVICE_NAME, ''); }

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

/** What the next connection presents: `{ token, key }` — this browser's device key when it has
 * one (`key` true), else the pairing secret given (a new browser, or a new link opened), else
 * no token at all. */
export function credential(secret) {
  const key = deviceKey();
  return key ? { token: key, key: true } : { token: secret || '', key: false };
}

/** The WebSocket URL (`/ws` next to the page, same scheme family) for `credential`: its token,
 * and the phone's model along with a secret (it names the new device). */
export function socketUrl(credential) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams();
  if (credential.token) query.set('token', credential.token);
  if (credential.token && !credential.key && model) query.set('model', model);
  const q = query.toString();
  return scheme + '//' + location.host + base() + 'ws' + (q ? '?' + q : '');
}

/** `GET /pairing?token=` next to the page (docs/protocol.md "Pairing status"): where `token`
 * stands, asked after a refused upgrade, whose status a browser cannot read. */
export function statusUrl(token) {
  return base() + 'pairing?token=' + encodeURIComponent(token);
}

function base() { return location.pathname.replace(/[^/]*$/, ''); }

/** Calls `onToken(token)` when a link with a secret is opened in this tab (only the fragment
 * changes: nothing reloads). */
export function watchAddress(onToken) {
  window.addEventListener('hashchange', () => {
    if (tokenInAddress()) onToken(takeToken());
  });
}
