/* GesturePad help page (help.html's module): says which computer the phone drives and how, from
 * what the touchpad put in the link (`help.html#host=desk&backend=x11`, from its welcome), and
 * marks that backend's row. Nothing is fetched: the page is the server's own static file. */
const params = new URLSearchParams(location.hash.replace(/^#/, ''));
const host = params.get('host') || '';
const backend = params.get('backend') || '';
const drives = document.getElementById('drives');
if (host || backend) {
  const who = host ? '“' + host + '”' : 'the computer';
  drives.textContent = backend && backend !== 'off'
    ? 'This phone drives ' + who + ' through ' + backend + '.'
    : 'This phone shows its gestures on ' + who + ', which does not let it drive the pointer or keyboard.';
  drives.hidden = false;
}
const row = document.querySelector('#backends tr[data-backend="' + (backend || 'none') + '"]');
if (row) row.classList.add('current');
