/* GesturePad: what the page knows about gesture names — their colours and which ones run over
 * time (began → changed → ended) rather than happening at once. No DOM. */

const COLORS = {
  tap: '#58a6ff', doubleTap: '#a371f7', singleTapConfirmed: '#8b949e', longPress: '#f0883e', timedPress: '#e3b341',
  repeat: '#d29922', drag: '#3fb950', longPressDrag: '#f0883e', swipe: '#ff7b72', scroll: '#39c5cf',
  pinch: '#f778ba', rotate: '#bc8cff', hover: '#e6edf3', press: '#6e7681', release: '#6e7681', end: '#6e7681'
};

/** Gestures with phases: one drawing / feed row follows them until they end. */
export const CONTINUOUS = { longPress: 1, longPressDrag: 1, timedPress: 1, drag: 1, scroll: 1, pinch: 1, rotate: 1, hover: 1 };

/** The colour a gesture is drawn and listed in. */
export function colorOf(g) { return COLORS[g] || '#c9d1d9'; }
