/* GesturePad: the help link of the header, carrying which computer the touchpad drives and
 * through which backend (from its welcome) to help.html, which says so. */

/** Points `link` at help.html with the welcome's `host` and backend (`off` when the phone does
 * not drive the computer). */
export function showAbout(link, welcome) {
  if (!link) return;
  const control = welcome && welcome.control;
  const params = new URLSearchParams();
  if (welcome && typeof welcome.host === 'string') params.set('host', welcome.host);
  params.set('backend', control && control.active === true ? String(control.backend || '') : 'off');
  link.href = 'help.html#' + params.toString();
}
