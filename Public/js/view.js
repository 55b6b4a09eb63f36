/* GesturePad: the live view. Draws finger trails and every recognized gesture where it
 * happened (canvas), and keeps a short feed of recent gestures (DOM, bounded). */
(function () {
  'use strict';
  var GP = (window.GP = window.GP || {});
  var TAU = Math.PI * 2;
  var POINTER_COLORS = ['#58a6ff', '#f778ba', '#3fb950', '#e3b341', '#a371f7', '#39c5cf', '#ff7b72', '#79c0ff'];
  var COLORS = {
    tap: '#58a6ff', doubleTap: '#a371f7', singleTapConfirmed: '#8b949e', longPress: '#f0883e', timedPress: '#e3b341',
    repeat: '#d29922', drag: '#3fb950', longPressDrag: '#f0883e', swipe: '#ff7b72', scroll: '#39c5cf',
    pinch: '#f778ba', rotate: '#bc8cff', hover: '#e6edf3', press: '#6e7681', release: '#6e7681', end: '#6e7681'
  };
  var CONTINUOUS = { longPress: 1, longPressDrag: 1, timedPress: 1, drag: 1, scroll: 1, pinch: 1, rotate: 1, hover: 1 };

  function colorOf(g) { return COLORS[g] || '#c9d1d9'; }
  function num(v, d) { return typeof v === 'number' && isFinite(v) ? v : (d === undefined ? 0 : d); }
  function fmt(v, digits) { return num(v).toFixed(digits || 0); }

  /** The canvas renderer; `fit` maps a phone surface into the canvas (observer). */
  function View(canvas, opts) {
    opts = opts || {};
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.fit = !!opts.fit;
    this.sessionColor = opts.sessionColor || null;
    this.linger = opts.linger || 1;  // how much longer finished gestures stay (observer: longer)
    this.surface = { w: 390, h: 844 };
    this.marks = [];       // finished effects that fade out
    this.active = {};      // running continuous gestures, by session + gesture
    this.trails = {};      // live pointers (touchpad only), by pointer id
    this.config = { longPressDuration: 500 };
    this.drawn = {};       // how many events of each gesture were drawn (page state for tests)
    this.running = false;
    this.frame = this.frame.bind(this);
    this.resize();
  }

  View.prototype.resize = function () {
    var dpr = window.devicePixelRatio || 1;
    var w = this.canvas.clientWidth || window.innerWidth, h = this.canvas.clientHeight || window.innerHeight;
    this.w = w; this.h = h; this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.kick();
  };

  View.prototype.kick = function () {
    if (!this.running) { this.running = true; requestAnimationFrame(this.frame); }
  };

  // ---- finger trails (touchpad) -------------------------------------------------------
  View.prototype.pointer = function (kind, id, x, y) {
    var now = performance.now();
    var tr = this.trails[id];
    if (kind === 'down' || !tr) {
      var used = {};
      for (var k in this.trails) if (!this.trails[k].upAt) used[this.trails[k].color] = 1;
      var color = POINTER_COLORS[0];
      for (var i = 0; i < POINTER_COLORS.length; i++) if (!used[POINTER_COLORS[i]]) { color = POINTER_COLORS[i]; break; }
      tr = this.trails[id] = { color: kind === 'hover' ? '#8b949e' : color, pts: [], upAt: 0, hover: kind === 'hover' };
    }
    if (kind === 'up' || kind === 'cancel') tr.upAt = now;
    else { tr.pts.push({ x: x, y: y, t: now }); if (tr.pts.length > 400) tr.pts.splice(0, 100); }
    this.kick();
  };

  // ---- gestures -------------------------------------------------------------------------
  View.prototype.gesture = function (m) {
    var g = m.gesture, now = performance.now();
    if (typeof g !== 'string') return;
    this.drawn[g] = (this.drawn[g] || 0) + 1;
    var x = num(m.x), y = num(m.y);
    if (this.fit) this.grow(x, y, m);
    var key = (m.session || '') + '|' + g;
    var tint = this.sessionColor ? this.sessionColor(m.session) : null;
    if (CONTINUOUS[g]) {
      var a = this.active[key];
      if (m.phase === 'began' || !a) {
        a = this.active[key] = { g: g, m: m, tint: tint, pts: [], born: now };
        if (g === 'drag' || g === 'longPressDrag') a.pts.push({ x: num(m.startX, x), y: num(m.startY, y) });
        if (g === 'scroll') a.start = { x: x - num(m.dx), y: y - num(m.dy) };
      }
      if (!(m.phase === 'ended' || m.phase === 'cancelled') || !(g === 'drag' || g === 'longPressDrag' || g === 'scroll')) a.m = m;
      else a.m = Object.assign({}, a.m, pick(m));
      a.at = now;
      var last = m.phase === 'ended' || m.phase === 'cancelled';
      if ((g === 'drag' || g === 'longPressDrag') && !last) { a.pts.push({ x: x, y: y }); if (a.pts.length > 600) a.pts.splice(1, 100); }
      if (g === 'hover') a.pts.push({ x: x, y: y }), a.pts.length > 40 && a.pts.shift();
      if (last) {
        delete this.active[key];
        if (g !== 'timedPress') this.marks.push({ g: g, m: m, a: a, born: now, life: (g === 'hover' ? 250 : 1100) * this.linger, tint: tint, cancelled: m.phase === 'cancelled' });
      }
    } else if (g !== 'release' && g !== 'end') {
      this.marks.push({ g: g, m: m, born: now, life: (LIFE[g] || 700) * this.linger, tint: tint });
    } else if (g === 'end' && m.reason === 'cancel') {
      this.marks.push({ g: g, m: m, born: now, life: 900 * this.linger, tint: tint });
    }
    if (this.marks.length > 80) this.marks.splice(0, this.marks.length - 80);
    this.kick();
  };
  var LIFE = { tap: 1000, doubleTap: 1100, singleTapConfirmed: 800, repeat: 300, swipe: 1500, press: 450 };

  /** Observer: grows the drawn phone surface to hold every point seen. */
  View.prototype.grow = function (x, y, m) {
    var s = this.surface;
    if (m && m.gesture === 'release' && m.inside === false) return;
    if (x > s.w && x < 4000) s.w = Math.ceil(x / 10) * 10;
    if (y > s.h && y < 4000) s.h = Math.ceil(y / 10) * 10;
  };

  View.prototype.clearActive = function (session) {
    var now = performance.now();
    for (var k in this.active) if (!session || this.active[k].m.session === session) this.marks.push({ g: this.active[k].g, m: this.active[k].m, a: this.active[k], born: now, life: 400, cancelled: true });
    for (var k2 in this.active) if (!session || this.active[k2].m.session === session) delete this.active[k2];
    for (var id in this.trails) if (!this.trails[id].upAt) this.trails[id].upAt = now;
    this.kick();
  };

  // ---- drawing --------------------------------------------------------------------------
  View.prototype.frame = function () {
    var ctx = this.ctx, now = performance.now(), dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    ctx.save();
    if (this.fit) this.drawFrame(ctx);
    var busy = false, i;
    busy = this.drawTrails(ctx, now) || busy;
    var keep = [];
    for (i = 0; i < this.marks.length; i++) {
      var mk = this.marks[i], p = (now - mk.born) / mk.life;
      if (p >= 1) continue;
      keep.push(mk);
      ctx.save();
      ctx.globalAlpha = Math.max(0, 1 - p * p);
      this.drawMark(ctx, mk, p, now);
      ctx.restore();
    }
    this.marks = keep;
    for (var k in this.active) { busy = true; this.drawActive(ctx, this.active[k], now); }
    ctx.restore();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (busy || keep.length) requestAnimationFrame(this.frame);
    else this.running = false;
  };

  View.prototype.drawFrame = function (ctx) {
    var s = this.surface, top = 56, pad = 12;
    var sc = Math.min((this.w - 2 * pad) / s.w, (this.h - top - pad) / s.h, 1.5);
    var ox = (this.w - s.w * sc) / 2, oy = top + (this.h - top - pad - s.h * sc) / 2;
    ctx.setTransform(this.dpr * sc, 0, 0, this.dpr * sc, this.dpr * ox, this.dpr * oy);
    ctx.strokeStyle = '#30363d'; ctx.lineWidth = 2 / sc; ctx.setLineDash([6 / sc, 6 / sc]);
    roundRect(ctx, 0, 0, s.w, s.h, 28); ctx.stroke(); ctx.setLineDash([]);
    ctx.clip(); // a session's drawings stay inside its surface
    this.labelScale = 1 / sc;
  };

  View.prototype.drawTrails = function (ctx, now) {
    var busy = false;
    for (var id in this.trails) {
      var tr = this.trails[id], pts = tr.pts;
      var alpha = tr.upAt ? 1 - (now - tr.upAt) / 500 : 1;
      while (pts.length && now - pts[0].t > 700) pts.shift();
      if (alpha <= 0 || (!pts.length && tr.upAt)) { delete this.trails[id]; continue; }
      busy = true;
      if (!pts.length) continue;
      ctx.save();
      ctx.lineCap = ctx.lineJoin = 'round';
      ctx.strokeStyle = tr.color;
      for (var i = 1; i < pts.length; i++) {
        var f = 1 - (now - pts[i].t) / 700;
        ctx.globalAlpha = Math.max(0, f * alpha);
        ctx.lineWidth = tr.hover ? 2 : 3 + 9 * f;
        ctx.beginPath(); ctx.moveTo(pts[i - 1].x, pts[i - 1].y); ctx.lineTo(pts[i].x, pts[i].y); ctx.stroke();
      }
      var last = pts[pts.length - 1];
      ctx.globalAlpha = alpha;
      if (!tr.hover) {
        ctx.fillStyle = tr.color + '33';
        circle(ctx, last.x, last.y, 30); ctx.fill();
        ctx.lineWidth = 2.5; circle(ctx, last.x, last.y, 30); ctx.stroke();
      }
      ctx.restore();
    }
    return busy;
  };

  View.prototype.drawActive = function (ctx, a, now) {
    var m = a.m, g = a.g, x = num(m.x), y = num(m.y), c = colorOf(g);
    ctx.save();
    ctx.lineCap = ctx.lineJoin = 'round';
    if (g === 'timedPress' || g === 'longPress') {
      var lp = this.config.longPressDuration || 500;
      var held = num(m.duration) + (now - a.at);
      var r = g === 'longPress' ? 52 : 42;
      ctx.lineWidth = g === 'longPress' ? 7 : 5;
      ctx.strokeStyle = '#30363d'; circle(ctx, x, y, r); ctx.stroke();
      ctx.strokeStyle = c;
      ctx.beginPath(); ctx.arc(x, y, r, -Math.PI / 2, -Math.PI / 2 + TAU * Math.min(1, held / lp)); ctx.stroke();
      if (g === 'longPress') { ctx.globalAlpha = 0.18 + 0.1 * Math.sin(now / 120); ctx.fillStyle = c; circle(ctx, x, y, r); ctx.fill(); ctx.globalAlpha = 1; }
      this.label(ctx, x, y - r - 18, g === 'longPress' ? 'long press ' + (held / 1000).toFixed(1) + ' s' : 'hold ' + Math.round(held) + ' ms', c, a.tint);
    } else if (g === 'drag' || g === 'longPressDrag') {
      this.drawPath(ctx, a.pts, c, 1, m, a.tint);
    } else if (g === 'scroll') {
      this.drawScroll(ctx, a, c);
    } else if (g === 'pinch') {
      this.drawPinch(ctx, x, y, num(m.scale, 1), c, a.tint);
    } else if (g === 'rotate') {
      this.drawRotate(ctx, x, y, num(m.angle), c, a.tint);
    } else if (g === 'hover') {
      this.drawHover(ctx, a, x, y, c);
    }
    ctx.restore();
  };

  View.prototype.drawMark = function (ctx, mk, p, now) {
    var m = mk.m, g = mk.g, x = num(m.x), y = num(m.y), c = mk.cancelled ? '#6e7681' : colorOf(g);
    ctx.lineCap = ctx.lineJoin = 'round';
    switch (g) {
      case 'tap':
        ctx.strokeStyle = c; ctx.lineWidth = 4 * (1 - p) + 1;
        circle(ctx, x, y, 16 + 46 * ease(p)); ctx.stroke();
        ctx.fillStyle = c; circle(ctx, x, y, 17); ctx.fill();
        ctx.fillStyle = '#0d1117'; ctx.font = '700 17px system-ui, sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.fillText(String(num(m.count, 1)), x, y + 1);
        this.label(ctx, x, y + 44 + 28 * Math.min(3, num(m.count, 1) - 1), 'tap ×' + num(m.count, 1) + (num(m.pointers, 1) > 1 ? ' · ' + m.pointers + ' fingers' : ''), c, mk.tint);
        break;
      case 'doubleTap':
        ctx.strokeStyle = c; ctx.lineWidth = 4;
        circle(ctx, x, y, 26 + 10 * p); ctx.stroke(); circle(ctx, x, y, 36 + 20 * p); ctx.stroke();
        this.label(ctx, x, y - 62, 'double tap', c, mk.tint);
        break;
      case 'singleTapConfirmed':
        this.label(ctx, x, y - 34, 'single ✓', c, mk.tint);
        break;
      case 'repeat':
        ctx.strokeStyle = c; ctx.lineWidth = 3;
        circle(ctx, x, y, 58 + 24 * p); ctx.stroke();
        this.label(ctx, x + 80, y, 'repeat ' + num(m.count), c, mk.tint);
        break;
      case 'press':
        ctx.fillStyle = c; circle(ctx, x, y, 6 + 6 * p); ctx.fill();
        break;
      case 'swipe':
        this.drawSwipe(ctx, mk, x, y, p, c);
        break;
      case 'end':
        this.label(ctx, x, y, '✕ cancelled', '#f85149', mk.tint);
        break;
      case 'drag': case 'longPressDrag':
        this.drawPath(ctx, mk.a.pts, c, 1, m, mk.tint, true);
        break;
      case 'timedPress': case 'longPress':
        ctx.strokeStyle = c; ctx.lineWidth = 5;
        circle(ctx, x, y, (g === 'longPress' ? 52 : 42) + 18 * p); ctx.stroke();
        if (g === 'longPress') this.label(ctx, x, y - 70, (mk.cancelled ? 'long press cancelled' : 'long press ') + (mk.cancelled ? '' : (num(m.duration) / 1000).toFixed(1) + ' s'), c, mk.tint);
        break;
      default:
        if (mk.a) this.drawActive(ctx, { g: g, m: m, a: mk.a, pts: mk.a.pts || [], start: mk.a.start, at: now, tint: mk.tint }, now);
    }
  };

  View.prototype.drawPath = function (ctx, pts, c, alpha, m, tint, ended) {
    if (pts.length < 2) return;
    ctx.strokeStyle = c; ctx.lineWidth = 6; ctx.globalAlpha *= alpha;
    ctx.beginPath(); ctx.moveTo(pts[0].x, pts[0].y);
    for (var i = 1; i < pts.length; i++) ctx.lineTo(pts[i].x, pts[i].y);
    ctx.stroke();
    var a = pts[pts.length - 2], b = pts[pts.length - 1];
    ctx.fillStyle = c; circle(ctx, pts[0].x, pts[0].y, 6); ctx.fill();
    arrowHead(ctx, a.x, a.y, b.x, b.y, 18, c);
    if (ended && m.predictedX !== undefined) {
      ctx.setLineDash([6, 8]); ctx.lineWidth = 3;
      ctx.beginPath(); ctx.moveTo(b.x, b.y); ctx.lineTo(num(m.predictedX, b.x), num(m.predictedY, b.y)); ctx.stroke();
      ctx.setLineDash([]);
    }
    var v = Math.hypot(num(m.vx), num(m.vy));
    var name = m.gesture === 'longPressDrag' ? 'long-press drag' : 'drag';
    this.label(ctx, b.x, b.y - 34, name + ' ' + Math.round(Math.hypot(num(m.dx), num(m.dy))) + ' px · ' + Math.round(v) + ' px/s', c, tint);
  };

  View.prototype.drawSwipe = function (ctx, mk, x, y, p, c) {
    var m = mk.m, dir = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[m.direction] || [1, 0];
    var len = Math.min(150, Math.max(70, num(m.distance) * 0.6)), shift = 30 * ease(p);
    var x0 = x - dir[0] * len + dir[0] * shift, y0 = y - dir[1] * len + dir[1] * shift;
    var x1 = x + dir[0] * shift, y1 = y + dir[1] * shift;
    ctx.strokeStyle = c; ctx.lineWidth = 14;
    ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
    arrowHead(ctx, x0, y0, x1 + dir[0] * 14, y1 + dir[1] * 14, 36, c);
    this.label(ctx, (x0 + x1) / 2 - dir[1] * 0, (y0 + y1) / 2 - 40 + (dir[1] ? 0 : 0), 'swipe ' + m.direction + ' · ' + Math.round(num(m.velocity)) + ' px/s' + (num(m.pointers, 1) > 1 ? ' · ' + m.pointers + 'f' : ''), c, mk.tint);
  };

  View.prototype.drawScroll = function (ctx, a, c) {
    var m = a.m, x = num(m.x), y = num(m.y), s = a.start || { x: x, y: y };
    ctx.strokeStyle = c; ctx.lineWidth = 5;
    ctx.setLineDash([2, 10]);
    ctx.beginPath(); ctx.moveTo(s.x, s.y); ctx.lineTo(x, y); ctx.stroke(); ctx.setLineDash([]);
    var dx = num(m.dx), dy = num(m.dy), d = Math.hypot(dx, dy) || 1, ux = dx / d, uy = dy / d;
    for (var k = 0; k < 2; k++) chevron(ctx, x - ux * 18 * k, y - uy * 18 * k, ux, uy, 16, c);
    this.label(ctx, x, y + 44, 'scroll ' + fmt(dx) + ', ' + fmt(dy), c, a.tint);
  };

  View.prototype.drawPinch = function (ctx, x, y, scale, c, tint) {
    var r0 = 56;
    ctx.strokeStyle = '#6e7681'; ctx.lineWidth = 2; ctx.setLineDash([5, 6]);
    circle(ctx, x, y, r0); ctx.stroke(); ctx.setLineDash([]);
    ctx.strokeStyle = c; ctx.lineWidth = 5;
    circle(ctx, x, y, Math.max(6, Math.min(400, r0 * scale))); ctx.stroke();
    this.label(ctx, x, y - Math.max(r0, r0 * scale) - 20, 'pinch ×' + scale.toFixed(2), c, tint);
  };

  View.prototype.drawRotate = function (ctx, x, y, angle, c, tint) {
    var r = 86, a0 = -Math.PI / 2, a1 = a0 + angle * Math.PI / 180;
    ctx.strokeStyle = c; ctx.lineWidth = 6;
    ctx.beginPath(); ctx.arc(x, y, r, a0, a1, angle < 0); ctx.stroke();
    ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + r * Math.cos(a1), y + r * Math.sin(a1)); ctx.stroke();
    ctx.strokeStyle = '#6e7681'; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x, y - r); ctx.stroke();
    this.label(ctx, x, y + r + 22, 'rotate ' + (angle > 0 ? '+' : '') + angle.toFixed(0) + '°', c, tint);
  };

  View.prototype.drawHover = function (ctx, a, x, y, c) {
    ctx.strokeStyle = c; ctx.lineWidth = 2;
    for (var i = 1; i < a.pts.length; i++) {
      ctx.globalAlpha = i / a.pts.length * 0.5;
      ctx.beginPath(); ctx.moveTo(a.pts[i - 1].x, a.pts[i - 1].y); ctx.lineTo(a.pts[i].x, a.pts[i].y); ctx.stroke();
    }
    ctx.globalAlpha = 1;
    circle(ctx, x, y, 12); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(x - 20, y); ctx.lineTo(x - 6, y); ctx.moveTo(x + 6, y); ctx.lineTo(x + 20, y);
    ctx.moveTo(x, y - 20); ctx.lineTo(x, y - 6); ctx.moveTo(x, y + 6); ctx.lineTo(x, y + 20); ctx.stroke();
    this.label(ctx, x, y + 36, 'hover · ' + (a.m.pointerType || 'mouse'), c, a.tint);
  };

  /** A small readable pill of text; observer labels carry the session's colour dot. */
  View.prototype.label = function (ctx, x, y, text, c, tint) {
    var k = this.labelScale && this.fit ? this.labelScale : 1;
    ctx.save();
    ctx.font = '600 ' + (13 * k).toFixed(1) + 'px system-ui, sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    var w = ctx.measureText(text).width + 16 * k + (tint ? 12 * k : 0), h = 22 * k;
    x = Math.max(w / 2 + 4, Math.min((this.fit ? this.surface.w : this.w) - w / 2 - 4, x));
    ctx.fillStyle = 'rgba(13,17,23,.85)'; ctx.strokeStyle = c; ctx.lineWidth = 1.5 * k;
    roundRect(ctx, x - w / 2, y - h / 2, w, h, h / 2); ctx.fill(); ctx.stroke();
    if (tint) { ctx.fillStyle = tint; circle(ctx, x - w / 2 + 10 * k, y, 4 * k); ctx.fill(); }
    ctx.fillStyle = '#e6edf3';
    ctx.fillText(text, x + (tint ? 6 * k : 0), y + 0.5);
    ctx.restore();
  };

  /** Fields of an ending drag / scroll event that are worth drawing (velocity, prediction). */
  function pick(m) {
    var o = { phase: m.phase };
    ['vx', 'vy', 'dx', 'dy', 'predictedX', 'predictedY', 'duration'].forEach(function (k) { if (typeof m[k] === 'number') o[k] = m[k]; });
    return o;
  }

  function ease(p) { return 1 - Math.pow(1 - p, 3); }
  function circle(ctx, x, y, r) { ctx.beginPath(); ctx.arc(x, y, Math.max(0, r), 0, TAU); }
  function roundRect(ctx, x, y, w, h, r) {
    ctx.beginPath(); ctx.moveTo(x + r, y); ctx.arcTo(x + w, y, x + w, y + h, r); ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r); ctx.arcTo(x, y, x + w, y, r); ctx.closePath();
  }
  function arrowHead(ctx, x0, y0, x1, y1, size, c) {
    var ang = Math.atan2(y1 - y0, x1 - x0);
    ctx.fillStyle = c; ctx.beginPath(); ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - size * Math.cos(ang - 0.45), y1 - size * Math.sin(ang - 0.45));
    ctx.lineTo(x1 - size * Math.cos(ang + 0.45), y1 - size * Math.sin(ang + 0.45));
    ctx.closePath(); ctx.fill();
  }
  function chevron(ctx, x, y, ux, uy, s, c) {
    ctx.strokeStyle = c; ctx.lineWidth = 5; ctx.beginPath();
    ctx.moveTo(x - ux * s - uy * s, y - uy * s + ux * s); ctx.lineTo(x, y); ctx.lineTo(x - ux * s + uy * s, y - uy * s - ux * s); ctx.stroke();
  }

  // ---- feed -----------------------------------------------------------------------------
  var SKIP_FEED = { press: 1, release: 1 };

  /** Key fields of a gesture event, as short text. */
  function describe(m) {
    switch (m.gesture) {
      case 'tap': return 'count ' + m.count + (m.pointers > 1 ? ' · ' + m.pointers + ' fingers' : '');
      case 'doubleTap': return (m.pointers > 1 ? m.pointers + ' fingers · ' : '') + 'at ' + fmt(m.x) + ', ' + fmt(m.y);
      case 'singleTapConfirmed': return 'at ' + fmt(m.x) + ', ' + fmt(m.y);
      case 'longPress': case 'timedPress': return fmt(m.duration) + ' ms';
      case 'repeat': return 'count ' + m.count;
      case 'drag': case 'longPressDrag': return 'dx ' + fmt(m.dx) + ' dy ' + fmt(m.dy) + ' · ' + fmt(Math.hypot(num(m.vx), num(m.vy))) + ' px/s';
      case 'swipe': return m.direction + ' · ' + fmt(m.distance) + ' px · ' + fmt(m.velocity) + ' px/s' + (m.pointers > 1 ? ' · ' + m.pointers + ' fingers' : '');
      case 'scroll': return 'dx ' + fmt(m.dx) + ' dy ' + fmt(m.dy);
      case 'pinch': return 'scale ' + fmt(m.scale, 2);
      case 'rotate': return 'angle ' + fmt(m.angle, 1) + '°';
      case 'hover': return (m.pointerType || '') + ' at ' + fmt(m.x) + ', ' + fmt(m.y);
      case 'end': return m.reason + ' · ' + fmt(m.duration) + ' ms';
      default: return 'at ' + fmt(m.x) + ', ' + fmt(m.y);
    }
  }

  /** The compact list of recent gestures; continuous gestures update their own line. */
  function Feed(el, opts) {
    opts = opts || {};
    this.el = el;
    this.max = opts.max || 10;
    this.sessionColor = opts.sessionColor || null;
    this.open = {};
  }

  Feed.prototype.add = function (m) {
    var g = m.gesture;
    if (SKIP_FEED[g] || (g === 'end' && m.reason !== 'cancel')) return;
    var key = (m.session || '') + '|' + g, merge = CONTINUOUS[g] || (g === 'repeat' && m.count > 1);
    var li = merge ? this.open[key] : null;
    if (!li || m.phase === 'began' || !li.parentNode) {
      li = document.createElement('li');
      li.style.setProperty('--c', colorOf(g));
      li.innerHTML = '<span class="s"></span><b></b><span class="ph"></span><span class="kv"></span>';
      this.el.insertBefore(li, this.el.firstChild);
      while (this.el.childNodes.length > this.max) this.el.removeChild(this.el.lastChild);
      if (CONTINUOUS[g] || g === 'repeat') this.open[key] = li;
    }
    li.dataset.gesture = g;
    li.dataset.phase = m.phase || '';
    if (m.session) li.dataset.session = m.session;
    var s = li.firstChild;
    if (this.sessionColor && m.session) { s.textContent = '#' + m.session.slice(0, 8); s.style.color = this.sessionColor(m.session); }
    else s.hidden = true;
    li.childNodes[1].textContent = g;
    li.childNodes[2].textContent = m.phase === 'ended' && !CONTINUOUS[g] ? '' : (m.phase || '');
    li.childNodes[3].textContent = describe(m);
    if (m.phase === 'ended' || m.phase === 'cancelled') delete this.open[key];
  };

  GP.View = View;
  GP.Feed = Feed;
  GP.describe = describe;
  GP.colorOf = colorOf;
  GP.POINTER_COLORS = POINTER_COLORS;
})();
