/* GesturePad touchpad: captures Pointer Events (coalesced moves) or, where PointerEvent is
 * missing, Touch Events; queues protocol messages (sent as one batch per animation frame);
 * draws what the server recognized. */
(function () {
  'use strict';
  var GP = window.GP;
  var canvas = document.getElementById('surface');
  var r2 = GP.round2, r3 = GP.round3;
  var down = {};       // pointer ids in contact
  var hovering = {};   // mouse / pen ids hovering
  var size = surfaceSize();

  var view = new GP.View(canvas, { obstacles: panels });
  /** Page panels over the surface (feed rows, toolbar, key row and button bar), for the live
   * view's labels to keep clear of. */
  function panels() {
    var out = [], els = document.querySelectorAll('#feed li, #tools:not([hidden]), #keys:not([hidden]), #mousebar:not([hidden]), .bar > *');
    for (var i = 0; i < els.length; i++) {
      var r = els[i].getBoundingClientRect();
      if (r.width) out.push({ x: r.left, y: r.top, w: r.width, h: r.height });
    }
    return out;
  }
  var feed = new GP.Feed(document.getElementById('feed'), { max: 6 });
  var hint = document.getElementById('hint');
  var statusEl = document.getElementById('status');
  var rttEl = document.getElementById('rtt');
  var showStatus = GP.bindStatus(statusEl);

  var conn = new GP.Connection({
    role: 'touchpad',
    hello: function () {
      size = surfaceSize();
      return { type: 'hello', protocol: 1, role: 'touchpad', width: size.w, height: size.h,
        dpr: window.devicePixelRatio || 1, client: 'gesturepad-page/1' };
    },
    onStatus: function (status, detail) {
      showStatus(status, detail);
      if (status !== 'live') { rttEl.textContent = '– ms'; }
      wakeLock(status === 'live');
    },
    onLive: function (welcome) {
      if (welcome.config) view.config = welcome.config;
      controls.welcome(welcome);
      if (hint) hint.innerHTML = controls.active
        ? 'Touchpad ready<br><small>move · tap to click · two fingers scroll · pinch zooms · three fingers swipe</small>'
        : 'Touch anywhere<br><small>tap · hold · drag · swipe · two-finger scroll · pinch · rotate</small>';
    },
    onDown: function () { down = {}; hovering = {}; view.clearActive(); controls.release(); },
    busy: function () { return Object.keys(down).length > 0 || Object.keys(hovering).length > 0; },
    onMessage: function (m) {
      controls.message(m);
      if (m.type !== 'gesture') return;
      view.gesture(m);
      feed.add(m);
      if (m.gesture === 'tap') buzz(12, controls.active && clicks() ? 'click' : 'tap');
      else if (m.gesture === 'longPress' && m.phase === 'began') buzz(35, 'long press');
      else if (m.gesture === 'longPressDrag' && m.phase === 'began') dragLock.buttonHeld(m.t);
    }
  });
  conn.onRtt = function (rtt) { rttEl.textContent = (rtt < 10 ? rtt.toFixed(1) : Math.round(rtt)) + ' ms'; };
  var state = conn.state;
  state.drawn = view.drawn;
  state.input = window.PointerEvent ? 'pointer' : 'touch';
  state.haptics = [];
  state.frame = view.record;
  GP.bindDetails(document.getElementById('details'), feed, view);
  var controls = new GP.Controls({ conn: conn, state: state, buzz: buzz });

  /** Whether taps click on the computer with the settings in force. */
  function clicks() { return !state.settings || state.settings.tapToClick !== false; }

  function surfaceSize() {
    return { w: r2(canvas.clientWidth || window.innerWidth), h: r2(canvas.clientHeight || window.innerHeight) };
  }

  function emit(msg) { conn.send(msg); dragLock.input(msg); }

  /* Drag lock, seen from the page: the server says nothing when it keeps a button down, so the
   * page follows its own touches with the settings in force. A one-finger touch that starts
   * within multiTapInterval of a tap (tap-and-drag), a long-press drag, or a touch while a lock
   * is on holds the button; when that finger lifts after moving beyond slop, with drag lock
   * on, the button stays down: a haptic pulse says so. */
  var dragLock = {
    count: 0, lastTap: -1e9, lockedUntil: -1e9, holding: false, moved: false, finger: null, start: null,
    cfg: function (k, d) { return state.config && typeof state.config[k] === 'number' ? state.config[k] : d; },
    on: function () { return controls.active && state.settings && state.settings.dragLock === true; },
    input: function (m) {
      if (m.pointerType !== 'touch' && m.type !== 'cancel') return;
      var slop = this.cfg('slop', 10);
      if (m.type === 'down') {
        this.count++;
        if (this.count === 1) {
          var tapDrag = state.settings && state.settings.tapAndDrag !== false && clicks() &&
            m.t - this.lastTap <= this.cfg('multiTapInterval', 300);
          this.holding = tapDrag || m.t <= this.lockedUntil;
          this.moved = false; this.finger = m.id; this.start = { x: m.x, y: m.y, t: m.t };
          this.lockedUntil = -1e9;
        } else { this.holding = false; } // a second finger releases the drag
      } else if (m.type === 'move' && m.id === this.finger && this.start) {
        if (Math.hypot(m.x - this.start.x, m.y - this.start.y) > slop) this.moved = true;
      } else if (m.type === 'up' || m.type === 'cancel') {
        this.count = Math.max(0, m.id === 'all' ? 0 : this.count - 1);
        if (m.type === 'up' && m.id === this.finger) {
          var s0 = this.start;
          if (this.holding && this.moved && m.type === 'up' && this.on()) {
            this.lockedUntil = m.t + 1000; // the server's dragLockTimeout default
            buzz([15, 60, 15], 'drag lock');
          } else if (s0 && !this.moved && m.t - s0.t <= this.cfg('tapMaxDuration', 250)) {
            this.lastTap = m.t;
          }
          this.holding = false; this.finger = null;
        }
        if (m.type === 'cancel') { this.holding = false; this.finger = null; }
      }
    },
    buttonHeld: function () { if (this.finger !== null) { this.holding = true; this.moved = true; } }
  };

  function firstTouch() { if (hint) { hint.classList.add('gone'); hint = null; } }

  // ---- Pointer Events -------------------------------------------------------------------
  function pointerMsg(type, e) {
    var m = { type: type, id: e.pointerId, x: r2(e.clientX), y: r2(e.clientY), t: r3(e.timeStamp), pointerType: e.pointerType || 'touch' };
    if (type !== 'up') {
      if (e.pointerType === 'pen' || (e.pointerType === 'touch' && e.pressure > 0 && e.pressure !== 0.5)) m.pressure = r3(e.pressure);
      if (e.pointerType !== 'touch') m.buttons = e.buttons;
    }
    return m;
  }

  function onPointerDown(e) {
    e.preventDefault();
    firstTouch();
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* already gone */ }
    down[e.pointerId] = true;
    delete hovering[e.pointerId];
    emit(pointerMsg('down', e));
    view.pointer('down', e.pointerId, e.clientX, e.clientY);
  }

  function onPointerMove(e) {
    var isDown = !!down[e.pointerId];
    if (!isDown && e.pointerType === 'touch') return;
    if (!isDown) hovering[e.pointerId] = true;
    var list = (e.getCoalescedEvents && e.getCoalescedEvents()) || [];
    if (!list.length) list = [e];
    for (var i = 0; i < list.length; i++) {
      var c = list[i];
      var m = pointerMsg('move', c);
      m.id = e.pointerId; m.pointerType = e.pointerType || 'touch';
      emit(m);
    }
    view.pointer(isDown ? 'move' : 'hover', e.pointerId, e.clientX, e.clientY);
  }

  function onPointerUp(e) {
    if (!down[e.pointerId]) return;
    delete down[e.pointerId];
    emit(pointerMsg('up', e));
    view.pointer('up', e.pointerId);
  }

  function onPointerCancel(e) {
    if (!down[e.pointerId] && !hovering[e.pointerId]) return;
    delete down[e.pointerId]; delete hovering[e.pointerId];
    emit({ type: 'cancel', id: e.pointerId, t: r3(e.timeStamp) });
    view.pointer('cancel', e.pointerId);
  }

  function onPointerLeave(e) {
    if (!hovering[e.pointerId] || down[e.pointerId]) return;
    delete hovering[e.pointerId];
    emit({ type: 'leave', id: e.pointerId, t: r3(e.timeStamp) });
    view.pointer('cancel', e.pointerId);
  }

  // ---- Touch Events (no PointerEvent) --------------------------------------------------
  function touchMsgs(type, e) {
    var list = e.changedTouches;
    for (var i = 0; i < list.length; i++) {
      var tc = list[i], id = tc.identifier;
      if (type === 'cancel') { delete down[id]; emit({ type: 'cancel', id: id, t: r3(e.timeStamp) }); view.pointer('cancel', id); continue; }
      if (type === 'down') down[id] = true;
      else if (!down[id]) continue;
      if (type === 'up') delete down[id];
      var m = { type: type, id: id, x: r2(tc.clientX), y: r2(tc.clientY), t: r3(e.timeStamp), pointerType: 'touch' };
      if (type !== 'up' && tc.force > 0) m.pressure = r3(tc.force);
      emit(m);
      view.pointer(type, id, tc.clientX, tc.clientY);
    }
  }

  var opts = { passive: false };
  if (window.PointerEvent) {
    canvas.addEventListener('pointerdown', onPointerDown, opts);
    canvas.addEventListener('pointermove', onPointerMove, opts);
    canvas.addEventListener('pointerup', onPointerUp, opts);
    canvas.addEventListener('pointercancel', onPointerCancel, opts);
    canvas.addEventListener('pointerleave', onPointerLeave, opts);
    canvas.addEventListener('lostpointercapture', function (e) {
      // Capture lost without an up or cancel (rare): treat it as a cancel.
      if (down[e.pointerId]) onPointerCancel(e);
    });
  } else {
    canvas.addEventListener('touchstart', function (e) { e.preventDefault(); firstTouch(); touchMsgs('down', e); }, opts);
    canvas.addEventListener('touchmove', function (e) { e.preventDefault(); touchMsgs('move', e); }, opts);
    canvas.addEventListener('touchend', function (e) { e.preventDefault(); touchMsgs('up', e); }, opts);
    canvas.addEventListener('touchcancel', function (e) { touchMsgs('cancel', e); }, opts);
  }

  // ---- page lifecycle: cancel everything when the page goes away --------------------------
  // Only when something is down or hovering: focus moving between windows is common and
  // there is nothing to cancel then (the three events also come together: one cancel).
  function cancelAll() {
    controls.release(); // a mouse-bar button held down goes up
    var any = Object.keys(down).length || Object.keys(hovering).length;
    if (!any) return;
    down = {}; hovering = {};
    emit({ type: 'cancel', id: 'all', t: r3(performance.now()) });
    view.clearActive();
    conn.flushNow(); // animation frames stop on a hidden page: send now
  }
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'hidden') cancelAll();
    else wakeLock(state.status === 'live');
  });
  window.addEventListener('blur', cancelAll);
  window.addEventListener('pagehide', cancelAll);

  // ---- surface size -------------------------------------------------------------------
  var resizePending = false;
  function onResize() {
    if (resizePending) return;
    resizePending = true;
    requestAnimationFrame(function () {
      resizePending = false;
      view.resize();
      var now = surfaceSize();
      if (now.w === size.w && now.h === size.h) return;
      size = now;
      emit({ type: 'resize', width: now.w, height: now.h });
    });
  }
  window.addEventListener('resize', onResize);
  window.addEventListener('orientationchange', onResize);
  if (window.visualViewport) window.visualViewport.addEventListener('resize', onResize);

  // ---- iOS Safari: no double-tap zoom, no pinch zoom, no rubber band, no callout ------------
  ['gesturestart', 'gesturechange', 'gestureend'].forEach(function (t) {
    document.addEventListener(t, function (e) { e.preventDefault(); }, opts);
  });
  var sheet = document.getElementById('sheet');
  document.addEventListener('touchmove', function (e) {
    if (e.cancelable && !sheet.contains(e.target)) e.preventDefault(); // the settings sheet may scroll
  }, opts);
  document.addEventListener('dblclick', function (e) { e.preventDefault(); }, opts);
  document.addEventListener('contextmenu', function (e) { if (e.target === canvas) e.preventDefault(); });

  // ---- phone niceties -----------------------------------------------------------------
  /** A short vibration where the phone has one (Android; iOS Safari has no Vibration API).
   * Browsers allow it only after the person touched the page. */
  function buzz(pattern, why) {
    var done = false;
    try {
      if (navigator.vibrate && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) done = navigator.vibrate(pattern) !== false;
    } catch (e) { /* unsupported */ }
    state.haptics.push({ why: why || '', pattern: pattern, done: done });
    if (state.haptics.length > 100) state.haptics.shift();
  }

  var lock = null, lockWanted = false;
  function wakeLock(want) {
    lockWanted = want;
    if (!('wakeLock' in navigator)) return;
    if (want && !lock && document.visibilityState === 'visible') {
      navigator.wakeLock.request('screen').then(function (l) {
        lock = l;
        state.wakeLock = true;
        l.addEventListener('release', function () { lock = null; state.wakeLock = false; });
        if (!lockWanted) l.release().catch(function () {});
      }, function () { state.wakeLock = false; });
    } else if (!want && lock) {
      lock.release().catch(function () {});
      lock = null;
    }
  }

  var fsButton = document.getElementById('fullscreen');
  var root = document.documentElement;
  var requestFs = root.requestFullscreen || root.webkitRequestFullscreen;
  if (requestFs) {
    fsButton.hidden = false;
    fsButton.addEventListener('click', function () {
      var inFs = document.fullscreenElement || document.webkitFullscreenElement;
      var p;
      if (inFs) p = (document.exitFullscreen || document.webkitExitFullscreen).call(document);
      else p = requestFs.call(root, { navigationUI: 'hide' });
      if (p && p.catch) p.catch(function () {});
    });
  }
  // Installable as an app over HTTPS (`serve --tls`): the service worker (sw.js) never
  // touches the WebSocket. Plain HTTP on a LAN address is no secure context: nothing to do.
  if ('serviceWorker' in navigator && window.isSecureContext && location.protocol === 'https:') {
    navigator.serviceWorker.register('sw.js').then(function () { state.serviceWorker = true; }, function () {});
  }
  conn.start();
})();
