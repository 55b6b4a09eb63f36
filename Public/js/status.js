/* GesturePad: what the page shows about its connection — the status pill in the header, the
 * notice in the middle of the surface when not live, the round-trip time and short toasts. */

const NOTICE = {
  reconnecting: 'Not connected · reconnecting…',
  waiting: 'Waiting for the computer…',
  refused: 'Not connected',
  moving: 'Moving to the secure address…'
};
/** What the person can do, under the reason (a refusal's reason says it already). */
const HELP = {
  reconnecting: 'Is GesturePad running on the computer, and this phone on the same network? ' +
    'The page reconnects by itself; the touchpad and its buttons work again once it is back.'
};
const TOAST_MS = 4000;

/** Shows the connection status in the header pill `el` and, when not live, a notice with the
 * reason. Returns the `onStatus(status, detail)` callback for the connection. */
export function bindStatus(el) {
  const notice = document.getElementById('notice');
  const rtt = document.getElementById('rtt');
  const small = el.querySelector('small');
  // The detail (e.g. the session) is left out rather than cut off when the header is narrow.
  function fit() {
    small.hidden = false;
    if (small.textContent && small.scrollWidth > small.clientWidth + 0.5) small.hidden = true;
  }
  window.addEventListener('resize', fit);
  return function (status, detail) {
    el.className = 'status ' + status;
    el.querySelector('b').textContent = status;
    small.textContent = status === 'live' ? detail : '';
    el.title = status + (detail ? ' — ' + detail : '');
    if (rtt) rtt.hidden = status !== 'live';
    fit();
    if (!notice) return;
    const title = NOTICE[status];
    notice.hidden = !title;
    if (!title) return;
    notice.className = 'notice ' + status;
    notice.querySelector('b').textContent = title;
    notice.querySelector('span').textContent = detail;
    const actions = notice.querySelector('.actions');
    if (actions && status !== 'moving') actions.hidden = true; // secure.js shows them while moving
    const help = notice.querySelector('small');
    if (help) { help.textContent = HELP[status] || ''; help.hidden = !HELP[status]; }
  };
}

let toastTimer = 0;

/** A short message in the toast at the top (a server error, a close by the server). */
export function toast(text) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, TOAST_MS);
}
