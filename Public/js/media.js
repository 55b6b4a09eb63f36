/* GesturePad: the media view — what the computer's media player plays, and the controls that
 * drive it (the additive `media` and `media-art` messages, docs/protocol.md "Media").
 *
 * The page asks to hear the players after every welcome (`watch`); the server then says what
 * plays at once and whenever it changes. The page keeps the last word (also while the view is
 * closed) and shows it: the title, artist, album and cover, whether it plays, a seek bar that
 * moves on by itself while it plays — from `position`, `rate` and the time since the message,
 * the server sends no ticks — the player's volume and, when several players run, which one to
 * follow. Play, pause, previous, next, seek, the volume and the choice of player go out as
 * `media`; the computer's own volume as `media` `computer-volume` / `computer-mute` when the
 * server can ask its sound server, else as the `key` messages of the keyboard's key row. No player,
 * or no desktop session, is one calm line. */

/** The `why` of `{"available": false}`, said as a line. */
const UNAVAILABLE = {
  'no-player': 'No media player is playing on the computer',
  'no-bus': 'The computer has no desktop session for media'
};
const WAITING = 'Waiting for the computer to say what plays…';
const COVERS_KEPT = 4;            // covers by `art` id (a track change comes back to the last one)
const VOLUME_EVERY_MS = 150;      // a volume slider being dragged sends at most this often
const REPEAT_DELAY = 450, REPEAT_EVERY = 90; // the computer's volume keys repeat while held (as the key row's)
const COMPUTER_STEP = 0.05;       // one press of the computer's volume up or down, as desktops step it

const PLAY_ICON = '<path d="M7 4.5v15l12.5-7.5z"/>';
const PAUSE_ICON = '<path d="M7 4.5v15M17 4.5v15"/>';

// ---- pure: what a message means ---------------------------------------------------------

/** A finite number, or null. */
function num(v) { return typeof v === 'number' && isFinite(v) ? v : null; }
function text(v) { return typeof v === 'string' ? v : ''; }

/** The `media` message as the page keeps it (each field checked, absent ones null) and `at`,
 * when it came on the page's clock (performance.now(), ms). */
export function mediaState(m, at) {
  const players = Array.isArray(m.players)
    ? m.players.filter((p) => p && typeof p.id === 'string').map((p) => ({ id: p.id, name: text(p.name) || p.id }))
    : [];
  const status = m.status === 'playing' || m.status === 'paused' ? m.status : 'stopped';
  const volume = num(m.volume);
  return {
    available: m.available === true, why: text(m.why), player: text(m.player), players, status,
    title: text(m.title), artist: text(m.artist), album: text(m.album),
    length: num(m.length) !== null && m.length > 0 ? m.length : null,
    position: Math.max(0, num(m.position) || 0), rate: num(m.rate) === null ? 1 : m.rate,
    volume: volume === null ? null : Math.min(1, Math.max(0, volume)),
    canSeek: m.canSeek === true, canNext: m.canNext === true, canPrevious: m.canPrevious === true,
    art: text(m.art), computer: computerState(m.computer), at
  };
}

/** The computer's own volume (`computer`: its sound server's output), or null when the server
 * cannot ask it (the volume buttons then send the media keys). */
export function computerState(c) {
  if (!c || typeof c !== 'object' || num(c.volume) === null) return null;
  return { volume: Math.min(1, Math.max(0, c.volume)), muted: c.muted === true };
}

/** Where one press of a computer volume button (`AudioVolumeUp` / `AudioVolumeDown`) takes
 * `volume`: a step of COMPUTER_STEP, within 0 … 1, on the grid of steps. */
export function computerStep(volume, key) {
  const steps = Math.round(volume / COMPUTER_STEP) + (key === 'AudioVolumeUp' ? 1 : -1);
  return Math.min(1, Math.max(0, Math.round(steps * COMPUTER_STEP * 1000) / 1000));
}

/** Where the track is at `now` (the page's clock, ms): the message's `position`, moved on by
 * `rate` × the time since it came while playing, within the track (as the server's
 * MediaSnapshot.position(at:) reckons it). */
export function positionAt(media, now) {
  if (!media) return 0;
  let p = media.position;
  if (media.status === 'playing') p += Math.max(0, now - media.at) * media.rate;
  if (media.length !== null) p = Math.min(p, media.length);
  return Math.max(0, p);
}

/** A time as the view shows it: "0:07", "3:05", "1:02:03". */
export function clockText(ms) {
  const s = Math.max(0, Math.floor((ms || 0) / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  const two = (n) => (n < 10 ? '0' : '') + n;
  return h ? h + ':' + two(m) + ':' + two(sec) : m + ':' + two(sec);
}

/** A cover the page shows: a `data:` URL of an image type the protocol allows (nothing else is
 * ever put in an <img>: the page loads no address the wire names). */
export function coverUrl(data) {
  return typeof data === 'string' && /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i.test(data) ? data : null;
}

/** The line the view shows when there is no track to show (null when there is one). */
export function noneText(media) {
  if (!media) return WAITING;
  if (!media.available) return UNAVAILABLE[media.why] || UNAVAILABLE['no-player'];
  return null;
}

/** The players to choose from, each named so that two of the same program differ ("mpv",
 * "mpv (2)"). */
export function playerNames(players) {
  const seen = {};
  return players.map((p) => {
    seen[p.name] = (seen[p.name] || 0) + 1;
    return { id: p.id, name: seen[p.name] > 1 ? p.name + ' (' + seen[p.name] + ')' : p.name };
  });
}

// ---- the view ---------------------------------------------------------------------------------

/**
 * opts: root (the view's <section>), state (the page state: `media`, `mediaCovers`), send(msg)
 * → bool (a `media` message, through the connection), sendKey(key) → bool (a `key` message,
 * while the server drives the computer), buzz(pattern, why), now() (the page's clock; default
 * performance.now), frame(fn) (default requestAnimationFrame).
 */
export class MediaView {
  constructor(opts) {
    this.root = opts.root;
    this.state = opts.state;
    this.send = opts.send;
    this.sendKey = opts.sendKey;
    this.buzz = opts.buzz || function () {};
    this.now = opts.now || (() => performance.now());
    this.frame = opts.frame || ((fn) => requestAnimationFrame(fn));
    this.open = false;
    this.usable = false;     // live: the controls reach the computer
    this.keys = false;       // the server drives the computer: its volume keys work
    this.computerAsked = null; // the computer volume last asked for, until the server tells it
    this.covers = new Map(); // art id → data: URL
    this.seeking = false;    // a finger (or a key) is on the seek bar: the server's word waits
    this.volumeDrag = { on: false, sent: -Infinity, timer: 0, value: null };
    this.ticking = false;
    this.shownSecond = -1;
    this.repeatTimer = 0;
    this.state.media = null;
    this.state.mediaCovers = [];
    const q = (sel) => this.root.querySelector(sel);
    this.el = {
      none: q('.media-none'), now: q('.media-now'), cover: q('.cover img'), title: q('.media-title'),
      artist: q('.media-artist'), album: q('.media-album'), status: q('.media-status'), choice: q('.media-choice'),
      select: q('.media-choice select'), seek: q('input[name=seek]'), elapsed: q('.media-elapsed'),
      length: q('.media-length'), toggle: q('[data-do=toggle]'), previous: q('[data-do=previous]'),
      next: q('[data-do=next]'), volumeRow: q('.media-volume'), volume: q('input[name=volume]'),
      computer: q('.computer-volume'), computerLevel: q('.computer-level')
    };
    this.bind();
    this.render();
  }

  /** Asks to hear the players, after every welcome: the server answers with their state now
   * and every change from then on (it tells no page unasked). Goes after the welcome's first
   * batch (the `settings`), sealed in a frame of its own. */
  watch() { this.send({ type: 'media', do: 'watch' }); }

  // ---- what the server says ---------------------------------------------------------------
  /** A message from the server; true when it is the view's (`media`, `media-art`, and the
   * `media_unavailable` error). */
  message(m) {
    if (m.type === 'media') {
      this.state.media = mediaState(m, this.now());
      this.computerAsked = null; // the server's word on the volume stands again
      this.render();
      return true;
    }
    if (m.type === 'media-art') {
      const url = coverUrl(m.data);
      if (typeof m.art !== 'string' || !url) return true;
      this.covers.delete(m.art);
      this.covers.set(m.art, url);
      while (this.covers.size > COVERS_KEPT) this.covers.delete(this.covers.keys().next().value);
      this.state.mediaCovers = Array.from(this.covers.keys());
      this.renderCover();
      return true;
    }
    // `media_unavailable` (the player left as the tap went out) is no toast (pad.js): the
    // server's `media` saying so is what the view shows.
    return m.type === 'error' && m.code === 'media_unavailable';
  }

  /** Shown or hidden (the page shows one view at a time, controls.js). */
  setOpen(open) {
    this.open = open;
    this.root.hidden = !open;
    if (open) { this.render(); this.tick(); }
  }

  /** Live or not: not live, every control is disabled (the page's notice says why). */
  setUsable(usable) { this.usable = usable; this.render(); }

  /** Whether the server drives the computer: the computer's volume keys are shown only then. */
  setKeys(on) { this.keys = on; this.render(); }

  // ---- showing it ------------------------------------------------------------------------------
  render() {
    const media = this.state.media, el = this.el;
    const none = noneText(media);
    el.none.textContent = none || '';
    el.none.hidden = !none;
    el.now.hidden = !!none;
    // The computer's volume: its sound server's, told by the server (no control needed), else
    // the media keys through the backend (with control only).
    const computer = media && media.computer;
    el.computer.hidden = !this.keys && !computer;
    for (const b of el.computer.querySelectorAll('button')) b.disabled = !this.usable;
    el.computerLevel.textContent = computer ? (computer.muted ? 'muted' : Math.round(computer.volume * 100) + ' %') : '';
    el.computerLevel.hidden = !computer;
    const mute = el.computer.querySelector('[data-key=AudioVolumeMute]');
    if (computer) mute.setAttribute('aria-pressed', computer.muted ? 'true' : 'false');
    else mute.removeAttribute('aria-pressed');
    if (none) { this.setDisabled(true); return; }
    el.title.textContent = media.title || 'Unknown title';
    el.artist.textContent = media.artist;
    el.artist.hidden = !media.artist;
    el.album.textContent = media.album;
    el.album.hidden = !media.album;
    const names = playerNames(media.players);
    const current = names.find((p) => p.id === media.player);
    el.status.textContent = { playing: 'Playing', paused: 'Paused', stopped: 'Stopped' }[media.status] +
      (current && names.length < 2 ? ' · ' + current.name : '');
    this.renderChoice(names, media.player);
    const playing = media.status === 'playing';
    el.toggle.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    el.toggle.title = playing ? 'Pause' : 'Play';
    el.toggle.querySelector('svg').innerHTML = playing ? PAUSE_ICON : PLAY_ICON;
    el.toggle.dataset.state = media.status;
    this.setDisabled(false);
    el.seek.max = String(media.length || 0);
    el.length.textContent = media.length !== null ? clockText(media.length) : '';
    el.volumeRow.hidden = media.volume === null;
    if (media.volume !== null && !this.volumeDrag.on) {
      el.volume.value = String(media.volume);
      this.volumeDrag.value = null; // the server's word: the next move goes out whatever it is
    }
    el.volume.setAttribute('aria-valuetext', Math.round((media.volume || 0) * 100) + ' %');
    this.renderCover();
    this.shownSecond = -1;
    this.showPosition();
    this.tick();
  }

  setDisabled(all) {
    const media = this.state.media, el = this.el, off = all || !this.usable;
    el.toggle.disabled = off;
    el.previous.disabled = off || !media.canPrevious;
    el.next.disabled = off || !media.canNext;
    el.seek.disabled = off || !media.canSeek || media.length === null;
    el.volume.disabled = off;
    el.select.disabled = off;
  }

  renderChoice(names, player) {
    const select = this.el.select;
    this.el.choice.hidden = names.length < 2;
    const same = select.options.length === names.length &&
      names.every((p, i) => select.options[i].value === p.id && select.options[i].textContent === p.name);
    if (!same) {
      select.textContent = '';
      for (const p of names) {
        const o = document.createElement('option');
        o.value = p.id;
        o.textContent = p.name;
        select.appendChild(o);
      }
    }
    select.value = player;
  }

  renderCover() {
    const media = this.state.media, img = this.el.cover;
    const url = media && media.art ? this.covers.get(media.art) : null;
    if (url) {
      if (img.getAttribute('src') !== url) img.src = url;
      img.alt = 'Cover of ' + (media.album || media.title || 'the track');
    } else {
      img.removeAttribute('src');
      img.alt = '';
    }
    img.hidden = !url;
    this.root.querySelector('.cover').classList.toggle('empty', !url);
  }

  /** The seek bar and the elapsed time at this moment (not while a finger is on the bar). */
  showPosition() {
    const media = this.state.media;
    if (!media || !media.available || this.seeking) return;
    const p = positionAt(media, this.now());
    this.el.seek.value = String(Math.round(p));
    const second = Math.floor(p / 1000);
    if (second !== this.shownSecond) {
      this.shownSecond = second;
      this.el.elapsed.textContent = clockText(p);
      this.el.seek.setAttribute('aria-valuetext', clockText(p) + (media.length !== null ? ' of ' + clockText(media.length) : ''));
    }
  }

  /** While the view is open and the track plays, the seek bar moves on every animation frame. */
  tick() {
    if (this.ticking) return;
    const media = this.state.media;
    if (!this.open || !media || !media.available || media.status !== 'playing') return;
    this.ticking = true;
    this.frame(() => {
      this.ticking = false;
      this.showPosition();
      this.tick();
    });
  }

  // ---- what the person does -----------------------------------------------------------------
  command(msg, why) {
    if (!this.usable) return;
    this.send(Object.assign({ type: 'media' }, msg));
    this.buzz(12, why || 'media');
  }

  bind() {
    const el = this.el;
    // Play when it does not play, pause when it does: what the button says is what it does
    // (a toggle would undo a tap made on a state the server had already changed).
    el.toggle.addEventListener('click', () => {
      const media = this.state.media;
      this.command({ do: media && media.status === 'playing' ? 'pause' : 'play' });
    });
    el.previous.addEventListener('click', () => this.command({ do: 'previous' }));
    el.next.addEventListener('click', () => this.command({ do: 'next' }));

    // Seek: the bar follows the finger; the position goes out when it lets go.
    el.seek.addEventListener('input', () => {
      this.seeking = true;
      this.el.elapsed.textContent = clockText(+el.seek.value);
    });
    el.seek.addEventListener('change', () => {
      const position = Math.max(0, Math.round(+el.seek.value));
      this.seeking = false;
      const media = this.state.media;
      if (!media || !this.usable) return;
      // Shown at once where the finger left it; the server's `media` (Seeked) follows.
      this.state.media = Object.assign({}, media, { position, at: this.now() });
      this.command({ do: 'seek', position }, 'seek');
      this.shownSecond = -1;
      this.showPosition();
    });
    // A finger resting on the thumb changes nothing yet, but the bar must not move under it; a
    // lift that changed nothing (no `change` within a moment) gives the bar back.
    let lift = 0;
    el.seek.addEventListener('pointerdown', () => { clearTimeout(lift); this.seeking = true; });
    const letGo = () => { if (this.seeking) { this.seeking = false; this.showPosition(); } };
    el.seek.addEventListener('pointerup', () => { clearTimeout(lift); lift = setTimeout(letGo, 250); });
    el.seek.addEventListener('pointercancel', letGo);
    el.seek.addEventListener('blur', letGo);

    // The player's volume: sent while the finger moves (at most every VOLUME_EVERY_MS), and
    // where it lets go.
    const drag = this.volumeDrag;
    const sendVolume = () => {
      clearTimeout(drag.timer);
      drag.timer = 0;
      const volume = Math.round(+el.volume.value * 100) / 100;
      el.volume.setAttribute('aria-valuetext', Math.round(volume * 100) + ' %');
      if (volume === drag.value || !this.usable) return; // where it was already sent
      drag.sent = this.now();
      drag.value = volume;
      this.send({ type: 'media', do: 'volume', volume });
    };
    el.volume.addEventListener('input', () => {
      drag.on = true;
      const wait = drag.sent + VOLUME_EVERY_MS - this.now();
      if (wait <= 0) sendVolume();
      else if (!drag.timer) drag.timer = setTimeout(sendVolume, wait);
    });
    el.volume.addEventListener('change', () => {
      drag.on = false;
      sendVolume();
      this.buzz(8, 'volume');
    });

    el.select.addEventListener('change', () => this.command({ do: 'player', player: el.select.value }, 'player'));

    // The computer's volume: the key row's keys, repeating while held (down and up).
    const keys = el.computer;
    keys.addEventListener('pointerdown', (e) => {
      const b = e.target.closest && e.target.closest('button[data-key]');
      if (!b || b.disabled) return;
      try { b.setPointerCapture(e.pointerId); } catch (err) { /* gone */ }
      this.pressKey(b.dataset.key);
      b.classList.add('down');
      this.stopRepeat();
      if (b.dataset.key !== 'AudioVolumeMute') {
        const key = b.dataset.key;
        this.repeatTimer = setTimeout(function tick(self) {
          self.volumeStep(key);
          self.repeatTimer = setTimeout(tick, REPEAT_EVERY, self);
        }, REPEAT_DELAY, this);
      }
    });
    const stop = (e) => {
      const b = e.target.closest && e.target.closest('button[data-key]');
      if (b) b.classList.remove('down');
      this.stopRepeat();
    };
    for (const t of ['pointerup', 'pointercancel', 'lostpointercapture']) keys.addEventListener(t, stop);
    keys.addEventListener('click', (e) => {
      // A click without a pointer (keyboard, screen reader) presses the key too.
      const b = e.target.closest && e.target.closest('button[data-key]');
      if (b && e.detail === 0) this.pressKey(b.dataset.key);
    });
  }

  pressKey(key) {
    if (!this.usable) return;
    this.volumeStep(key);
    this.buzz(8, 'key');
  }

  /** One step of the computer's volume: through its sound server when the server told it
   * (`computer-volume` from the level last asked for, so held presses add up before the
   * server's answer comes; `computer-mute`), else the media key through the backend. */
  volumeStep(key) {
    const computer = this.state.media && this.state.media.computer;
    if (!computer) { this.sendKey(key); return; }
    if (key === 'AudioVolumeMute') { this.send({ type: 'media', do: 'computer-mute' }); return; }
    const from = this.computerAsked === null ? computer.volume : this.computerAsked;
    this.computerAsked = computerStep(from, key);
    this.send({ type: 'media', do: 'computer-volume', volume: this.computerAsked });
  }

  stopRepeat() { clearTimeout(this.repeatTimer); this.repeatTimer = 0; }

  /** The view closes or the page goes away: nothing keeps repeating. */
  release() { this.stopRepeat(); this.seeking = false; }
}
