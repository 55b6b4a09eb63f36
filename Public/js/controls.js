/* GesturePad: the touchpad's controls for the computer — shown only when the server drives
 * the computer (welcome.control.active): the toolbar (Presenter, Keyboard, Mouse buttons,
 * Settings), the keyboard and its special-keys row (keyboard.js), the optional mouse-button bar
 * and the settings sheet (settings.js); and the two views over the surface, one at a time:
 * media (media.js: also without control, once the server speaks of media — the toolbar then
 * holds its button alone) and presenter (presenter.js). Closed, they leave the touch surface
 * alone. */
import { controlActive } from './link-texts.js';
import { Keyboard } from './keyboard.js';
import { MediaView } from './media.js';
import { PresenterView } from './presenter.js';
import { Settings } from './settings.js';

const BAR_KEY = 'gesturepad.mouseBar';
const HOLD_MS = 250; // a bar button held this long goes down (and up at release); shorter: a click

function $(id) { return document.getElementById(id); }

/** The toolbar button that opens each view. */
const VIEW_BUTTONS = { media: 'media-open', presenter: 'presenter-open' };

/** opts: conn, state (the page state), buzz(pattern, why), toast(text), onToolbar() (the
 * toolbar's buttons changed: the hint's legend names those shown). */
export class Controls {
  constructor(opts) {
    var self = this;
    this.conn = opts.conn;
    this.state = opts.state;
    this.buzz = opts.buzz;
    this.toast = opts.toast;
    this.onToolbar = opts.onToolbar || function () {};
    this.active = false;
    // The server spoke of media (a `media` message came): the media view has something to say.
    this.mediaSpoken = false;
    this.view = null;   // the view shown over the surface: 'media', 'presenter' or null
    // The server's backend is the desktop's own touchpad (`touchpad`): touches are passed
    // through and the desktop does the gestures, with its own touchpad settings.
    this.native = false;
    // The backend draws a spotlight around the computer's pointer (`x11`): the presenter's
    // Pointer turns it on; it is on while `spotlight` (docs/page.md "Presenter").
    this.spotlightable = false;
    this.spotlight = false;
    this.live = false;  // the connection is live: the controls work (else shown disabled)
    this.root = document.body;
    this.dock = $('dock');
    this.bar = $('mousebar');
    this.sheet = $('sheet');
    this.barButton = $('mousebar-toggle');
    this.settingsButton = $('settings-open');
    this.held = null; // the bar button being pressed: {button, el, pointerId, down, timer}
    var send = function (msg) { return self.sendControl(msg); };

    this.keyboard = new Keyboard({
      input: $('kbd-input'), keys: $('keys'), button: $('keyboard'), send: send, buzz: this.buzz, state: this.state,
      onOpen: function () { self.layout(); }
    });
    this.settings = new Settings({ sheet: this.sheet, send: send, state: this.state });

    // The views: media commands need no control of the computer (only a live connection); the
    // computer's volume and the slide keys are `key` messages, which do.
    var sendKey = function (key) { return self.sendControl({ type: 'key', key: key }); };
    this.views = {
      media: new MediaView({ root: $('media-view'), state: this.state, buzz: this.buzz, sendKey: sendKey,
        send: function (msg) { return self.conn.send(msg); } }),
      presenter: new PresenterView({ root: $('presenter-view'), state: this.state, buzz: this.buzz, sendKey: sendKey })
    };
    this.state.view = null;
    this.state.spotlight = false;
    Object.keys(VIEW_BUTTONS).forEach(function (name) {
      $(VIEW_BUTTONS[name]).addEventListener('click', function () { self.openView(self.view === name ? null : name); });
    });
    // Each view's own bar: back to the touchpad, or over to the other view. The presenter's
    // Pointer also turns the spotlight on, where the backend has one.
    document.querySelectorAll('.view [data-view]').forEach(function (b) {
      b.addEventListener('click', function () {
        var from = self.view;
        self.openView(b.dataset.view === 'touchpad' ? null : b.dataset.view);
        if (from === 'presenter' && b.dataset.view === 'touchpad') self.setSpotlight(true);
      });
    });
    $('spotlight-off').addEventListener('click', function () { self.setSpotlight(false); self.buzz(8, 'spotlight off'); });
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && self.view && !e.defaultPrevented && e.target !== $('kbd-input')) self.openView(null);
    });

    // Mouse-button bar.
    var barOn = false;
    try { barOn = localStorage.getItem(BAR_KEY) === '1'; } catch (e) { /* private mode */ }
    this.setBar(barOn, false);
    this.barButton.addEventListener('click', function () { self.setBar(self.bar.hidden, true); });
    this.bindBar();

    // Settings sheet.
    this.settingsButton.addEventListener('click', function () { self.openSheet(!self.sheetOpen); });
    this.sheet.querySelector('[data-action="close"]').addEventListener('click', function () { self.openSheet(false); });
    $('sheet-backdrop').addEventListener('click', function () { self.openSheet(false); });
    this.sheetOpen = false;

    // The dock (key row, button bar) sits above the soft keyboard where the browser overlays it.
    if (window.visualViewport) {
      var vv = window.visualViewport;
      var inset = function () {
        var kb = Math.max(0, Math.round(window.innerHeight - vv.height - vv.offsetTop));
        document.documentElement.style.setProperty('--kb', kb + 'px');
        self.layout();
      };
      vv.addEventListener('resize', inset);
      vv.addEventListener('scroll', inset);
    }
    if (window.ResizeObserver) new ResizeObserver(function () { self.layout(); }).observe(this.dock);
    this.show(false);
  }

  /** Sends a control message while live (the connection drops it otherwise). */
  sendControl(msg) {
    if (!this.active) return false;
    return this.conn.send(msg);
  }

  /** welcome: show or hide everything, apply this phone's settings, and ask to hear the media
   * players (with or without control: no page hears them unasked). */
  welcome(welcome) {
    this.show(controlActive(welcome), welcome && welcome.control && welcome.control.backend);
    if (this.active) this.settings.welcome();
    this.views.media.watch();
  }

  show(on, backend) {
    this.active = on;
    this.native = on && backend === 'touchpad';
    this.spotlightable = on && backend === 'x11';
    this.state.nativeTouchpad = this.native;
    this.root.classList.toggle('control', on);
    this.root.classList.toggle('native-touchpad', this.native);
    if (this.view && !this.viewAllowed(this.view)) this.openView(null);
    this.apply();
  }

  /** The connection went live or stopped being live. Not live, the toolbar stays where it is
   * but is disabled, and the keyboard, the key row, the button bar and the sheet close: none
   * of them would reach the computer (the page says why, status.js). */
  setLive(live) {
    this.live = live;
    this.apply();
  }

  apply() {
    var usable = this.active && this.live;
    this.dock.hidden = !usable;
    $('kbd-input').hidden = !usable; // out of the accessibility tree too
    // The toolbar: with control, every button (Media once the server spoke of media); without,
    // Media alone, or no toolbar at all.
    $('tools').hidden = !this.active && !this.mediaSpoken;
    this.root.classList.toggle('has-tools', !$('tools').hidden);
    var buttons = $('tools').querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) {
      var media = buttons[i].id === 'media-open';
      buttons[i].hidden = media ? !this.mediaSpoken : !this.active;
      buttons[i].disabled = media ? !this.live : !usable;
    }
    document.querySelectorAll('.view [data-view]').forEach(function (b) {
      if (b.dataset.view !== 'touchpad') b.hidden = !this.viewAllowed(b.dataset.view);
    }, this);
    this.views.media.setUsable(this.live);
    this.views.media.setKeys(this.active);
    this.views.presenter.setUsable(usable);
    // Not usable: the server hid the spotlight when control stopped or the connection went.
    if (!usable || !this.spotlightable) this.setSpotlight(false, false);
    if (!usable) {
      if (this.keyboard.open) this.keyboard.hide();
      this.openSheet(false);
      this.release();
    }
    this.state.controlShown = this.active;
    this.state.controlUsable = usable;
    this.layout();
    this.onToolbar();
  }

  // ---- the views over the surface -------------------------------------------------------------
  /** Whether a view can be shown: media once the server spoke of it, presenter with control. */
  viewAllowed(name) {
    return name === 'media' ? this.mediaSpoken : name === 'presenter' ? this.active : false;
  }

  /** Shows the view `name` over the surface (the keyboard, the sheet and the panels close), or
   * none (null): back to the touchpad, the focus back on the toolbar button of the view left. */
  openView(name) {
    if (name && !this.viewAllowed(name)) name = null;
    var before = this.view;
    if (name === before) return;
    this.view = name;
    if (name) {
      this.setSpotlight(false);
      if (this.keyboard.open) this.keyboard.hide();
      this.openSheet(false);
      this.release();
    }
    for (var k in this.views) this.views[k].setOpen(k === name);
    if (before === 'media') this.views.media.release();
    this.root.classList.toggle('view-open', !!name);
    for (var v in VIEW_BUTTONS) {
      var b = $(VIEW_BUTTONS[v]);
      b.setAttribute('aria-pressed', v === name ? 'true' : 'false');
      b.classList.toggle('on', v === name);
    }
    if (name) $(name + '-heading').focus({ preventScroll: true });
    else if (before && !$(VIEW_BUTTONS[before]).hidden) $(VIEW_BUTTONS[before]).focus({ preventScroll: true });
    this.state.view = name;
    this.layout();
  }

  /** The spotlight on (the backend can draw one, and the page can reach it) or off; `tell`
   * false: only the page's own state (the server hid it already). */
  setSpotlight(on, tell) {
    on = on && this.spotlightable && this.active && this.live;
    if (on === this.spotlight) return;
    if (tell !== false && !this.sendControl({ type: 'spotlight', do: on ? 'show' : 'hide' }) && on) return;
    this.spotlight = on;
    this.state.spotlight = on;
    $('spotlight-off').hidden = !on;
  }

  /** A message from the server: `settings`, `control`, and the media view's (`media`,
   * `media-art`, the `media_unavailable` error), kept by the view also while it is closed. */
  message(m) {
    if (m.type === 'media' && !this.mediaSpoken) {
      this.mediaSpoken = true; // the Media button appears
      this.apply();
    }
    this.views.media.message(m);
    if (m.type === 'settings') {
      this.settings.answer(m);
      // What the page cannot change but shows (the feed): tap buttons, pinch zoom, bound swipes.
      this.state.mapping = { tapButtons: m.tapButtons, pinchZoom: m.pinchZoom, swipes: m.swipes };
    }
    // The server's control went off (the desktop revoked it) or came back (docs/protocol.md).
    if (m.type === 'control') {
      var on = m.active === true;
      this.state.control = { active: on, backend: m.backend, reason: m.reason };
      if (on !== this.active) {
        this.show(on, m.backend);
        if (on) this.settings.welcome();
        this.toast(on ? 'The phone drives the computer again' : 'Control is off: ' + (m.reason || ''));
      }
    }
  }

  /** The height the dock takes at the bottom, for the feed and the toolbar to sit above it. */
  layout() {
    var h = this.dock.hidden ? 0 : this.dock.getBoundingClientRect().height;
    document.documentElement.style.setProperty('--dock', Math.round(h) + 'px');
  }

  // ---- mouse-button bar -----------------------------------------------------------------------
  setBar(on, remember) {
    this.bar.hidden = !on;
    this.barButton.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.barButton.classList.toggle('on', on);
    if (!on) this.release();
    if (remember) { try { if (on) localStorage.setItem(BAR_KEY, '1'); else localStorage.removeItem(BAR_KEY); } catch (e) { /* ignore */ } }
    this.state.mouseBar = on;
    this.layout();
  }

  /** Press and hold: `down`, then `up` at release. A short press: `click`. */
  bindBar() {
    var self = this, bar = this.bar;
    bar.addEventListener('mousedown', function (e) { e.preventDefault(); }); // keep the soft keyboard's focus
    // A finger holding a button while another moves on the surface: its pointerdown is not
    // cancelled (Gecko would drop the other finger, surface.js), its touchstart is.
    bar.addEventListener('touchstart', function (e) {
      if (e.cancelable && e.target.closest && e.target.closest('button[data-button]')) e.preventDefault();
    }, { passive: false });
    bar.addEventListener('pointerdown', function (e) {
      var b = e.target.closest && e.target.closest('button[data-button]');
      if (!b || self.held) return;
      if (e.pointerType !== 'touch') e.preventDefault();
      try { b.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
      var h = self.held = { button: b.dataset.button, el: b, pointerId: e.pointerId, down: false, timer: 0 };
      b.classList.add('down');
      h.timer = setTimeout(function () {
        if (self.held !== h) return;
        h.down = true;
        self.sendControl({ type: 'button', button: h.button, action: 'down' });
        self.buzz(20, 'button down');
      }, HOLD_MS);
    });
    var end = function (e, cancelled) {
      var h = self.held;
      if (!h || h.pointerId !== e.pointerId) return;
      self.held = null;
      clearTimeout(h.timer);
      h.el.classList.remove('down');
      if (h.down) self.sendControl({ type: 'button', button: h.button, action: 'up' });
      else if (!cancelled) { self.sendControl({ type: 'button', button: h.button, action: 'click' }); self.buzz(12, 'click'); }
    };
    bar.addEventListener('pointerup', function (e) { end(e, false); });
    bar.addEventListener('pointercancel', function (e) { end(e, true); });
    bar.addEventListener('lostpointercapture', function (e) { end(e, true); });
    bar.addEventListener('click', function (e) {
      // A click without a pointer (keyboard, screen reader).
      var b = e.target.closest && e.target.closest('button[data-button]');
      if (b && e.detail === 0) self.sendControl({ type: 'button', button: b.dataset.button, action: 'click' });
    });
  }

  /** Lets go of a bar button held down (page hidden, bar closed, control gone). */
  release() {
    this.views.media.release();
    var h = this.held;
    if (!h) return;
    this.held = null;
    clearTimeout(h.timer);
    h.el.classList.remove('down');
    if (h.down) this.conn.send({ type: 'button', button: h.button, action: 'up' });
  }

  // ---- settings sheet -----------------------------------------------------------------------
  openSheet(open) {
    this.sheetOpen = open;
    this.sheet.hidden = !open;
    $('sheet-backdrop').hidden = !open;
    this.root.classList.toggle('sheet-open', open);
    this.settingsButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open && this.keyboard.open) this.keyboard.hide();
    if (open) this.sheet.querySelector('h2').focus({ preventScroll: true });
    this.state.sheetOpen = open;
  }
}
