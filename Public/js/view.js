/* GesturePad: the live view. Draws finger trails and every recognized gesture where it
 * happened, on a canvas; keeps marks inside the screen and labels apart (the drawings of each
 * gesture are in marks.js). */
import { CONTINUOUS } from './gestures.js';
import { num } from './numbers.js';
import { circle, clamp as clampTo, overlap, roundRect } from './draw.js';
import { markDrawing } from './marks.js';

const POINTER_COLORS = ['#58a6ff', '#f778ba', '#3fb950', '#e3b341', '#a371f7', '#39c5cf', '#ff7b72', '#79c0ff'];
/** How long a finished gesture's mark stays (ms, before the observer's `linger`). */
const LIFE = { tap: 1000, doubleTap: 1100, singleTapConfirmed: 800, repeat: 300, swipe: 1500, press: 450 };

/** The canvas renderer; `fit` maps a phone surface into the canvas (observer). */
export class View {
  constructor(canvas, opts) {
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
    this.details = false;  // details mode: also the engine's inner events (timedPress, repeat, …)
    // What the last frame drew, in CSS px of the canvas (page state for tests): label pills
    // {text, x, y, w, h} and rings {x, y, w, h} (bounding boxes).
    this.record = { labels: [], rings: [] };
    this.pending = [];     // labels placed this frame, painted last
    this.blocked = null;   // CSS px boxes of page panels (feed rows…) that labels avoid
    this.obstacles = opts.obstacles || null;
    this.area = opts.area || null;
    this.running = false;
    this.frame = this.frame.bind(this);
    this.resize();
  }

  resize() {
    var dpr = window.devicePixelRatio || 1;
    var w = this.canvas.clientWidth || window.innerWidth, h = this.canvas.clientHeight || window.innerHeight;
    this.w = w; this.h = h; this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.kick();
  }

  kick() {
    if (!this.running) { this.running = true; requestAnimationFrame(this.frame); }
  }

  // ---- finger trails (touchpad) -------------------------------------------------------
  pointer(kind, id, x, y) {
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
  }

  // ---- gestures -------------------------------------------------------------------------
  gesture(m) {
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
      // Only the newest repeat of a session carries its count (older pulses fade silently).
      if (g === 'repeat') for (var r = 0; r < this.marks.length; r++) if (this.marks[r].g === 'repeat' && this.marks[r].m.session === m.session) this.marks[r].quiet = true;
      this.marks.push({ g: g, m: m, born: now, life: (LIFE[g] || 700) * this.linger, tint: tint });
    } else if (g === 'end' && m.reason === 'cancel') {
      this.marks.push({ g: g, m: m, born: now, life: 900 * this.linger, tint: tint });
    }
    if (this.marks.length > 80) this.marks.splice(0, this.marks.length - 80);
    this.kick();
  }

  /** Observer: grows the drawn phone surface to hold every point seen. */
  grow(x, y, m) {
    var s = this.surface;
    if (m && m.gesture === 'release' && m.inside === false) return;
    // The observer does not know a touchpad's size: grow past the farthest point seen.
    if (x + 30 > s.w && x < 4000) s.w = Math.ceil((x + 30) / 10) * 10;
    if (y + 30 > s.h && y < 4000) s.h = Math.ceil((y + 30) / 10) * 10;
  }

  clearActive(session) {
    var now = performance.now();
    for (var k in this.active) if (!session || this.active[k].m.session === session) this.marks.push({ g: this.active[k].g, m: this.active[k].m, a: this.active[k], born: now, life: 400, cancelled: true });
    for (var k2 in this.active) if (!session || this.active[k2].m.session === session) delete this.active[k2];
    for (var id in this.trails) if (!this.trails[id].upAt) this.trails[id].upAt = now;
    this.kick();
  }

  // ---- drawing --------------------------------------------------------------------------
  frame() {
    var ctx = this.ctx, now = performance.now(), dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    this.record.labels.length = 0;
    this.record.rings.length = 0;
    this.blocked = null; // page panels labels keep clear of: measured when a label needs them
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
    this.paintLabels(ctx); // outside the observer's frame clip: labels may reach past the frame
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (busy || keep.length) requestAnimationFrame(this.frame);
    else this.running = false;
  }

  drawFrame(ctx) {
    var s = this.surface, pad = 12;
    // The page may keep bands free for its panels (observer: the session list, the feed).
    var area = this.area ? this.area(this.w, this.h) : { top: 56, bottom: pad, left: 0, right: 0 };
    var top = area.top, bottom = area.bottom, room = this.w - area.left - area.right - 2 * pad;
    var sc = Math.max(0.05, Math.min(room / s.w, (this.h - top - bottom) / s.h, 1.5));
    var ox = area.left + pad + (room - s.w * sc) / 2, oy = top + (this.h - top - bottom - s.h * sc) / 2;
    ctx.setTransform(this.dpr * sc, 0, 0, this.dpr * sc, this.dpr * ox, this.dpr * oy);
    ctx.strokeStyle = '#30363d'; ctx.lineWidth = 2 / sc; ctx.setLineDash([6 / sc, 6 / sc]);
    roundRect(ctx, 0, 0, s.w, s.h, 28); ctx.stroke(); ctx.setLineDash([]);
    ctx.clip(); // a session's drawings stay inside its surface
    this.labelScale = 1 / sc;
    this.frameBox = { ox: ox, oy: oy, sc: sc };
  }

  drawTrails(ctx, now) {
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
  }

  // ---- keeping marks inside the screen, labels apart ---------------------------------------
  /** The drawing area in drawing coordinates: the canvas (touchpad) or the phone frame
   * (observer); `top` leaves the header's height free on the touchpad. */
  bounds() {
    if (this.fit) return { l: 0, t: 0, r: this.surface.w, b: this.surface.h, top: 0 };
    return { l: 0, t: 0, r: this.w, b: this.h, top: 52 };
  }

  /** Where labels may go, in drawing coordinates: the screen below the header (the observer's
   * labels may leave the phone frame: a label wider than a small frame stays readable). */
  labelBounds() {
    if (!this.fit || !this.frameBox) return this.bounds();
    var f = this.frameBox;
    return { l: -f.ox / f.sc, t: (52 - f.oy) / f.sc, r: (this.w - f.ox) / f.sc, b: (this.h - f.oy) / f.sc, top: 0 };
  }

  /** The centre at which a mark of radius `r` around (x, y) stays whole on the screen. */
  inside(x, y, r) {
    var b = this.bounds(), m = 2;
    return { x: clampTo(x, b.l + r + m, b.r - r - m), y: clampTo(y, b.t + r + m, b.b - r - m) };
  }

  /** The largest radius a circle may have to fit on the screen. */
  maxRadius() {
    var b = this.bounds();
    return Math.max(8, Math.min(b.r - b.l, b.b - b.t) / 2 - 4);
  }

  /** A box in drawing coordinates → CSS px of the canvas (the transform is scale + translate). */
  toCss(ctx, x, y, w, h) {
    var t = ctx.getTransform(), k = this.dpr || 1;
    return { x: (t.a * x + t.e) / k, y: (t.d * y + t.f) / k, w: t.a * w / k, h: t.d * h / k };
  }

  /** Strokes a ring (the current path must be its circle) and records its bounding box. */
  ring(ctx, x, y, r) {
    circle(ctx, x, y, r); ctx.stroke();
    var e = r + ctx.lineWidth / 2;
    this.record.rings.push(this.toCss(ctx, x - e, y - e, 2 * e, 2 * e));
  }

  /** Where a label pill of w × h centred at (x, y) goes: inside the screen and clear of the
   * labels already drawn this frame (tried below, above, then further out). */
  place(ctx, x, y, w, h) {
    var b = this.labelBounds(), k = this.labelScale && this.fit ? this.labelScale : 1, pad = 4 * k;
    x = clampTo(x, b.l + w / 2 + pad, b.r - w / 2 - pad);
    var lo = b.t + b.top + h / 2 + pad, hi = b.b - h / 2 - pad, step = h + 4 * k;
    var placed = this.record.labels, best = clampTo(y, lo, hi);
    if (!this.blocked) this.blocked = this.obstacles ? this.obstacles() : [];
    for (var i = 0; i < 9; i++) {
      var dy = i === 0 ? 0 : (i % 2 ? 1 : -1) * Math.ceil(i / 2) * step;
      var cy = clampTo(y + dy, lo, hi), box = this.toCss(ctx, x - w / 2, cy - h / 2, w, h), free = true;
      for (var j = 0; j < placed.length && free; j++) free = !overlap(box, placed[j], 1);
      for (var o = 0; o < this.blocked.length && free; o++) free = !overlap(box, this.blocked[o], 1);
      if (free) return { x: x, y: cy, box: box };
      if (i === 0) best = cy;
    }
    return { x: x, y: best, box: this.toCss(ctx, x - w / 2, best - h / 2, w, h) };
  }
}

/** Fields of an ending drag / scroll event that are worth drawing (velocity, prediction). */
function pick(m) {
  var o = { phase: m.phase };
  ['vx', 'vy', 'dx', 'dy', 'predictedX', 'predictedY', 'duration'].forEach(function (k) { if (typeof m[k] === 'number') o[k] = m[k]; });
  return o;
}

// How each gesture is drawn, and its labels: methods of the view (marks.js).
Object.assign(View.prototype, markDrawing);
