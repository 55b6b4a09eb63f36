/* GesturePad: what the computer holds down for this phone, as the server says it (the `held`
 * message, docs/protocol.md): the buttons, the keys, and `until` — on the page's own clock —
 * when the server lets go of its touch button by itself (a tap waiting for a drag, a drag
 * lock). Nothing is guessed: what no message said is not shown. A button of the mouse-button
 * bar or a key of the key row that the computer holds has the pressed look; a drag that ends
 * with its button locked (the button stays held and gets an `until`) buzzes. */

const NOTHING = { buttons: [], keys: [], until: null, at: null };

/** The strings of a list field (anything else: none). */
function names(list) {
  return Array.isArray(list) ? list.filter(function (n) { return typeof n === 'string'; }) : [];
}

export class Held {
  /** opts: state (the page state: `held` is written there), dock (the element holding the
   * button bar and the key row), buzz(pattern, why). */
  constructor(opts) {
    this.state = opts.state;
    this.dock = opts.dock;
    this.buzz = opts.buzz;
    this.show(NOTHING);
  }

  /** A message from the server: `held` replaces what is shown. */
  message(m) {
    if (m.type !== 'held') return;
    var before = this.state.held;
    var now = {
      buttons: names(m.buttons), keys: names(m.keys),
      until: typeof m.until === 'number' ? m.until : null, at: performance.now()
    };
    var kept = now.buttons.some(function (b) { return before.buttons.indexOf(b) >= 0; });
    if (now.until !== null && before.until === null && kept) this.buzz([15, 60, 15], 'drag lock');
    this.show(now);
  }

  /** The connection went down or a new one began: the server holds nothing for it. */
  clear() {
    if (this.state.held.buttons.length || this.state.held.keys.length) this.show(NOTHING);
  }

  /** Whether the computer holds a button for this phone (the feed calls a drag a drag). */
  get button() { return this.state.held.buttons.length > 0; }

  show(held) {
    this.state.held = held;
    var els = this.dock.querySelectorAll('button[data-button], button[data-key], button[data-mod]');
    for (var i = 0; i < els.length; i++) {
      var d = els[i].dataset;
      var on = d.button ? held.buttons.indexOf(d.button) >= 0 : held.keys.indexOf(d.key || d.mod) >= 0;
      els[i].classList.toggle('held', on);
    }
  }
}
