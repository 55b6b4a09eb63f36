/* GesturePad: the hint in the middle of the touch surface — what a touch does here and, until
 * this phone's first touch, what the icon-only buttons are (the legend, each row with the
 * button's own icon). Shown only while the connection is live (not live, the notice says why
 * and what to do), and gone at the first touch. */
const SEEN = 'gesturepad.hintSeen';
const CONTROL = 'Touchpad ready<br><small>move · tap to click · two fingers scroll · pinch zooms · three fingers swipe' +
  ' · the keyboard button types on the computer</small>';
const GESTURES = 'Touch anywhere<br><small>tap · hold · drag · swipe · two-finger scroll · pinch · rotate</small>';
// The `touchpad` backend: the phone is the computer's own touchpad, whose settings and gestures apply.
const NATIVE = "The computer's own touchpad<br><small>its touchpad settings apply: move · tap to click (if on there)" +
  ' · two fingers scroll and glide on · three and four fingers swipe · pinch · the keyboard button types on the computer</small>';

export class Hint {
  /** el: the hint (its <p> and the #legend list); state: the page state (`hint`). */
  constructor(el, state) {
    this.el = el;
    this.state = state;
    this.words = el.querySelector('p');
    this.legend = el.querySelector('.legend');
    this.live = false;
    this.gone = false;
    this.seen = false;
    try { this.seen = localStorage.getItem(SEEN) === '1'; } catch (e) { /* private mode */ }
    for (const li of this.legend.querySelectorAll('li')) {
      const button = document.getElementById(li.dataset.for);
      const icon = button && button.querySelector('svg');
      if (icon) li.prepend(icon.cloneNode(true));
    }
    this.render();
  }

  /** A welcome: the words for what a touch does, with or without control of the computer, or
   * as the desktop's own touchpad (`native`: the desktop does the gestures); and which computer
   * the phone drives, through which backend (the page state's `host` and `control`, from the
   * same welcome). */
  welcome(control, native) {
    this.words.innerHTML = native ? NATIVE : control ? CONTROL : GESTURES;
    const host = this.state.host, backend = this.state.control && this.state.control.backend;
    const where = this.el.querySelector('.where');
    if (where) {
      where.textContent = !host ? '' : control && backend ? 'Drives “' + host + '” through ' + backend
        : 'On “' + host + '”: gestures are shown, not sent to its pointer';
      where.hidden = !where.textContent;
    }
    this.render();
  }

  setLive(live) {
    this.live = live;
    this.render();
  }

  /** The first touch on the surface: the hint fades, and the legend is not shown again. */
  touched() {
    if (this.gone) return;
    this.gone = true;
    this.seen = true;
    try { localStorage.setItem(SEEN, '1'); } catch (e) { /* private mode */ }
    this.render();
  }

  render() {
    this.el.hidden = !this.live;
    this.el.classList.toggle('gone', this.gone);
    const rows = [];
    for (const li of this.legend.querySelectorAll('li')) {
      const button = document.getElementById(li.dataset.for);
      li.hidden = !button || button.hidden || !!button.closest('[hidden]');
      if (!li.hidden) rows.push(li.dataset.for);
    }
    this.legend.hidden = this.seen || !rows.length;
    this.el.classList.toggle('with-legend', !this.legend.hidden);
    this.state.hint = { shown: this.live && !this.gone, legend: this.legend.hidden ? [] : rows, text: this.words.textContent };
  }
}
