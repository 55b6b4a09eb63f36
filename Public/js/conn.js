/* GesturePad: the WebSocket connection shared by the touchpad and the observer view.
 * Token from the page's own URL (#token= or ?token=), sent only in the /ws query.
 * Status: connecting → live → reconnecting (backoff) | refused (with the reason).
 * Outgoing messages are queued and sent as ONE JSON array per animation frame. */
(function () {
  'use strict';
  var GP = (window.GP = window.GP || {});
  var TOKEN_KEY = 'gesturepad.token';
  var KEEP = 1000; // page-state history kept for tests / debugging (bounded)

  /** The token in the page's address (fragment first, then query), or ''. */
  function tokenInAddress() {
    var hash = new URLSearchParams(location.hash.replace(/^#/, ''));
    return hash.get('token') || new URLSearchParams(location.search).get('token') || '';
  }

  /** Reads the token from the URL, remembers it, and removes it from the address bar. */
  function takeToken() {
    var hash = new URLSearchParams(location.hash.replace(/^#/, ''));
    var query = new URLSearchParams(location.search);
    var token = hash.get('token') || query.get('token');
    if (token) {
      try { localStorage.setItem(TOKEN_KEY, token); } catch (e) { /* private mode */ }
      hash.delete('token'); query.delete('token');
      var q = query.toString(), h = hash.toString();
      try { history.replaceState(history.state, '', location.pathname + (q ? '?' + q : '') + (h ? '#' + h : '')); } catch (e) { /* ignore */ }
      return token;
    }
    try { return localStorage.getItem(TOKEN_KEY) || ''; } catch (e) { return ''; }
  }

  var CLOSE_REASONS = {
    1001: 'server going away', 1003: 'binary data refused', 1007: 'invalid text', 1008: 'policy violation (rate or error limit)',
    1009: 'message too big', 1011: 'server error'
  };

  function push(list, item) { list.push(item); if (list.length > KEEP) list.splice(0, list.length - KEEP); }

  /** One connection with its own status, reconnect loop, ping and per-frame batching. */
  function Connection(opts) {
    this.role = opts.role;
    this.makeHello = opts.hello;           // () => hello message
    this.onMessage = opts.onMessage || function () {};
    this.onStatus = opts.onStatus || function () {};
    this.onLive = opts.onLive || function () {};
    this.onDown = opts.onDown || function () {};
    this.busy = opts.busy || function () { return false; };
    this.lastPointerT = null; // the newest pointer `t` sent (keep-alive pings carry it)
    this.lastSentAt = 0;
    this.keepAliveT = null;
    this.token = takeToken();
    this.ws = null;
    this.queue = [];
    this.frameRequested = false;
    this.frameNo = 0;          // animation frames seen; one batch per frame at most
    this.slotUsed = false;
    this.soonPending = false;
    this.attempt = 0;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.everLive = false;
    this.state = (window.gesturepad = {
      role: opts.role, status: 'connecting', detail: '', session: null, config: null, control: null, rtt: null,
      sent: [], received: [], batches: [], batchesSent: 0, framesSent: 0, connects: 0, errors: []
    });
    this.onFrame = this.onFrame.bind(this);
    var self = this;
    // A new link opened in this tab changes only the fragment: no reload, so reconnect here.
    window.addEventListener('hashchange', function () { self.onHashChange(); });
  }

  /** `#token=…` changed in the address: take the new token and connect with it at once. */
  Connection.prototype.onHashChange = function () {
    if (!tokenInAddress()) return;
    var token = takeToken();
    if (token === this.token && this.state.status === 'live') return; // same link again: nothing to do
    this.token = token;
    this.restart('new access token');
  };

  /** Drops the current connection (if any) and connects again now, from a fresh backoff. */
  Connection.prototype.restart = function (why) {
    clearTimeout(this.retryTimer);
    var ws = this.ws;
    if (ws) {
      this.ws = null; // its onclose is ignored from now on
      clearInterval(this.pingTimer);
      this.queue.length = 0;
      this.state.session = null;
      this.onDown();
      try { ws.close(1000, why || 'restart'); } catch (e) { /* already closing */ }
    }
    this.attempt = 0;
    this.setStatus('connecting', why || '');
    this.start();
  };

  Connection.prototype.url = function () {
    var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var base = location.pathname.replace(/[^/]*$/, '');
    return scheme + '//' + location.host + base + 'ws' + (this.token ? '?token=' + encodeURIComponent(this.token) : '');
  };

  Connection.prototype.setStatus = function (status, detail) {
    this.state.status = status;
    this.state.detail = detail || '';
    this.onStatus(status, this.state.detail);
  };

  Connection.prototype.start = function () {
    var self = this;
    clearTimeout(this.retryTimer);
    // A refused page keeps saying so (and why) while it quietly tries again.
    if (this.state.status !== 'refused') {
      this.setStatus(this.attempt === 0 && !this.everLive ? 'connecting' : 'reconnecting', this.attempt ? 'attempt ' + (this.attempt + 1) : '');
    }
    var ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.retry('cannot open: ' + e.message); return; }
    this.ws = ws;
    var opened = false;
    ws.onopen = function () {
      opened = true;
      self.state.connects++;
      var hello = self.makeHello();
      self.sendFrame(JSON.stringify(hello), [hello], false);
    };
    ws.onmessage = function (ev) { self.receive(ev.data); };
    ws.onerror = function () { /* onclose follows and decides */ };
    ws.onclose = function (ev) {
      if (self.ws !== ws) return;
      self.ws = null;
      clearInterval(self.pingTimer);
      self.queue.length = 0;
      var wasLive = self.state.status === 'live';
      self.state.session = null;
      self.onDown();
      if (opened) {
        var why = CLOSE_REASONS[ev.code] || (ev.reason || 'connection closed');
        if (ev.code === 1008 || ev.code === 1009 || ev.code === 1003) self.toast('closed by server: ' + why);
        self.retry(wasLive ? why : 'closed: ' + why);
      } else {
        self.diagnose();
      }
    };
  };

  /** A handshake that failed: the server is down (retry) or it refused us (token / origin). */
  Connection.prototype.diagnose = function () {
    var self = this;
    if (!this.token) { this.refuse('No access token in the page address. Open the link the server printed (it ends in #token=…).'); return; }
    var probe = location.pathname + '?probe=' + Date.now();
    fetch(probe, { cache: 'no-store' }).then(function (r) {
      if (r.ok) self.refuse('The server refused this page: wrong or outdated access token, another origin, or too many connections. Open the link the server printed.');
      else self.retry('server answered ' + r.status);
    }, function () { self.retry('server unreachable'); });
  };

  Connection.prototype.refuse = function (reason) {
    this.setStatus('refused', reason);
    // Keep trying slowly: a restarted server may accept us again.
    this.attempt = Math.max(this.attempt, 6);
    this.schedule(15000);
  };

  Connection.prototype.retry = function (why) {
    var delay = Math.min(4000, 250 * Math.pow(1.8, this.attempt)) * (0.85 + Math.random() * 0.3);
    this.setStatus('reconnecting', why + ' · retry in ' + (delay / 1000).toFixed(1) + ' s');
    this.schedule(delay);
  };

  Connection.prototype.schedule = function (delay) {
    var self = this;
    this.attempt++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(function () { self.start(); }, delay);
  };

  Connection.prototype.receive = function (data) {
    var msg;
    try { msg = JSON.parse(data); } catch (e) { return; }
    var list = Array.isArray(msg) ? msg : [msg];
    for (var i = 0; i < list.length; i++) {
      var m = list[i];
      if (!m || typeof m !== 'object') continue;
      push(this.state.received, m);
      if (m.type === 'welcome') {
        this.attempt = 0;
        this.everLive = true;
        this.state.session = m.session;
        this.state.config = m.config || null;
        this.state.control = m.control && typeof m.control === 'object' ? m.control : null;
        this.setStatus('live', this.role === 'observer' ? 'all sessions' : (m.session ? 'session ' + m.session : ''));
        if (this.role !== 'observer') this.startPing(); // an observer sends nothing after hello
        this.onLive(m);
      } else if (m.type === 'pong') {
        if (typeof m.t === 'number' && m.t !== this.keepAliveT) {
          this.state.rtt = Math.max(0, performance.now() - m.t);
          if (this.onRtt) this.onRtt(this.state.rtt);
        }
      } else if (m.type === 'error') {
        push(this.state.errors, m);
        this.toast((m.code || 'error') + ': ' + (m.message || ''));
      }
      this.onMessage(m);
    }
  };

  Connection.prototype.startPing = function () {
    var self = this;
    clearInterval(this.pingTimer);
    // No timing ping while a pointer is down or hovering: its `t` (now) is later than the
    // pending pointer timestamps and would move the server's gesture clock ahead of them.
    // A finger held still sends nothing, though, and the server releases whatever a silent
    // connection holds after 10 s (docs/control.md): then a keep-alive ping goes out that
    // carries the last pointer `t`, so it moves no clock (its pong is not a round trip).
    var ping = function () {
      if (!self.live() || document.visibilityState === 'hidden') return;
      if (!self.busy()) { self.send({ type: 'ping', t: round3(performance.now()) }); return; }
      if (self.lastPointerT !== null && performance.now() - self.lastSentAt > 1500) {
        self.keepAliveT = self.lastPointerT;
        self.send({ type: 'ping', t: self.lastPointerT, keepAlive: true });
      }
    };
    ping();
    this.pingTimer = setInterval(ping, 2000);
  };

  Connection.prototype.live = function () { return !!this.ws && this.ws.readyState === 1 && this.state.status === 'live'; };

  /* Batching: at most one frame per animation frame. Each animation frame opens a slot; the
   * first message queued in a free slot goes out at the end of the current task (a tap's down
   * or up leaves at once, with everything the same input event produced), later ones wait for
   * the next animation frame, which sends them together and opens the next slot. */

  /** Queues a message for the next batch. */
  Connection.prototype.send = function (msg) {
    if (!this.live()) return false;
    this.queue.push(msg);
    if (!this.slotUsed && !this.soonPending) {
      var self = this;
      this.soonPending = true;
      setTimeout(function () { self.soonPending = false; if (!self.slotUsed) self.flush(); }, 0);
    }
    this.wantFrame();
    return true;
  };

  Connection.prototype.wantFrame = function () {
    if (!this.frameRequested) { this.frameRequested = true; requestAnimationFrame(this.onFrame); }
  };

  Connection.prototype.onFrame = function () {
    this.frameRequested = false;
    this.frameNo++;
    this.slotUsed = false;
    if (this.queue.length) this.flush();
  };

  /** Sends the queue as one batch in this frame's slot. */
  Connection.prototype.flush = function (force) {
    if (!this.queue.length) return;
    var frame = force && this.slotUsed ? null : this.frameNo;
    var batch = interleave(this.queue);
    this.queue = [];
    if (!this.ws || this.ws.readyState !== 1) return;
    // A ping measures the wire, not the wait for this frame: stamp it now.
    for (var i = 0; i < batch.length; i++) {
      var m = batch[i];
      if (m.type === 'ping' && !m.keepAlive) m.t = round3(performance.now());
      else if ((m.type === 'down' || m.type === 'move' || m.type === 'up') && typeof m.t === 'number') {
        this.lastPointerT = this.lastPointerT === null ? m.t : Math.max(this.lastPointerT, m.t);
      }
    }
    this.slotUsed = true;
    this.wantFrame(); // the next frame frees the slot
    this.sendFrame(JSON.stringify(batch), batch, true, frame);
  };

  /** Sends what is queued right now (page hidden: animation frames stop). */
  Connection.prototype.flushNow = function () { this.flush(true); };

  Connection.prototype.sendFrame = function (text, msgs, isBatch, frameStamp) {
    try { this.ws.send(text); } catch (e) { return; }
    this.lastSentAt = performance.now();
    var st = this.state;
    st.framesSent++;
    for (var i = 0; i < msgs.length; i++) push(st.sent, msgs[i]);
    if (isBatch) {
      st.batchesSent++;
      push(st.batches, { n: msgs.length, frame: frameStamp });
    }
  };

  Connection.prototype.toast = function (text) {
    var el = document.getElementById('toast');
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(function () { el.hidden = true; }, 4000);
  };

  /** Coalesced moves come pointer by pointer (all of finger 1's, then finger 2's); the server
   * judges moves with the same `t` as one step, so each run of moves is put in time order
   * (stable: same-`t` moves keep their order). */
  function interleave(batch) {
    var i = 0, n = batch.length;
    while (i < n) {
      if (batch[i].type !== 'move') { i++; continue; }
      var j = i + 1, sorted = true;
      for (; j < n && batch[j].type === 'move'; j++) if (batch[j].t < batch[j - 1].t) sorted = false;
      if (!sorted) {
        var run = batch.slice(i, j).sort(function (a, b) { return a.t - b.t; });
        for (var k = 0; k < run.length; k++) batch[i + k] = run[k];
      }
      i = j;
    }
    return batch;
  }

  function round3(v) { return Math.round(v * 1000) / 1000; }
  function round2(v) { return Math.round(v * 100) / 100; }

  var NOTICE = {
    reconnecting: 'Reconnecting…',
    refused: 'Not connected'
  };

  /** Shows the connection status in the header pill and, when not live, a notice with the reason. */
  function bindStatus(el) {
    var notice = document.getElementById('notice');
    var rtt = document.getElementById('rtt');
    var small = el.querySelector('small');
    // The detail (e.g. the session) is left out rather than cut off when the header is narrow.
    function fit() {
      small.hidden = false;
      if (small.textContent && small.scrollWidth > small.clientWidth + 0.5) small.hidden = true;
    }
    window.addEventListener('resize', fit);
    return function (status, detail) {
      el.className = 'status ' + status;
      el.querySelector('b').textContent = status;
      small.textContent = status === 'live' ? detail : '';
      el.title = status + (detail ? ' — ' + detail : '');
      if (rtt) rtt.hidden = status !== 'live';
      fit();
      if (!notice) return;
      var title = NOTICE[status];
      notice.hidden = !title;
      if (!title) return;
      notice.className = 'notice ' + status;
      notice.querySelector('b').textContent = title;
      notice.querySelector('span').textContent = detail;
    };
  }

  /** Whether a welcome says that this connection drives the computer (CONTROL.md). */
  function controlActive(welcome) { return !!(welcome && welcome.control && welcome.control.active === true); }

  GP.Connection = Connection;
  GP.controlActive = controlActive;
  GP.bindStatus = bindStatus;
  GP.round2 = round2;
  GP.round3 = round3;
  GP.interleave = interleave;
})();
