/* GesturePad: the access token in the page's address and the WebSocket URL. The token comes
 * from the fragment (#token=) or the query (?token=), is remembered (localStorage) and removed
 * from the address bar; a new link opened in this tab (`hashchange`) brings a new one.
 * No DOM: location, history and storage only. */

const TOKEN_KEY = 'gesturepad.token';

/** The token in the page's address (fragment first, then query), or ''. */
function tokenInAddress() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  return hash.get('token') || new URLSearchParams(location.search).get('token') || '';
}

/** Reads the token from the address, remembers it and removes it from the address bar; without
 * one in the address, the remembered token (or ''). */
export function takeToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const token = hash.get('token') || query.get('token');
  if (token) {
    try { localStorage.setItem(TOKEN_KEY, token); } catch (e) { /* private mode */ }
    hash.delete('token'); query.delete('token');
    const q = query.toString(), h = hash.toString();
    try { history.replaceState(history.state, '', location.pathname + (q ? '?' + q : '') + (h ? '#' + h : '')); } catch (e) { /* ignore */ }
    return token;
  }
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch (e) { return ''; }
}

/** The WebSocket URL (`/ws` next to the page, same scheme family), with the token in the query. */
export function socketUrl(token) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const base = location.pathname.replace(/[^/]*$/, '');
  return scheme + '//' + location.host + base + 'ws' + (token ? '?token=' + encodeURIComponent(token) : '');
}

/** A URL of the page itself that no cache answers: it loads → the server is up. */
export function probeUrl() { return location.pathname + '?probe=' + Date.now(); }

/** Calls `onToken(token)` when a link with a token is opened in this tab (only the fragment
 * changes: nothing reloads). */
export function watchAddress(onToken) {
  window.addEventListener('hashchange', () => {
    if (tokenInAddress()) onToken(takeToken());
  });
}
