/* GesturePad: the feed's words — what a gesture event or a command notice says in a row of the
 * feed (js/feed.js), pure: no DOM. The calm mode's words for what a person did (`say`) or, on a
 * touchpad that drives the computer, for what the computer did (`computerDid`); the details
 * mode's key fields (`describe`); a `command` row's words (`commandWords`). */
import { fmt, num } from './numbers.js';

/** Events that the calm feed leaves out: the engine's inner workings. */
export const INTERNAL = { timedPress: 1, singleTapConfirmed: 1, press: 1, release: 1, end: 1, repeat: 1 };

/** Key fields of a gesture event, as short technical text (details mode). */
export function describe(m) {
  switch (m.gesture) {
    case 'tap': return 'count ' + m.count + (m.pointers > 1 ? ' · ' + m.pointers + ' fingers' : '');
    case 'doubleTap': return (m.pointers > 1 ? m.pointers + ' fingers · ' : '') + 'at ' + fmt(m.x) + ', ' + fmt(m.y);
    case 'singleTapConfirmed': return 'at ' + fmt(m.x) + ', ' + fmt(m.y);
    case 'longPress': case 'timedPress': return fmt(m.duration) + ' ms';
    case 'repeat': return 'count ' + m.count;
    case 'drag': case 'longPressDrag': return 'dx ' + fmt(m.dx) + ' dy ' + fmt(m.dy) + ' · ' + fmt(Math.hypot(num(m.vx), num(m.vy))) + ' px/s';
    case 'swipe': return m.direction + ' · ' + fmt(m.distance) + ' px · ' + fmt(m.velocity) + ' px/s' + (m.pointers > 1 ? ' · ' + m.pointers + ' fingers' : '') + (m.ends ? ' · ends ' + m.ends : '');
    case 'scroll': return 'dx ' + fmt(m.dx) + ' dy ' + fmt(m.dy);
    case 'pinch': return 'scale ' + fmt(m.scale, 2);
    case 'rotate': return 'angle ' + fmt(m.angle, 1) + '°';
    case 'hover': return (m.pointerType || '') + ' at ' + fmt(m.x) + ', ' + fmt(m.y);
    case 'end': return m.reason + ' · ' + fmt(m.duration) + ' ms';
    default: return 'at ' + fmt(m.x) + ', ' + fmt(m.y);
  }
}

const TAP_WORDS = { 1: 'tap', 2: 'double tap', 3: 'triple tap' };

function fingers(m) { return num(m.pointers, 1) > 1 ? m.pointers + ' fingers' : ''; }
/** The direction a finger travel points to, as an arrow (the dominant axis). */
function arrow(dx, dy) {
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return '';
  return Math.abs(dx) >= Math.abs(dy) ? (dx < 0 ? '←' : '→') : (dy < 0 ? '↑' : '↓');
}

/** What a person did, in words: [name, detail] (calm mode), or null for nothing. The words are
 * the terminal's (docs/outputs.md "One vocabulary"): `pointer` for one finger moving, `drag` with
 * the button held (a long press first), `scroll` for two fingers even when flicked (a swipe that
 * ends a scroll has no row of its own), `swipe` for a flick that ends a drag. */
export function say(m) {
  var g = m.gesture;
  switch (g) {
    case 'tap': {
      var n = num(m.count, 1);
      return [TAP_WORDS[n] || 'tap ×' + n, fingers(m)];
    }
    case 'doubleTap': return ['double tap', fingers(m)];
    case 'longPress': return ['long press', m.phase === 'began' ? '' : (num(m.duration) / 1000).toFixed(1) + ' s'];
    case 'drag': case 'longPressDrag': {
      var d = Math.hypot(num(m.dx), num(m.dy));
      return [g === 'drag' && num(m.pointers, 1) === 1 ? 'pointer' : 'drag', (arrow(num(m.dx), num(m.dy)) + ' ' + Math.round(d) + ' px').trim()];
    }
    case 'swipe': return m.ends === 'scroll' ? null : ['swipe ' + (m.direction || ''), fingers(m)];
    case 'scroll': {
      var s = Math.hypot(num(m.dx), num(m.dy));
      return ['scroll', (arrow(num(m.dx), num(m.dy)) + ' ' + Math.round(s) + ' px').trim()];
    }
    case 'pinch': {
      var k = num(m.scale, 1);
      return ['pinch', (k >= 1 ? 'zoom in' : 'zoom out') + ' ×' + k.toFixed(2)];
    }
    case 'rotate': return ['rotate', (num(m.angle) > 0 ? '+' : '') + num(m.angle).toFixed(0) + '°'];
    case 'hover': return ['hover', m.pointerType || 'mouse'];
    default: return [g, ''];
  }
}

/** What a tap clicks: `click`, `double click`, `right click`, `middle click ×2`. */
function clicks(button, n) {
  if (button === 'left') return n === 1 ? 'click' : (TAP_WORDS[n] || 'tap ×' + n).replace('tap', 'click');
  return button + ' click' + (n > 1 ? ' ×' + n : '');
}

/** What the computer did for one gesture event, as [row kind, name, detail], or null for
 * nothing (a stroke's swipe, a rotation, a long press without motion…). `c`: the touchpad's
 * mapping (`computer()` of the feed's options); `held`: the drag's row holds the button. */
export function computerDid(m, c, held) {
  var s = c.settings || {}, map = c.mapping || {};
  switch (m.gesture) {
    case 'tap': {
      var button = (map.tapButtons || ['left', 'right', 'middle'])[num(m.pointers, 1) - 1];
      if (s.tapToClick === false || !button) return null;
      if (s.leftHanded) button = button === 'left' ? 'right' : button === 'right' ? 'left' : button;
      return ['tap', clicks(button, num(m.count, 1)), ''];
    }
    case 'drag':
      if (num(m.pointers, 1) > 1) return null; // two fingers scroll, three swipe
      return ['drag', held ? 'drag' : 'pointer', arrow(num(m.dx), num(m.dy)) + ' ' + Math.round(Math.hypot(num(m.dx), num(m.dy))) + ' px'];
    case 'longPressDrag':
      return ['drag', 'drag', arrow(num(m.dx), num(m.dy)) + ' ' + Math.round(Math.hypot(num(m.dx), num(m.dy))) + ' px'];
    case 'scroll': return ['scroll'].concat(say(m));
    case 'pinch':
      if (map.pinchZoom === false) return null;
      return ['pinch', num(m.scale, 1) >= 1 ? 'zoom in' : 'zoom out', '×' + num(m.scale, 1).toFixed(2)];
    case 'swipe': {
      // A swipe that ends a scroll (fingers lifted down to two, then a flick) presses nothing.
      var keys = num(m.pointers, 1) === 3 && m.ends !== 'scroll' && map.swipes ? map.swipes[m.direction] : null;
      return keys ? ['swipe', 'swipe ' + m.direction, '→ ' + keys] : null;
    }
    default: return null;
  }
}

/** What the computer was told by a `command` notice (docs/protocol.md): `typed 8 characters`,
 * `Control+C`, `Enter`, `right click`, `left button down`, `spotlight on` — never the text itself. */
export function commandWords(m) {
  switch (m.command) {
    case 'text': {
      var n = num(m.characters);
      return 'typed ' + n + ' character' + (n === 1 ? '' : 's');
    }
    case 'key': {
      var mods = Array.isArray(m.modifiers) ? m.modifiers : [];
      var key = String(m.key || '');
      // A shortcut is written with its letter in capitals, as menus do: Control+C.
      if (mods.length && key.length === 1) key = key.toUpperCase();
      return mods.concat([key]).join('+');
    }
    case 'button': {
      var b = String(m.button || '');
      return m.action === 'click' ? b + ' click' : b + ' button ' + (m.action === 'down' ? 'down' : 'up');
    }
    case 'spotlight': return m.do === 'show' ? 'spotlight on' : 'spotlight off';
    case 'media': return mediaWords(m);
    default: return String(m.command || 'command');
  }
}

/** A `media` command notice: `play/pause`, `next track`, `seek to 1:05`, `player volume 25 %`. */
function mediaWords(m) {
  switch (m.do) {
    case 'play-pause': return 'play/pause';
    case 'next': return 'next track';
    case 'previous': return 'previous track';
    case 'seek': {
      var s = Math.max(0, Math.round(num(m.position) / 1000));
      return 'seek to ' + Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
    }
    case 'volume': return 'player volume ' + Math.round(num(m.volume) * 100) + ' %';
    case 'player': return 'player chosen';
    default: return String(m.do || 'media');
  }
}
