/* GesturePad: how each gesture is drawn on the live view, and the labels beside the drawings
 * (placed clear of each other by the view, painted last). These are methods of View: view.js
 * adds `markDrawing` to its prototype, so `this` is the view. */
import { colorOf } from './gestures.js';
import { fmt, num } from './numbers.js';
import { arrowHead, chevron, circle, clamp, ease, roundRect } from './draw.js';

const TAU = Math.PI * 2;
const PRESS_R = 72;  // long press family: outer extent of the rings (kept whole on screen)

function drawActive(ctx, a, now) {
  var m = a.m, g = a.g, x = num(m.x), y = num(m.y), c = colorOf(g);
  ctx.save();
  ctx.lineCap = ctx.lineJoin = 'round';
  if (g === 'timedPress' || g === 'longPress') {
    var lp = this.config.longPressDuration || 500;
    var held = num(m.duration) + (now - a.at);
    var r = g === 'longPress' ? 52 : 42, p = this.inside(x, y, PRESS_R);
    ctx.lineWidth = g === 'longPress' ? 7 : 5;
    ctx.strokeStyle = '#30363d'; this.ring(ctx, p.x, p.y, r);
    ctx.strokeStyle = c;
    ctx.beginPath(); ctx.arc(p.x, p.y, r, -Math.PI / 2, -Math.PI / 2 + TAU * Math.min(1, held / lp)); ctx.stroke();
    if (g === 'longPress') {
      ctx.globalAlpha = 0.18 + 0.1 * Math.sin(now / 120); ctx.fillStyle = c; circle(ctx, p.x, p.y, r); ctx.fill(); ctx.globalAlpha = 1;
      this.label(ctx, p.x, p.y - r - 18, 'long press ' + (held / 1000).toFixed(1) + ' s', c, a.tint);
    } else if (this.details) {
      // Below the ring: the long press label goes above it, so the two never meet.
      this.label(ctx, p.x, p.y + r + 18, 'hold ' + Math.round(held) + ' ms', c, a.tint);
    }
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
}

function drawMark(ctx, mk, p, now) {
  var m = mk.m, g = mk.g, x = num(m.x), y = num(m.y), c = mk.cancelled ? '#6e7681' : colorOf(g), q;
  ctx.lineCap = ctx.lineJoin = 'round';
  switch (g) {
    case 'tap':
      q = this.inside(x, y, 65);
      ctx.strokeStyle = c; ctx.lineWidth = 4 * (1 - p) + 1;
      this.ring(ctx, q.x, q.y, 16 + 46 * ease(p));
      ctx.fillStyle = c; circle(ctx, q.x, q.y, 17); ctx.fill();
      ctx.fillStyle = '#0d1117'; ctx.font = '700 17px system-ui, sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      ctx.fillText(String(num(m.count, 1)), q.x, q.y + 1);
      // The second tap of a double tap leaves its words to the doubleTap mark.
      var n = num(m.count, 1);
      if (n !== 2) this.label(ctx, q.x, q.y + 44 + 28 * Math.min(3, n - 1), (n === 1 ? 'tap' : 'tap ×' + n) + (num(m.pointers, 1) > 1 ? ' · ' + m.pointers + ' fingers' : ''), c, mk.tint);
      break;
    case 'doubleTap':
      q = this.inside(x, y, 58);
      ctx.strokeStyle = c; ctx.lineWidth = 4;
      this.ring(ctx, q.x, q.y, 26 + 10 * p); this.ring(ctx, q.x, q.y, 36 + 20 * p);
      this.label(ctx, q.x, q.y - 62, 'double tap', c, mk.tint);
      break;
    case 'singleTapConfirmed':
      if (this.details) this.label(ctx, x, y - 34, 'single ✓', c, mk.tint);
      break;
    case 'repeat':
      if (!this.details) break;
      q = this.inside(x, y, PRESS_R);
      ctx.strokeStyle = c; ctx.lineWidth = 3;
      this.ring(ctx, q.x, q.y, 58 + 12 * p);
      if (!mk.quiet) this.label(ctx, q.x, q.y, 'repeat ' + num(m.count), c, mk.tint, { gap: PRESS_R + 4 });
      break;
    case 'press':
      if (this.details) { ctx.fillStyle = c; circle(ctx, x, y, 6 + 6 * p); ctx.fill(); }
      break;
    case 'swipe':
      this.drawSwipe(ctx, mk, x, y, p, c);
      break;
    case 'end':
      if (this.details) this.label(ctx, x, y, '✕ cancelled', '#f85149', mk.tint);
      break;
    case 'drag': case 'longPressDrag':
      this.drawPath(ctx, mk.a.pts, c, 1, m, mk.tint, true);
      break;
    case 'timedPress': case 'longPress':
      q = this.inside(x, y, PRESS_R);
      ctx.strokeStyle = c; ctx.lineWidth = 5;
      this.ring(ctx, q.x, q.y, (g === 'longPress' ? 52 : 42) + 18 * p);
      if (g === 'longPress') this.label(ctx, q.x, q.y - 70, mk.cancelled ? 'long press cancelled' : 'long press ' + (num(m.duration) / 1000).toFixed(1) + ' s', c, mk.tint);
      break;
    default:
      if (mk.a) this.drawActive(ctx, { g: g, m: m, a: mk.a, pts: mk.a.pts || [], start: mk.a.start, at: now, tint: mk.tint }, now);
  }
}

function drawPath(ctx, pts, c, alpha, m, tint, ended) {
  if (pts.length < 2) return;
  ctx.strokeStyle = c; ctx.lineWidth = 6; ctx.globalAlpha *= alpha;
  ctx.beginPath(); ctx.moveTo(pts[0].x, pts[0].y);
  for (var i = 1; i < pts.length; i++) ctx.lineTo(pts[i].x, pts[i].y);
  ctx.stroke();
  var a = pts[pts.length - 2], b = pts[pts.length - 1];
  ctx.fillStyle = c; circle(ctx, pts[0].x, pts[0].y, 6); ctx.fill();
  arrowHead(ctx, a.x, a.y, b.x, b.y, 18, c);
  if (ended && m.predictedX !== undefined) {
    var bd = this.bounds();
    ctx.setLineDash([6, 8]); ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(b.x, b.y);
    ctx.lineTo(clamp(num(m.predictedX, b.x), bd.l + 4, bd.r - 4), clamp(num(m.predictedY, b.y), bd.t + 4, bd.b - 4)); ctx.stroke();
    ctx.setLineDash([]);
  }
  var v = Math.hypot(num(m.vx), num(m.vy));
  var name = m.gesture === 'longPressDrag' ? 'long-press drag' : 'drag';
  this.label(ctx, b.x, b.y - 34, name + ' ' + Math.round(Math.hypot(num(m.dx), num(m.dy))) + ' px · ' + Math.round(v) + ' px/s', c, tint);
}

function drawSwipe(ctx, mk, x, y, p, c) {
  var m = mk.m, dir = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[m.direction] || [1, 0];
  var len = Math.min(150, Math.max(70, num(m.distance) * 0.6)), shift = 30 * ease(p);
  // The arrow ends where the finger left the glass, moved back inside the screen if needed.
  var bd = this.bounds(), ex = fitArrow(x, dir[0], len, bd.l, bd.r), ey = fitArrow(y, dir[1], len, bd.t, bd.b);
  var x0 = ex - dir[0] * len + dir[0] * shift, y0 = ey - dir[1] * len + dir[1] * shift;
  var x1 = ex + dir[0] * shift, y1 = ey + dir[1] * shift;
  ctx.strokeStyle = c; ctx.lineWidth = 14;
  ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
  arrowHead(ctx, x0, y0, x1 + dir[0] * 14, y1 + dir[1] * 14, 36, c);
  // Below a horizontal arrow, on a vertical one: clear of the drag label at the path's head.
  this.label(ctx, (x0 + x1) / 2, (y0 + y1) / 2 + (dir[1] ? 0 : 40), 'swipe ' + m.direction + ' · ' + Math.round(num(m.velocity)) + ' px/s' + (num(m.pointers, 1) > 1 ? ' · ' + m.pointers + 'f' : ''), c, mk.tint);
}

/** One axis of a swipe arrow ending at v and pointing d (+1, -1, 0): tail `len` behind,
 * head and its slide 44 ahead, 20 px of width either side, all inside [lo, hi]. */
function fitArrow(v, d, len, lo, hi) {
  if (d > 0) return clamp(v, lo + 8 + len, hi - 46);
  if (d < 0) return clamp(v, lo + 46, hi - 8 - len);
  return clamp(v, lo + 20, hi - 20);
}

function drawScroll(ctx, a, c) {
  var m = a.m, x = num(m.x), y = num(m.y), s = a.start || { x: x, y: y };
  ctx.strokeStyle = c; ctx.lineWidth = 5;
  ctx.setLineDash([2, 10]);
  ctx.beginPath(); ctx.moveTo(s.x, s.y); ctx.lineTo(x, y); ctx.stroke(); ctx.setLineDash([]);
  var dx = num(m.dx), dy = num(m.dy), d = Math.hypot(dx, dy) || 1, ux = dx / d, uy = dy / d;
  for (var k = 0; k < 2; k++) chevron(ctx, x - ux * 18 * k, y - uy * 18 * k, ux, uy, 16, c);
  this.label(ctx, x, y + 44, 'scroll ' + fmt(dx) + ', ' + fmt(dy), c, a.tint);
}

function drawPinch(ctx, x, y, scale, c, tint) {
  var rmax = Math.min(400, this.maxRadius() - 4), r0 = Math.min(56, rmax), r = Math.max(6, Math.min(rmax, r0 * scale));
  var q = this.inside(x, y, Math.max(r0, r) + 3);
  x = q.x; y = q.y;
  ctx.strokeStyle = '#6e7681'; ctx.lineWidth = 2; ctx.setLineDash([5, 6]);
  this.ring(ctx, x, y, r0); ctx.setLineDash([]);
  ctx.strokeStyle = c; ctx.lineWidth = 5;
  this.ring(ctx, x, y, r);
  this.label(ctx, x, y - Math.max(r0, r) - 20, 'pinch ×' + scale.toFixed(2), c, tint);
}

function drawRotate(ctx, x, y, angle, c, tint) {
  var r = 86, a0 = -Math.PI / 2, a1 = a0 + angle * Math.PI / 180;
  var q = this.inside(x, y, r + 3);
  x = q.x; y = q.y;
  this.record.rings.push(this.toCss(ctx, x - r - 3, y - r - 3, 2 * r + 6, 2 * r + 6));
  ctx.strokeStyle = c; ctx.lineWidth = 6;
  ctx.beginPath(); ctx.arc(x, y, r, a0, a1, angle < 0); ctx.stroke();
  ctx.lineWidth = 3;
  ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + r * Math.cos(a1), y + r * Math.sin(a1)); ctx.stroke();
  ctx.strokeStyle = '#6e7681'; ctx.lineWidth = 2;
  ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x, y - r); ctx.stroke();
  this.label(ctx, x, y + r + 22, 'rotate ' + (angle > 0 ? '+' : '') + angle.toFixed(0) + '°', c, tint);
}

function drawHover(ctx, a, x, y, c) {
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
}

/** A small readable pill of text; observer labels carry the session's colour dot. Placed now
 * (clear of the labels before it, inside the screen), painted at the end of the frame above
 * every ring and path. `side` (optional): beside (x, y) instead of centred on it — `gap` px
 * to the right, or to the left where the right has no room. */
function label(ctx, x, y, text, c, tint, side) {
  var k = this.labelScale && this.fit ? this.labelScale : 1;
  ctx.save();
  ctx.font = '600 ' + (13 * k).toFixed(1) + 'px system-ui, sans-serif';
  var w = ctx.measureText(text).width + 16 * k + (tint ? 12 * k : 0), h = 22 * k;
  if (side) {
    var right = x + side.gap + w / 2;
    x = right + w / 2 + 4 * k <= this.labelBounds().r ? right : x - side.gap - w / 2;
  }
  var at = this.place(ctx, x, y, w, h);
  at.box.text = text;
  this.record.labels.push(at.box);
  this.pending.push({ x: at.x, y: at.y, w: w, h: h, k: k, text: text, c: c, tint: tint,
                      t: ctx.getTransform(), alpha: ctx.globalAlpha });
  ctx.restore();
}

/** Paints the labels placed this frame, last, so nothing is drawn over their text. */
function paintLabels(ctx) {
  for (var i = 0; i < this.pending.length; i++) {
    var l = this.pending[i], k = l.k;
    ctx.save();
    ctx.setTransform(l.t);
    ctx.globalAlpha = l.alpha;
    ctx.font = '600 ' + (13 * k).toFixed(1) + 'px system-ui, sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.fillStyle = LABEL.pill; ctx.strokeStyle = l.c; ctx.lineWidth = 1.5 * k;
    roundRect(ctx, l.x - l.w / 2, l.y - l.h / 2, l.w, l.h, l.h / 2); ctx.fill(); ctx.stroke();
    if (l.tint) { ctx.fillStyle = l.tint; circle(ctx, l.x - l.w / 2 + 10 * k, l.y, 4 * k); ctx.fill(); }
    ctx.fillStyle = LABEL.text;
    ctx.fillText(l.text, l.x + (l.tint ? 6 * k : 0), l.y + 0.5);
    ctx.restore();
  }
  this.pending.length = 0;
}

/** Label colours: light text on a dark pill, 90 % opaque (≥ 4.5:1 over anything). */
export const LABEL = { text: '#e6edf3', pill: 'rgba(13,17,23,.9)' };

/** The drawing methods of View. */
export const markDrawing = { drawActive, drawMark, drawPath, drawSwipe, drawScroll, drawPinch, drawRotate, drawHover, label, paintLabels };
