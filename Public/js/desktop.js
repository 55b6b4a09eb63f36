/* GesturePad: the desktop page (docs/server.md "The desktop page"), for the computer's own
 * user — opened by `gesturepad open` at 127.0.0.1 with the desktop key in its fragment. It
 * shows the pairing code and opens or closes pairing, lists the phones (rename, forget) and
 * what drives the computer, and the phones' gestures live (desktop-feed.js). It asks the server once a second; every request carries the key in
 * the x-gesturepad-desktop header, which the server checks with the address and the Host. */

import { startDesktopFeed } from './desktop-feed.js';

const KEY_STORE = 'gesturepad.desktopKey';
const REFRESH_MS = 1000;

/** The key: from the fragment the first time (then taken out of the address bar and history),
 * from this tab's session storage after a reload. */
function desktopKey() {
  const match = /(?:^#|&)key=([A-Za-z0-9_-]{43})(?:&|$)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(KEY_STORE, match[1]);
    history.replaceState(null, '', location.pathname);
    return match[1];
  }
  return sessionStorage.getItem(KEY_STORE) || '';
}

const key = desktopKey();
const $ = (id) => document.getElementById(id);
let editing = null; // the id of the device whose name is being edited (no redraw meanwhile)
let forgetArmed = null; // the id whose Forget was pressed once
let lastState = null;

async function ask(path) {
  const response = await fetch('/desktop/' + path, { headers: { 'x-gesturepad-desktop': key }, cache: 'no-store' });
  if (!response.ok) {
    const text = (await response.text()).trim();
    throw new Error(response.status === 401 ? 'This page needs its key: open it with gesturepad open (or GesturePad in the applications menu).' : text);
  }
  return response.json();
}

function problem(text) {
  const p = $('problem');
  p.hidden = !text;
  p.textContent = text || '';
}

function drawQR(rows) {
  const canvas = $('qr');
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!rows.length) return;
  const quiet = 4;
  const cell = Math.floor(canvas.width / (rows.length + 2 * quiet));
  const offset = Math.floor((canvas.width - cell * rows.length) / 2);
  ctx.fillStyle = '#000';
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === '1') ctx.fillRect(offset + x * cell, offset + y * cell, cell, cell);
  });
}

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m + ':' + String(s).padStart(2, '0');
}

function renderPairing(p) {
  const state = $('pairing-state');
  const toggle = $('pairing-toggle');
  if (p.confirm) {
    state.textContent = 'Each new phone asks first: you allow it here or in its notification.';
    toggle.hidden = true;
  } else if (p.open) {
    state.textContent = 'Pairing is open' + (p.secondsLeft !== undefined ? ' — ' + minutes(p.secondsLeft) + ' left.' : '.');
    toggle.hidden = false;
    toggle.textContent = 'Close pairing';
    toggle.dataset.open = '0';
  } else {
    state.textContent = 'Pairing is closed. A phone that opens the link waits, and pairs when you open it.';
    toggle.hidden = false;
    toggle.textContent = 'Open pairing';
    toggle.dataset.open = '1';
  }
  $('link').textContent = p.link;
  drawQR(p.qr);
}

function button(label, className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (className) b.className = className;
  b.addEventListener('click', onClick);
  return b;
}

function renderDevices(devices) {
  const body = $('devices').querySelector('tbody');
  $('no-devices').hidden = devices.length > 0;
  $('devices').hidden = devices.length === 0;
  body.replaceChildren(...devices.map((d) => {
    const row = document.createElement('tr');
    row.dataset.id = d.id;
    const name = document.createElement('td');
    name.className = 'name';
    if (editing === d.id) {
      const input = document.createElement('input');
      input.value = d.name;
      input.setAttribute('aria-label', 'New name for ' + d.name);
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') save(d.id, input.value); if (e.key === 'Escape') { editing = null; render(); } });
      name.append(input);
      setTimeout(() => input.focus(), 0);
    } else {
      name.textContent = d.name;
    }
    const state = document.createElement('td');
    state.className = 'state';
    state.textContent = d.state === 'paired' ? (d.connected ? 'connected' : 'paired') : 'waiting to pair';
    const seen = document.createElement('td');
    seen.textContent = d.connected ? 'now' : (d.lastSeen ? d.lastSeen.replace('T', ' ').replace(/:\d\dZ$/, ' UTC') : '—');
    const actions = document.createElement('td');
    actions.className = 'actions';
    if (editing === d.id) {
      actions.append(button('Save', 'save', () => save(d.id, name.querySelector('input').value)), ' ',
        button('Cancel', 'quiet', () => { editing = null; render(); }));
    } else {
      actions.append(button('Rename', 'quiet rename', () => { editing = d.id; forgetArmed = null; render(); }), ' ',
        button(forgetArmed === d.id ? 'Forget — sure?' : 'Forget', 'danger forget', () => forget(d.id)));
    }
    row.append(name, state, seen, actions);
    return row;
  }));
}

function renderControl(c) {
  $('control').textContent = c.active ? 'The phone drives this computer through ' + c.backend + '.' : 'The phone does not drive this computer: ' + c.reason;
}

function onOff(value, fallback) { return value === true ? 'on' : value === false ? 'off' : fallback; }

/** The desktop's own touchpad settings (docs/server.md "The desktop page"): they decide what a
 * tap does with the touchpad backend. */
function renderTouchpad(t) {
  $('touchpad').hidden = !t;
  if (!t) return;
  $('touchpad-title').textContent = 'The desktop’s touchpad settings (' + t.desktop + ')';
  $('touchpad-applies').textContent = t.applies
    ? 'The phone is this desktop’s own touchpad: these settings apply to it as to a built-in one.'
    : 'They apply to the phone only when it is the desktop’s own touchpad (gesturepad serve --control touchpad).';
  const rows = [
    ['Tap to click', onOff(t.tapToClick, 'the device’s default (off)')],
    ['Natural scrolling', onOff(t.naturalScrolling, 'the device’s default (off)')],
    ['Pointer speed', typeof t.speed === 'number' ? (t.speed > 0 ? '+' : '') + t.speed.toFixed(2) + ' (−1 … +1)' : 'the default']
  ];
  if (typeof t.disableWhileTyping === 'boolean') rows.push(['Off while typing', onOff(t.disableWhileTyping, '')]);
  $('touchpad-settings').replaceChildren(...rows.map(([name, value]) => {
    const li = document.createElement('li');
    li.dataset.setting = name;
    li.textContent = name + ': ' + value;
    return li;
  }));
  const advice = $('touchpad-advice');
  const noTap = t.applies && t.tapToClick !== true;
  advice.className = noTap ? 'warn' : 'hint';
  advice.textContent = (noTap ? 'A tap on the phone does not click: turn on Tap to click in ' : 'Change them in ') + t.change + '.';
}

function render() {
  if (!lastState) return;
  renderPairing(lastState.pairing);
  renderDevices(lastState.devices);
  renderControl(lastState.control);
  renderTouchpad(lastState.touchpad);
}

async function act(path) {
  try {
    lastState = await ask(path);
    problem('');
  } catch (error) {
    problem(error.message);
  }
  render();
}

function save(id, name) {
  editing = null;
  act('rename?id=' + encodeURIComponent(id) + '&name=' + encodeURIComponent(name.trim()));
}

function forget(id) {
  if (forgetArmed !== id) { forgetArmed = id; render(); return; }
  forgetArmed = null;
  act('forget?id=' + encodeURIComponent(id));
}

$('pairing-toggle').addEventListener('click', (e) => act('pairing?open=' + e.currentTarget.dataset.open));

async function refresh() {
  if (editing === null) await act('state');
  setTimeout(refresh, REFRESH_MS);
}

if (!key) problem('This page needs its key: open it with gesturepad open (or GesturePad in the applications menu).');
else {
  refresh();
  startDesktopFeed($('feed'), $('live-state'), key);
}
window.gesturepadDesktop = { get state() { return lastState; } };
