/* GesturePad: canvas drawing primitives and box geometry for the live view. No DOM beyond the
 * 2D context they are given. */

const TAU = Math.PI * 2;

/** Ease-out cubic, for marks that grow as they fade. */
export function ease(p) { return 1 - Math.pow(1 - p, 3); }

/** `v` within [lo, hi] (the middle when the range is empty). */
export function clamp(v, lo, hi) { return lo > hi ? (lo + hi) / 2 : Math.max(lo, Math.min(hi, v)); }

/** Whether boxes {x, y, w, h} come closer than `gap`. */
export function overlap(a, b, gap) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** Starts a path that is the circle around (x, y). */
export function circle(ctx, x, y, r) { ctx.beginPath(); ctx.arc(x, y, Math.max(0, r), 0, TAU); }

/** Starts a path that is a rectangle with round corners. */
export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath(); ctx.moveTo(x + r, y); ctx.arcTo(x + w, y, x + w, y + h, r); ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r); ctx.arcTo(x, y, x + w, y, r); ctx.closePath();
}

/** A filled arrow head at (x1, y1), pointing away from (x0, y0). */
export function arrowHead(ctx, x0, y0, x1, y1, size, c) {
  const ang = Math.atan2(y1 - y0, x1 - x0);
  ctx.fillStyle = c; ctx.beginPath(); ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - size * Math.cos(ang - 0.45), y1 - size * Math.sin(ang - 0.45));
  ctx.lineTo(x1 - size * Math.cos(ang + 0.45), y1 - size * Math.sin(ang + 0.45));
  ctx.closePath(); ctx.fill();
}

/** A chevron at (x, y) pointing along the unit vector (ux, uy). */
export function chevron(ctx, x, y, ux, uy, s, c) {
  ctx.strokeStyle = c; ctx.lineWidth = 5; ctx.beginPath();
  ctx.moveTo(x - ux * s - uy * s, y - uy * s + ux * s); ctx.lineTo(x, y); ctx.lineTo(x - ux * s + uy * s, y - uy * s - ux * s); ctx.stroke();
}
