/* GesturePad: touches that start on the touch surface stay on it.
 *
 * Chromium moves a touch onto a tap target near it ("touch adjustment": anything clickable
 * within half the touch's size, up to 16 CSS px away). Beside a toolbar button or a key, a
 * stroke meant to move the pointer would press the button instead. So a control takes only
 * the touches that land on it: a touch whose point lies on the surface belongs to the surface
 * whatever target the browser gave it (a button, or a panel that listens for presses), and
 * the click its tap would make there is swallowed. In effect no control's hit area reaches
 * past its own box. No state but the touch being handed back.
 *
 * What a touch on the surface must not do — scroll or zoom the page, select text, move the
 * focus, fire the compatibility mouse events and the click — is stopped without cancelling its
 * pointerdown: `touch-action: none` (style.css) and a cancelled `touchstart`. Gecko delivers
 * only the first finger's pointer events once a touch's pointerdown was cancelled (the other
 * fingers never go down, or never move): a cancelled touchstart keeps every finger. */

/**
 * surface: the touch surface (canvas); down(e): its pointerdown handler (it captures the
 * pointer, so the rest of the stroke goes to the surface); state: the page state
 * (`handedBack` counts the touches taken back from a control, for tests).
 */
export function keepTouchesOnSurface(surface, down, state) {
  let swallowClick = false;
  let handedBack = null; // the pointer id taken back, until its tap's click has passed
  state.handedBack = 0;
  document.addEventListener('pointerdown', function (e) {
    swallowClick = false;
    if (e.pointerType !== 'touch' || e.target === surface) return;
    // Given to something (a button, a panel that listens for presses) that is not under the
    // finger, while the surface is: the browser moved it.
    if (document.elementFromPoint(e.clientX, e.clientY) !== surface) return;
    e.stopImmediatePropagation();
    handedBack = e.pointerId;
    swallowClick = true;
    state.handedBack++;
    down(e);
  }, { capture: true, passive: false });
  // A touch that lands on the surface, whatever its target: no default action (above). Not
  // cancelled where the browser says it cannot be (a touch already scrolling something).
  document.addEventListener('touchstart', function (e) {
    if (!e.cancelable) return;
    for (const t of e.changedTouches) {
      if (t.target === surface || document.elementFromPoint(t.clientX, t.clientY) === surface) {
        e.preventDefault();
        return;
      }
    }
  }, { capture: true, passive: false });
  // A tap handed back still ends in a click on the control it was moved to: not for it.
  document.addEventListener('click', function (e) {
    if (!swallowClick) return;
    swallowClick = false;
    e.preventDefault();
    e.stopImmediatePropagation();
  }, true);
  const done = function (e) {
    if (e.pointerId !== handedBack) return;
    handedBack = null;
    // The click, if any, comes right after the lift; a later one (a key press) is not ours.
    setTimeout(function () { swallowClick = false; }, 400);
  };
  document.addEventListener('pointerup', done, true);
  document.addEventListener('pointercancel', done, true);
}
