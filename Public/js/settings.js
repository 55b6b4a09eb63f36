/* GesturePad: the settings sheet — pointer speed, acceleration, scrolling (kinetic too),
 * tapping, drag lock, left-handed — for this phone's connection (the additive `settings` message, docs/protocol.md).
 *
 * What the person changes is kept on the phone (localStorage, only the fields changed) and
 * sent after every `welcome` and on every change. The sheet always shows the values the
 * server answered, i.e. the ones in force. */
import { BOUNDS } from './wire.js'; // the server's range for each number

const STORE = 'gesturepad.settings';
const FIELDS = {
  speed: 'number', acceleration: 'accel', naturalScroll: 'bool', scrollSpeed: 'number', kineticScrolling: 'bool',
  tapToClick: 'bool', tapAndDrag: 'bool', dragLock: 'bool', leftHanded: 'bool'
};

/** A valid value of a field, or undefined. */
function valid(field, v) {
  switch (FIELDS[field]) {
    case 'number': return typeof v === 'number' && isFinite(v) ? Math.min(BOUNDS[field][1], Math.max(BOUNDS[field][0], Math.round(v * 100) / 100)) : undefined;
    case 'accel': return v === 'adaptive' || v === 'flat' ? v : undefined;
    case 'bool': return typeof v === 'boolean' ? v : undefined;
    default: return undefined;
  }
}

/** Only the known fields with valid values. */
function sanitize(obj) {
  var out = {};
  if (!obj || typeof obj !== 'object') return out;
  for (var k in FIELDS) {
    var v = valid(k, obj[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function load() {
  try { return sanitize(JSON.parse(localStorage.getItem(STORE) || '{}')); } catch (e) { return {}; }
}

function save(o) {
  try {
    if (Object.keys(o).length) localStorage.setItem(STORE, JSON.stringify(o));
    else localStorage.removeItem(STORE);
  } catch (e) { /* private mode: kept for this page only */ }
}

/**
 * opts: sheet (the sheet element), send(msg) → bool, state (the page state),
 * onAnswer(values).
 */
export class Settings {
  constructor(opts) {
    this.sheet = opts.sheet;
    this.send = opts.send;
    this.state = opts.state;
    this.onAnswer = opts.onAnswer || function () {};
    this.overrides = load();
    this.inForce = null;    // the server's last answer
    this.defaults = null;   // the connection's values before this phone's changes
    this.probing = false;
    this.state.settings = null;
    this.state.settingsStored = Object.assign({}, this.overrides);
    this.bind();
  }

  /** After every welcome of a connection that controls the computer: learn the values in
   * force (an empty `settings`), then apply this phone's (the answers come in order). */
  welcome() {
    this.probing = true;
    this.send({ type: 'settings' });
    if (Object.keys(this.overrides).length) this.send(Object.assign({ type: 'settings' }, this.overrides));
  }

  /** A `settings` answer from the server: the values in force. */
  answer(m) {
    var values = sanitize(m);
    if (this.probing) { this.defaults = values; this.probing = false; }
    this.inForce = values;
    this.state.settings = values;
    this.state.settingsDefaults = this.defaults;
    this.render();
    this.onAnswer(values);
  }

  /** The person changed a field in the sheet. */
  change(field, value) {
    value = valid(field, value);
    if (value === undefined) return;
    this.overrides[field] = value;
    save(this.overrides);
    this.state.settingsStored = Object.assign({}, this.overrides);
    var msg = { type: 'settings' };
    msg[field] = value;
    this.send(msg);
  }

  /** Back to the computer's defaults: forget this phone's changes and send the defaults. */
  reset() {
    this.overrides = {};
    save(this.overrides);
    this.state.settingsStored = {};
    if (this.defaults) this.send(Object.assign({ type: 'settings' }, this.defaults));
  }

  // ---- the sheet ------------------------------------------------------------------------------
  field(name) { return this.sheet.querySelector('[name="' + name + '"]'); }

  render() {
    var v = this.inForce;
    if (!v) return;
    for (var k in FIELDS) {
      var el = this.field(k);
      if (!el || v[k] === undefined) continue;
      if (FIELDS[k] === 'number') { el.value = String(v[k]); this.showNumber(k, v[k]); }
      else if (FIELDS[k] === 'accel') el.checked = v[k] === 'adaptive';
      else el.checked = !!v[k];
    }
    this.sheet.classList.add('ready');
  }

  showNumber(name, value) {
    var out = this.sheet.querySelector('output[for="set-' + name + '"]');
    if (out) out.textContent = Number(value).toFixed(1) + '×';
  }

  bind() {
    var self = this, sheet = this.sheet;
    sheet.addEventListener('input', function (e) {
      var el = e.target;
      if (el.type === 'range') self.showNumber(el.name, parseFloat(el.value)); // live, sent on change
    });
    sheet.addEventListener('change', function (e) {
      var el = e.target, name = el.name;
      if (!FIELDS[name]) return;
      if (FIELDS[name] === 'number') self.change(name, parseFloat(el.value));
      else if (FIELDS[name] === 'accel') self.change(name, el.checked ? 'adaptive' : 'flat');
      else self.change(name, el.checked);
    });
    var reset = sheet.querySelector('[data-action="reset"]');
    if (reset) reset.addEventListener('click', function () { self.reset(); });
  }
}
