/* GesturePad: the phone's keyboard, typing on the computer (CONTROL.md `text` and `key`).
 *
 * A hidden but focusable <textarea> opens the phone's soft keyboard. It is kept empty: what
 * lands in it goes out as `text` and is cleared. IME composition (pinyin, kana, Gboard's
 * underlined words) is left alone until `compositionend`, then the composed text goes out —
 * never the intermediate romaji / pinyin. Enter, Backspace, Tab, arrows… go out as `key`.
 * A row of special keys adds Esc, Tab, arrows, Home / End, PgUp / PgDn, Delete, volume and
 * media keys, and Shift / Ctrl / Alt / Meta as sticky modifiers: tapped once they apply to
 * the next key or typed character (sent as `key` with `modifiers`), tapped twice they stay
 * on until tapped again. */
const MODIFIERS = ['Shift', 'Control', 'Alt', 'Meta'];
/** Keys a hardware keyboard (or the soft keyboard's own keys) may send that are not text. */
const NAMED = {};
('Enter Tab Backspace Delete Insert Escape ArrowLeft ArrowRight ArrowUp ArrowDown Home End PageUp PageDown ' +
  'ContextMenu PrintScreen Pause ScrollLock NumLock CapsLock AudioVolumeUp AudioVolumeDown AudioVolumeMute ' +
  'MediaPlayPause MediaStop MediaTrackNext MediaTrackPrevious BrowserBack BrowserForward BrowserRefresh')
  .split(' ').forEach(function (k) { NAMED[k] = 1; });
for (let f = 1; f <= 12; f++) NAMED['F' + f] = 1;
/** Special keys that repeat while held on the key row. */
const REPEATS = { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, ArrowDown: 1, Backspace: 1, Delete: 1, PageUp: 1, PageDown: 1,
  AudioVolumeUp: 1, AudioVolumeDown: 1 };
const REPEAT_DELAY = 450, REPEAT_EVERY = 90;
const CHUNK = 500; // code points per `text` message (the server takes up to 1,000 characters)

/** Text the server can type: CR LF and CR become LF; other control characters and
 * Unicode noncharacters are dropped (the server would refuse the whole message). */
function cleanText(text) {
  text = String(text).replace(/\r\n?/g, '\n');
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]/g, '');
}

/** Splits text into messages of at most `size` code points (never inside a surrogate pair). */
function chunks(text, size) {
  var cps = Array.from(text), out = [];
  size = size || CHUNK;
  for (var i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''));
  return out;
}

/** The modifiers of a keyboard event, in protocol order. */
function eventModifiers(e) {
  var out = [];
  if (e.shiftKey) out.push('Shift');
  if (e.ctrlKey) out.push('Control');
  if (e.altKey) out.push('Alt');
  if (e.metaKey) out.push('Meta');
  return out;
}

/**
 * opts: input (the hidden <textarea>), keys (the special-keys row), button (the Keyboard
 * button), send(msg) → bool, buzz(pattern, why), onOpen(open), state (the page state:
 * `modifiers`, `keyboard`).
 */
export class Keyboard {
  constructor(opts) {
    this.input = opts.input;
    this.state = opts.state;
    this.keys = opts.keys;
    this.button = opts.button;
    this.send = opts.send;
    this.buzz = opts.buzz || function () {};
    this.onOpen = opts.onOpen || function () {};
    this.mods = { Shift: 'off', Control: 'off', Alt: 'off', Meta: 'off' };
    this.open = false;
    this.composing = false;
    this.swallow = false; // a composition taken over by a sticky modifier: drop its end
    this.repeatTimer = 0;
    this.bind();
    this.paintMods();
  }

  // ---- what goes out ----------------------------------------------------------------------
  /** The sticky modifiers now on, in protocol order. */
  activeMods() {
    var self = this;
    return MODIFIERS.filter(function (m) { return self.mods[m] !== 'off'; });
  }

  /** After a key or character: modifiers tapped once are used up; locked ones stay. */
  consumeMods() {
    var changed = false;
    for (var i = 0; i < MODIFIERS.length; i++) if (this.mods[MODIFIERS[i]] === 'once') { this.mods[MODIFIERS[i]] = 'off'; changed = true; }
    if (changed) this.paintMods();
  }

  /** Sends `key` with the event's modifiers and the sticky ones. */
  pressKey(key, extra) {
    var mods = this.activeMods();
    (extra || []).forEach(function (m) { if (mods.indexOf(m) < 0) mods.push(m); });
    mods.sort(function (a, b) { return MODIFIERS.indexOf(a) - MODIFIERS.indexOf(b); });
    var msg = { type: 'key', key: key };
    if (mods.length) msg.modifiers = mods;
    this.send(msg);
    this.consumeMods();
  }

  /** Sends typed text. With a sticky modifier on, its first character goes out as `key` with
   * the modifiers (Ctrl + c), the rest as text. */
  typeText(text) {
    text = cleanText(text);
    if (!text) return;
    if (this.activeMods().length) {
      var first = Array.from(text)[0];
      this.pressKey(first === '\n' ? 'Enter' : first === '\t' ? 'Tab' : first);
      text = text.slice(first.length);
      if (!text) return;
    }
    var parts = chunks(text);
    for (var i = 0; i < parts.length; i++) this.send({ type: 'text', text: parts[i] });
  }

  /** Sends what the hidden input holds and empties it. */
  flushField() {
    var v = this.input.value;
    this.input.value = '';
    if (v) this.typeText(v);
  }

  // ---- the hidden input ---------------------------------------------------------------------
  bind() {
    var self = this, input = this.input;
    input.addEventListener('keydown', function (e) { self.onKeyDown(e); });
    input.addEventListener('beforeinput', function (e) { self.onBeforeInput(e); });
    input.addEventListener('input', function (e) { self.onInput(e); });
    input.addEventListener('compositionstart', function () { self.composing = true; });
    input.addEventListener('compositionend', function () {
      self.composing = false;
      if (self.swallow) { self.swallow = false; self.input.value = ''; return; }
      self.flushField(); // the composed text, once: later input events find the field empty
    });
    input.addEventListener('blur', function () { self.paintButton(); });
    input.addEventListener('focus', function () { self.paintButton(); });

    // The Keyboard button must not take the focus from the input (it would close the soft
    // keyboard before the click could tell "close" from "open").
    this.button.addEventListener('mousedown', function (e) { e.preventDefault(); });
    this.button.addEventListener('click', function () { self.toggle(); });

    // The key row: keys go out on pointerdown (and repeat while held); modifiers toggle on
    // click. Nothing here takes the focus from the input.
    var keys = this.keys;
    keys.addEventListener('mousedown', function (e) { e.preventDefault(); });
    keys.addEventListener('pointerdown', function (e) {
      var b = e.target.closest && e.target.closest('button[data-key]');
      if (!b) return;
      e.preventDefault();
      try { b.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
      self.pressKey(b.dataset.key);
      self.buzz(8, 'key');
      b.classList.add('down');
      self.stopRepeat();
      if (REPEATS[b.dataset.key]) {
        self.repeatTimer = setTimeout(function tick() {
          self.pressKey(b.dataset.key);
          self.repeatTimer = setTimeout(tick, REPEAT_EVERY);
        }, REPEAT_DELAY);
      }
    });
    var stop = function (e) {
      var b = e.target.closest && e.target.closest('button[data-key]');
      if (b) b.classList.remove('down');
      self.stopRepeat();
    };
    ['pointerup', 'pointercancel', 'lostpointercapture'].forEach(function (t) { keys.addEventListener(t, stop); });
    keys.addEventListener('click', function (e) {
      var b = e.target.closest && e.target.closest('button');
      if (!b) return;
      if (b.dataset.mod) { self.cycleMod(b.dataset.mod); return; }
      // A click without a pointer (keyboard, screen reader) presses the key too.
      if (b.dataset.key && e.detail === 0) self.pressKey(b.dataset.key);
    });
  }

  stopRepeat() { clearTimeout(this.repeatTimer); this.repeatTimer = 0; }

  onKeyDown(e) {
    if (e.isComposing || this.composing || e.keyCode === 229) return; // the IME has it
    var key = e.key;
    if (!key || key === 'Unidentified' || MODIFIERS.indexOf(key) >= 0 || key === 'AltGraph') return;
    var mods = eventModifiers(e);
    if (NAMED[key]) {
      e.preventDefault();
      this.pressKey(key, mods);
    } else if (Array.from(key).length === 1 && (e.ctrlKey || e.altKey || e.metaKey) &&
               !(e.getModifierState && e.getModifierState('AltGraph'))) {
      e.preventDefault(); // a shortcut from a hardware keyboard: Ctrl + c
      this.pressKey(key, mods);
    }
    // Anything else is text: it arrives through `input`.
  }

  onBeforeInput(e) {
    if (e.isComposing || this.composing) return;
    var key = { deleteContentBackward: 'Backspace', deleteContentForward: 'Delete', insertLineBreak: 'Enter',
      insertParagraph: 'Enter', deleteWordBackward: 'Backspace', deleteWordForward: 'Delete' }[e.inputType];
    if (!key) return;
    e.preventDefault();
    this.pressKey(key, /Word/.test(e.inputType) ? ['Control'] : []);
  }

  onInput(e) {
    // The event knows best: a composition may end without a compositionend (the field was
    // emptied while composing), and a stale flag would swallow the next text.
    if (typeof e.isComposing === 'boolean') this.composing = e.isComposing;
    if (this.composing) {
      // A sticky modifier waiting: the first composed character is the key (Ctrl + c on a
      // keyboard that composes every word); the composition is dropped.
      if (this.activeMods().length && !this.swallow && e.data) {
        var first = Array.from(cleanText(e.data))[0];
        if (!first) return;
        this.swallow = true;
        this.pressKey(first);
        this.resetField();
      }
      return;
    }
    this.flushField();
  }

  /** Ends any composition and empties the field, keeping the soft keyboard open. */
  resetField() {
    var input = this.input;
    input.value = '';
    input.blur();
    input.focus({ preventScroll: true });
    // Chrome drops the composition without a compositionend; others end it (swallowed).
    this.composing = false;
    this.swallow = false;
  }

  // ---- sticky modifiers -----------------------------------------------------------------
  /** off → once (the next key) → locked (until tapped again) → off. */
  cycleMod(mod) {
    var next = { off: 'once', once: 'locked', locked: 'off' }[this.mods[mod]] || 'off';
    this.mods[mod] = next;
    this.paintMods();
    this.buzz(next === 'locked' ? [8, 40, 8] : 8, 'modifier');
  }

  clearMods() {
    for (var i = 0; i < MODIFIERS.length; i++) this.mods[MODIFIERS[i]] = 'off';
    this.paintMods();
  }

  paintMods() {
    var buttons = this.keys.querySelectorAll('button[data-mod]');
    for (var i = 0; i < buttons.length; i++) {
      var st = this.mods[buttons[i].dataset.mod] || 'off';
      buttons[i].dataset.state = st;
      buttons[i].setAttribute('aria-pressed', st === 'off' ? 'false' : 'true');
    }
    this.state.modifiers = Object.assign({}, this.mods);
  }

  // ---- opening and closing ------------------------------------------------------------------
  /** Closed → open (soft keyboard up, key row shown). Open with the soft keyboard gone →
   * brings it back. Open and typing → closes both. */
  toggle() {
    if (!this.open) this.show();
    else if (document.activeElement !== this.input) this.focus();
    else this.hide();
  }

  show() {
    this.open = true;
    this.keys.hidden = false;
    this.focus();
    this.onOpen(true);
    this.paintButton();
  }

  focus() {
    var input = this.input;
    if (document.activeElement === input) input.blur(); // Android shows the keyboard on a new focus only
    input.focus({ preventScroll: true });
    this.paintButton();
  }

  hide() {
    if (this.composing) { this.swallow = true; this.input.value = ''; } // an unfinished composition is dropped
    this.open = false;
    this.keys.hidden = true;
    this.stopRepeat();
    this.clearMods();
    this.input.blur();
    this.onOpen(false);
    this.paintButton();
  }

  paintButton() {
    this.button.setAttribute('aria-pressed', this.open ? 'true' : 'false');
    this.button.classList.toggle('on', this.open);
    this.state.keyboard = { open: this.open, focused: document.activeElement === this.input };
  }
}

