/* GesturePad: the compact feed of recent gestures (DOM, bounded). */
(function () {
  'use strict';
  var GP = window.GP, CONTINUOUS = GP.CONTINUOUS, colorOf = GP.colorOf, num = GP.num, fmt = GP.fmt;

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

  GP.Feed = Feed;
  GP.describe = describe;
})();
