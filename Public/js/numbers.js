/* GesturePad: small number helpers shared by the page's modules. No DOM. */

/** Rounded to 2 decimals (coordinates, CSS px). */
export function round2(v) { return Math.round(v * 100) / 100; }

/** Rounded to 3 decimals (timestamps, ms). */
export function round3(v) { return Math.round(v * 1000) / 1000; }

/** `v` when it is a finite number, else `d` (default 0). */
export function num(v, d) { return typeof v === 'number' && isFinite(v) ? v : (d === undefined ? 0 : d); }

/** A number field as text with `digits` decimals (missing fields read 0). */
export function fmt(v, digits) { return num(v).toFixed(digits || 0); }
