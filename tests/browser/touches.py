"""A gesture written once, for every engine (engines.py): `Touches`, a script of fingers down,
moving and up at ms from its start; the same script as W3C / BiDi pointer actions (Gecko, and
WebKit's mouse) and as synthetic touch PointerEvents dispatched on the page (WebKit); typing as
key actions."""

from __future__ import annotations

STEP_MS = 16  # a move's step in the drivers' actions


class Touches:
    """A touch script: `frames` of (kind, ms, fingers in contact after it, fingers it changed)."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, float, dict[int, tuple[float, float]], list[int]]] = []
        self.fingers: dict[int, tuple[float, float]] = {}

    def down(self, ms: float, **fingers: tuple[float, float]) -> "Touches":
        ids = [int(k[1:]) for k in fingers]
        self.fingers.update({int(k[1:]): v for k, v in fingers.items()})
        self.frames.append(("down", ms, dict(self.fingers), ids))
        return self

    def move(self, ms: float, duration: float, step: float = 16.0, **targets: tuple[float, float]) -> "Touches":
        """Moves fingers in a straight line to their targets, one step per `step` ms."""
        starts = {int(k[1:]): self.fingers[int(k[1:])] for k in targets}
        ends = {int(k[1:]): v for k, v in targets.items()}
        return self.path(ms, duration, lambda f: {i: (round(starts[i][0] + (ends[i][0] - starts[i][0]) * f, 2),
                                                      round(starts[i][1] + (ends[i][1] - starts[i][1]) * f, 2))
                                                  for i in ends}, step)

    def path(self, ms: float, duration: float, fn, step: float = 16.0) -> "Touches":
        """Moves fingers along fn(f) -> {id: (x, y)} for f in (0, 1]."""
        n = max(1, round(duration / step))
        for i in range(1, n + 1):
            moved = fn(i / n)
            self.fingers.update(moved)
            self.frames.append(("move", ms + duration * i / n, dict(self.fingers), list(moved)))
        return self

    def up(self, ms: float, *ids: int) -> "Touches":
        lift = list(ids) or list(self.fingers)
        for i in lift:
            self.fingers.pop(i, None)
        self.frames.append(("up", ms, dict(self.fingers), lift))
        return self

    def finger_ids(self) -> list[int]:
        return sorted({i for frame in self.frames for i in frame[3]})

    def actions(self, pointer_type: str) -> list[dict]:
        """The script as W3C / BiDi pointer actions, one source per finger: a move per step (its
        duration the time since the step before), a pause for the fingers not moving."""
        ids = self.finger_ids()
        ticks: list[dict[int, dict]] = []
        last = 0.0
        for kind, ms, after, changed in self.frames:
            delta = max(0, round(ms - last))
            last = ms
            if kind == "move":
                # The drivers spread a move over its duration: a still finger waits, then steps.
                if delta > STEP_MS:
                    ticks.append({i: {"type": "pause", "duration": delta - STEP_MS} for i in ids})
                    delta = STEP_MS
                ticks.append({i: ({"type": "pointerMove", "x": round(after[i][0]), "y": round(after[i][1]),
                                   "duration": delta, "origin": "viewport"} if i in changed else
                                  {"type": "pause", "duration": delta}) for i in ids})
                continue
            if delta:
                ticks.append({i: {"type": "pause", "duration": delta} for i in ids})
            if kind == "down":
                ticks.append({i: ({"type": "pointerMove", "x": round(after[i][0]), "y": round(after[i][1]),
                                   "duration": 0, "origin": "viewport"} if i in changed else {"type": "pause", "duration": 0})
                              for i in ids})
            button = "pointerDown" if kind == "down" else "pointerUp"
            ticks.append({i: ({"type": button, "button": 0} if i in changed else {"type": "pause", "duration": 0}) for i in ids})
        return [{"type": "pointer", "id": f"finger{i}", "parameters": {"pointerType": pointer_type},
                 "actions": [tick[i] for tick in ticks]} for i in ids]


def key_actions(text: str) -> list[dict]:
    """Typing `text` as W3C / BiDi key actions (a key down and up per character)."""
    acts: list[dict] = []
    for ch in text:
        acts += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
    return [{"type": "key", "id": "keyboard", "actions": acts}]


ENTER = "\ue007"

# Synthetic touch PointerEvents (WebKit): each frame's events dispatched together at the frame's
# time, each finger's to the element it went down on (as pointer capture would), pointer ids
# 100 + finger. The script waits for each time itself without yielding (a loaded machine cannot
# stall a finger between two of its events; the page's messages go out when it yields, with the
# events' own times, by which the server judges: PROTOCOL.md "Time"), except before a pause of
# 300 ms or more (a long press, a finger held on a control), which lets the page's timers run.
SYNTHETIC_JS = r"""
(function (frames) { return new Promise(function (resolve) {
  var t0 = performance.now() + 5, targets = {}, primary = null, i = 0;
  function fire(type, id, x, y) {
    var target = targets[id] || document.elementFromPoint(x, y);
    if (type === 'pointerdown') { targets[id] = target; if (primary === null) primary = id; }
    var down = type !== 'pointerup';
    target.dispatchEvent(new PointerEvent(type, { pointerId: 100 + id, pointerType: 'touch', isPrimary: id === primary,
      clientX: x, clientY: y, width: 12, height: 12, pressure: down ? 0.5 : 0, buttons: down ? 1 : 0,
      button: type === 'pointermove' ? -1 : 0, bubbles: true, cancelable: true, composed: true }));
    if (type === 'pointerup') { delete targets[id]; if (primary === id) primary = null; }
  }
  function run() {
    while (i < frames.length) {
      var f = frames[i], wait = t0 + f.ms - performance.now();
      if (wait >= 300) return setTimeout(run, wait - 30);
      while (performance.now() < t0 + f.ms) { /* the frame's time */ }
      f.events.forEach(function (e) { fire(e[0], e[1], e[2], e[3]); });
      i++;
    }
    resolve(true);
  }
  run();
}); })
"""


def synthetic_frames(touches: Touches, before: dict[int, tuple[float, float]] | None = None) -> list[dict]:
    kinds = {"down": "pointerdown", "move": "pointermove", "up": "pointerup"}
    out, where = [], dict(before or {})
    for kind, ms, after, changed in touches.frames:
        events = []
        for i in changed:
            x, y = after[i] if kind != "up" else where[i]
            events.append([kinds[kind], i, x, y])
        where.update(after)
        out.append({"ms": ms, "events": events})
    return out
