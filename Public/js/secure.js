/* GesturePad: the page goes to the computer's https address (docs/protocol.md "Moving to
 * HTTPS"), once link.js believed that the computer speaks HTTPS now. The certificate may not be
 * trusted on this phone yet: the page first asks the https address for a small file (a request
 * that fails on an untrusted certificate), and goes there when it answers; until then the
 * notice offers the trust page and the secure page, and the page asks again every few seconds
 * (the person comes back from trusting the certificate and the page moves by itself). */
import { secureUrl } from './address.js';

const RETRY_MS = 3000;

/** Moves this page to the https address, with `ticket` (or the secret this page holds). */
export function moveToSecure(ticket) {
  const target = secureUrl(ticket);
  const probe = 'https://' + location.host + '/icon.svg';
  const notice = document.getElementById('notice');
  const actions = notice && notice.querySelector('.actions');
  if (actions) {
    actions.querySelector('[data-do="trust"]').href = '/trust';
    actions.querySelector('[data-do="secure"]').href = target;
    actions.hidden = false;
  }
  let done = false;
  function tryNow() {
    if (done) return;
    fetch(probe, { mode: 'no-cors', cache: 'no-store' }).then(() => {
      done = true;
      location.replace(target);
    }, () => { setTimeout(tryNow, RETRY_MS); });
  }
  tryNow();
}
