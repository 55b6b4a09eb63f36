"""The batcher (Public/js/batcher.js, docs/page.md "Batching" and "A slow link"), run in the real
browser: the page's own module imported by URL into a document of the server's origin that runs
no script, given a fake socket whose `bufferedAmount` the test sets, a clock the test moves, and
its animation frames and end-of-task callbacks run when the test says. What it writes to the
socket is read back frame by frame.

Each test is a script of steps: `send` / `hold` a message, `task` (the current task ends),
`frame` (an animation frame runs), `clock` (ms pass), `buffered` (the socket's
`bufferedAmount`), `pong` (the server answers the oldest ping still unanswered)."""
from __future__ import annotations

import json

import pytest


DRIVER = """
(function (steps, sealed) {
  return Promise.all([import(new URL('js/batcher.js', location.href).href),
                      import(new URL('js/state.js', location.href).href)]).then(function (mods) {
    var m = mods[0], S = mods[1];
    var ws = { readyState: 1, bufferedAmount: 0, out: [], send: function (text) { this.out.push(text); } };
    var clock = 1000, frames = [], soon = [], state = S.createPageState('touchpad');
    var seal = sealed ? { seal: function (msg) { return JSON.stringify({ type: 'sealed', box: msg }); } } : null;
    var b = new m.Batcher({
      state: state, socket: function () { return ws; }, live: function () { return true; },
      seal: function () { return seal; }, nextFrame: function (fn) { frames.push(fn); },
      busy: function () { return true; }, hidden: function () { return false; },
      now: function () { return clock; }, soon: function (fn) { soon.push(fn); }
    });
    var out = [], answered = [];
    steps.forEach(function (s) {
      var op = s[0], arg = s[1];
      if (op === 'send') b.send(JSON.parse(JSON.stringify(arg)));
      else if (op === 'hold') b.hold(JSON.parse(JSON.stringify(arg)));
      else if (op === 'early') b.flushEarly();
      else if (op === 'task') soon.splice(0).forEach(function (fn) { fn(); });
      else if (op === 'frame') frames.splice(0).forEach(function (fn) { fn(); });
      else if (op === 'clock') clock += arg;
      else if (op === 'buffered') ws.bufferedAmount = arg;
      else if (op === 'pong') { var t = b.pings[0].t; answered.push([t, b.pong(t)]); }
      else throw new Error('no such step: ' + op);
      out.push(ws.out.splice(0).map(function (f) { return JSON.parse(f); }));
    });
    return { frames: out, backlog: state.backlog, queue: b.queue, answered: answered,
             bounds: { backlog: m.BACKLOG_BYTES, lag: m.LAG_MS, probe: m.PROBE_MS } };
  });
})
"""


def run(page, steps, sealed=False) -> dict:
    return page.eval(f"({DRIVER})({json.dumps(steps)}, {json.dumps(sealed)})")


def down(i, t, x=100.0, y=100.0):
    return {"type": "down", "id": i, "x": x, "y": y, "t": t, "pointerType": "touch"}


def move(i, t, x=None, y=100.0, **more):
    return {"type": "move", "id": i, "x": float(t) if x is None else x, "y": y, "t": t, "pointerType": "touch", **more}


def up(i, t, x=100.0, y=100.0):
    return {"type": "up", "id": i, "x": x, "y": y, "t": t, "pointerType": "touch"}


def without_pings(frame):
    return [m for m in frame if m.get("type") != "ping"] if isinstance(frame, list) else frame


def sent(result) -> list:
    """Every frame written, in order, the batches without their pings."""
    return [without_pings(f) for step in result["frames"] for f in step]


def backed_up(*fingers, t=0):
    """Fingers down (their batch sent, its probe answered), then a socket backed up."""
    return [*[["send", down(i, t)] for i in fingers], ["task"], ["pong"], ["buffered", 5000]]


def test_a_link_that_keeps_up_sends_every_move(blank):
    """Nothing backed up: every move goes with its animation frame, none merged or held; a
    probe — a ping carrying the newest pointer `t` — goes with a batch of input when no ping is
    unanswered, at most once per PROBE_MS."""
    r = run(blank, [["send", down(1, 0)], ["task"], ["pong"],
                    ["clock", 8], ["send", move(1, 8)], ["send", move(1, 12)], ["send", move(1, 16)], ["frame"],
                    ["clock", 50], ["send", move(1, 58)], ["send", move(1, 66)], ["frame"]])
    first, probe_answered = r["frames"][1], r["answered"][0]
    assert first == [[down(1, 0), {"type": "ping", "t": 0, "probe": True}]]
    assert probe_answered == [0, False], "a probe's pong times no round trip"
    assert r["frames"][7] == [[move(1, 8), move(1, 12), move(1, 16)]], "8 ms after a ping: no probe"
    assert r["frames"][11] == [[move(1, 58), move(1, 66), {"type": "ping", "t": 66, "probe": True}]]
    assert r["backlog"] == {"held": 0, "merged": 0, "most": 0, "probes": 2}


def test_a_backed_up_socket_holds_one_move_per_finger(blank):
    """`bufferedAmount` above BACKLOG_BYTES: the animation frames send nothing, each finger's
    moves merge into one waiting move — the newest position, `t` and pressure — and when the
    buffer has drained the next frame sends one batch, in time order."""
    steps = backed_up(1, 2)
    for k in range(1, 11):
        steps += [["clock", 8], ["hold", move(1, 8 * k, pointerType="pen", pressure=k / 10)],
                  ["send", move(2, 8 * k + 1, x=300.0 - k)], ["frame"]]
    r = run(blank, steps + [["buffered", 0]])
    assert sent(r)[0] == [down(1, 0), down(2, 0)]
    assert sent(r)[1:] == [], "nothing went while the socket was backed up"
    assert r["queue"] == [move(1, 80, pointerType="pen", pressure=1.0), move(2, 81, x=290.0)]
    assert r["backlog"]["most"] == 1 and r["backlog"]["held"] >= 10 and r["backlog"]["merged"] == 18
    r = run(blank, steps + [["buffered", 0], ["frame"]])
    assert sent(r)[1:] == [[move(1, 80, pointerType="pen", pressure=1.0), move(2, 81, x=290.0)]]


def test_only_moves_merge_and_nothing_crosses_another_message(blank):
    """Downs, ups, cancels, text, keys, buttons, resizes and pings never merge, and a move
    merges only into its pointer's move with nothing but moves after it: whatever happened
    between two moves stays between them. Sealed messages wait in their place and go as frames
    of their own between the batches."""
    text, key, button = ({"type": "text", "text": "a"}, {"type": "key", "key": "Enter"},
                         {"type": "button", "button": "left", "action": "click"})
    resize = {"type": "resize", "width": 390, "height": 800}
    cancel = {"type": "cancel", "id": 3, "t": 47}
    steps = backed_up(1) + [
        ["send", move(1, 10)], ["send", move(1, 20)], ["send", down(2, 25)], ["send", down(2, 25)],
        ["send", move(1, 30)], ["send", move(2, 30)], ["send", text], ["send", text],
        ["send", move(1, 40)], ["send", move(2, 40)], ["send", move(1, 42)], ["send", up(2, 45)],
        ["send", move(1, 46)], ["send", key], ["send", button], ["send", resize], ["send", cancel],
        ["send", move(1, 50)], ["send", up(1, 55)], ["frame"], ["buffered", 0], ["frame"]]
    r = run(blank, steps, sealed=True)
    wire = sent(r)[1:]
    sealed = lambda m: {"type": "sealed", "box": m}  # noqa: E731
    # On a proven connection the batches go sealed too (docs/protocol.md "Sealed messages").
    assert wire == [
        sealed([move(1, 20), down(2, 25), down(2, 25), move(1, 30), move(2, 30)]),
        sealed(text), sealed(text),
        sealed([move(2, 40), move(1, 42), up(2, 45), move(1, 46)]),
        sealed(key), sealed(button),
        sealed([resize, cancel, move(1, 50), up(1, 55)]),
    ], json.dumps(wire)
    assert r["backlog"]["merged"] == 2


def test_a_pointers_t_never_goes_back(blank):
    """A move that comes with an older `t` than its pointer's waiting move does not replace it;
    of two with the same `t`, the newer message stays."""
    steps = backed_up(1) + [["send", move(1, 30, x=3.0)], ["send", move(1, 20, x=2.0)],
                            ["send", move(1, 30, x=4.0)], ["frame"]]
    r = run(blank, steps)
    assert r["queue"] == [move(1, 30, x=4.0)]


def test_a_mouse_button_change_is_not_merged(blank):
    """A button pressed or released while the mouse moves comes as a move with other `buttons`:
    an event, not a position — it stays, and later moves merge into it."""
    mouse = lambda t, b: move(1, t, pointerType="mouse", buttons=b)  # noqa: E731
    steps = [["send", {**down(1, 0), "pointerType": "mouse", "buttons": 1}], ["task"], ["pong"], ["buffered", 5000],
             ["send", mouse(10, 1)], ["send", mouse(20, 1)], ["send", mouse(30, 3)], ["send", mouse(40, 3)],
             ["send", mouse(50, 1)], ["frame"]]
    r = run(blank, steps)
    assert r["queue"] == [mouse(20, 1), mouse(40, 3), mouse(50, 1)]


def test_moves_queued_before_the_link_backed_up_merge_when_it_holds(blank):
    """Moves queued while the link kept up (several in one frame) merge when a frame finds it
    backed up: the queue it holds has one move per finger."""
    steps = [["send", down(1, 0)], ["task"], ["pong"],
             ["send", move(1, 4)], ["send", move(1, 8)], ["send", move(1, 12)], ["buffered", 5000], ["frame"]]
    r = run(blank, steps)
    assert r["queue"] == [move(1, 12)]
    assert r["backlog"] == {"held": 1, "merged": 2, "most": 1, "probes": 1}


def test_an_unanswered_ping_holds_the_queue(blank):
    """`bufferedAmount` says nothing (browsers hand everything to their network layer at once):
    a probe unanswered LAG_MS longer than the quickest round trip means the link is backed up —
    frames hold the queue, moves merge, early moves wait; when its pong comes, the next frame
    sends the waiting move with a new probe."""
    lag, probe_ms = blank.module("js/batcher.js", "[m.LAG_MS, m.PROBE_MS]")
    assert 21 < probe_ms <= 61
    steps = [["send", down(1, 0)], ["task"], ["clock", 5], ["pong"]]  # quickest round trip: 5 ms
    steps += [["clock", 16], ["send", move(1, 16)], ["frame"],        # 21 ms after the probe: none
              ["clock", 40], ["send", move(1, 56)], ["frame"]]        # 61 ms: a probe, not answered
    in_time = int((5 + lag) // 16)  # the moves that still go, one every 16 ms after the probe
    count = in_time + 5
    for k in range(1, count + 1):   # every 16 ms, an early move and a frame
        steps += [["clock", 16], ["hold", move(1, 56 + 16 * k)], ["early"], ["frame"]]
    last = 56 + 16 * count
    steps += [["pong"], ["clock", 16], ["send", move(1, last + 16)], ["frame"]]  # answered: keeps up again
    r = run(blank, steps)
    frames = r["frames"]
    assert frames[6] == [[move(1, 16)]]
    assert frames[9] == [[move(1, 56), {"type": "ping", "t": 56, "probe": True}]]
    moves_sent = [f for k in range(10, 10 + 4 * count) for f in frames[k]]
    assert moves_sent == [[move(1, 56 + 16 * k)] for k in range(1, in_time + 1)], moves_sent
    assert r["backlog"]["held"] == 5 and r["backlog"]["most"] == 1 and r["backlog"]["merged"] == 4
    assert frames[-1] == [[move(1, last), move(1, last + 16), {"type": "ping", "t": last + 16, "probe": True}]], \
        "answered: the waiting move goes, with the next one and a new probe"
    assert r["queue"] == []


def test_a_timing_pings_pong_is_a_round_trip(blank):
    """The idle timing ping's pong is a round trip (the page shows it); a keep-alive ping's is
    not; either answers every ping before it."""
    r = run(blank, [["send", {"type": "ping", "t": 0}], ["task"], ["clock", 3], ["pong"],
                    ["send", {"type": "ping", "t": 0, "keepAlive": True}], ["frame"], ["pong"]])
    assert r["frames"][1] == [[{"type": "ping", "t": 1000}]], "stamped when it leaves"
    assert r["answered"] == [[1000, True], [0, False]]


def test_a_sealed_message_on_a_link_that_keeps_up_goes_at_once(blank):
    """Not backed up: a sealed message goes at once, after what was queued before it."""
    r = run(blank, [["send", down(1, 0)], ["task"], ["pong"], ["send", move(1, 8)],
                    ["send", {"type": "key", "key": "Enter"}]], sealed=True)
    assert r["frames"][4] == [{"type": "sealed", "box": [move(1, 8)]}, {"type": "sealed", "box": {"type": "key", "key": "Enter"}}]
