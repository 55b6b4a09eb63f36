"""The connection's life as a pure reducer (Public/js/link.js, docs/page.md "The connection's
life"), run in the real browser: the page's own module imported by URL into a document of the
server's origin that runs no script, fed events, its states and effects read back as data.
Every state handed to it is frozen, so a reducer that changed its input would throw, and every
phase it reaches is one of `PHASES`."""
from __future__ import annotations

import json

import pytest


UNPAIRED = "This phone is not paired any more: scan the code on the computer to pair it again."
FAKE = "The computer’s answer did not prove it knows this phone"
SECRET = {"token": "the-secret", "key": "", "id": ""}
KEY = {"token": "the-key", "key": "the-key", "id": "dev1"}
WELCOME = {"type": "welcome", "session": 7, "host": "desk", "device": {"id": "dev1", "name": "Pixel 8"}}


def as_sent(events):
    """`events` as a server that proved itself sends them: every message after a socket's
    `authenticated` comes sealed but the gesture feed and session notices — unless the event
    says `sealed` itself (a test of what an attacker slips in plain)."""
    proven, out = set(), []
    for event in events:
        if event.get("type") == "message" and "sealed" not in event:
            message = event.get("message") or {}
            if event["socket"] in proven and message.get("type") not in ("gesture", "session"):
                event = {**event, "sealed": True}
            if message.get("type") == "authenticated":
                proven.add(event["socket"])
        out.append(event)
    return out


def run(page, events, role="touchpad", token="the-secret"):
    """Feeds `events` (`as_sent`) to `next` from `initial(role, token)`; each step's state and
    effects."""
    events = as_sent(events)
    return page.module("js/link.js", f"""(function () {{
        function freeze(o) {{ Object.values(o).forEach(function (v) {{ if (v && typeof v === 'object') freeze(v); }}); return Object.freeze(o); }}
        var s = freeze(m.initial({json.dumps(role)}, {json.dumps(token)})), out = [];
        {json.dumps(events)}.forEach(function (ev) {{
            var r = m.next(s, freeze(JSON.parse(JSON.stringify(ev))));
            if (m.PHASES.indexOf(r.state.phase) < 0) throw new Error('no such phase: ' + r.state.phase);
            out.push({{ state: r.state, effects: r.effects }});
            s = freeze(r.state);
        }});
        return out;
    }})()""")


def kinds(step):
    return [e["do"] for e in step["effects"]]


def status(step):
    return [(e["status"], e["detail"]) for e in step["effects"] if e["do"] == "status"]


def opened(socket, presented=SECRET, auth=True, proof="P", derived="DK"):
    """The events of socket `socket` from its credential to an accepted proof."""
    challenge = {"type": "challenge", "nonce": "n"} if auth else {"type": "challenge", "auth": False}
    out = [{"type": "credential", "socket": socket, "presented": presented}, {"type": "opened", "socket": socket},
           {"type": "message", "socket": socket, "message": challenge}]
    if auth:
        out += [{"type": "proof", "socket": socket, "serverProof": proof, "deviceKey": derived},
                {"type": "message", "socket": socket, "message": {"type": "authenticated", "proof": proof}}]
    return out


def live_events(socket=1, presented=SECRET):
    return [{"type": "start"}, *opened(socket, presented), {"type": "message", "socket": socket, "message": WELCOME}]


def test_start_prove_and_go_live(blank):
    steps = run(blank, live_events())
    start, credential, opened_, challenge, proof, authenticated, welcome = steps
    assert kinds(start) == ["status", "open"] and status(start) == [("connecting", "")]
    assert start["effects"][1] == {"do": "open", "socket": 1, "token": "the-secret"}
    assert start["state"]["phase"] == "connecting"
    assert credential["effects"] == [] and credential["state"]["presented"] == SECRET
    assert kinds(opened_) == ["connected"] and opened_["state"]["phase"] == "proving"
    assert kinds(challenge) == ["received", "answer", "deliver"]
    assert challenge["effects"][1]["prove"] is True and challenge["effects"][1]["presented"] == SECRET
    assert proof["effects"] == [] and proof["state"]["serverProof"] == "P"
    assert kinds(authenticated) == ["received", "deliver"]
    assert kinds(welcome) == ["received", "device", "welcome", "status", "ping", "live", "deliver"]
    assert welcome["effects"][1] == {"do": "device", "device": WELCOME["device"], "key": "DK"}
    assert status(welcome) == [("live", "desk · gestures only")]
    s = welcome["state"]
    assert (s["phase"], s["token"], s["paired"], s["everLive"], s["attempt"]) == ("live", "", True, True, 0)


def test_the_observer_sends_no_ping_and_says_all_sessions(blank):
    welcome = run(blank, live_events(), role="observer")[-1]
    assert "ping" not in kinds(welcome) and status(welcome) == [("live", "desk · all sessions")]


def test_a_server_that_fails_its_proof_is_hung_up_on(blank):
    events = [{"type": "start"}, *opened(1)[:-1],
              {"type": "message", "socket": 1, "message": {"type": "authenticated", "proof": "forged"}},
              {"type": "timer", "timer": 1}]
    steps = run(blank, events)
    hang_up = steps[-2]
    assert kinds(hang_up) == ["received", "close", "drop", "status"]
    assert hang_up["effects"][1] == {"do": "close", "socket": 1, "code": 1000, "reason": "no proof"}
    assert status(hang_up)[0][0] == "refused" and status(hang_up)[0][1].startswith(FAKE)
    assert hang_up["state"]["phase"] == "stopped" and steps[-1]["effects"] == []


def test_no_credential_hangs_up_at_the_challenge(blank):
    steps = run(blank, [{"type": "start"}, *opened(1, presented={"token": "", "key": "", "id": ""})[:3]], token="")
    assert kinds(steps[-1]) == ["received", "close", "drop", "status", "deliver"]
    assert status(steps[-1])[0][1].startswith("This phone is not paired yet.")


def test_a_dropped_connection_retries_with_backoff(blank):
    closed = {"type": "closed", "socket": 1, "code": 1006, "reason": "", "jitter": 0}
    steps = run(blank, [*live_events(), closed, {"type": "timer", "timer": 99}, {"type": "timer", "timer": 1}])
    drop, stale_timer, timer = steps[-3:]
    assert kinds(drop) == ["recordClose", "drop", "status", "schedule"]
    assert status(drop) == [("reconnecting", "connection closed · retry in 0.2 s")]
    assert drop["effects"][-1] == {"do": "schedule", "timer": 1, "delay": 212.5}
    assert (drop["state"]["phase"], drop["state"]["attempt"]) == ("retrying", 1)
    assert stale_timer["effects"] == [] and stale_timer["state"] == drop["state"]
    assert status(timer) == [("reconnecting", "attempt 2")] and timer["effects"][-1]["socket"] == 2


def test_a_stale_socket_changes_nothing(blank):
    """A new link restarts the connection: socket 1's later open, messages and close — its
    welcome among them — leave the state as it was and carry out nothing."""
    events = [{"type": "start"}, {"type": "credential", "socket": 1, "presented": KEY},
              {"type": "token", "token": "new-secret"}]
    stale = [{"type": "opened", "socket": 1}, {"type": "message", "socket": 1, "message": WELCOME},
             {"type": "message", "socket": 1, "message": {"type": "pairing", "state": "waiting"}},
             {"type": "proof", "socket": 1, "serverProof": "x"}, {"type": "proofFailed", "socket": 1},
             {"type": "closed", "socket": 1, "code": 4403, "reason": ""}, {"type": "cannotOpen", "socket": 1, "message": "x"}]
    steps = run(blank, events + stale)
    restart = steps[2]
    assert kinds(restart) == ["close", "drop", "status", "status", "open"]
    assert restart["effects"][0]["socket"] == 1 and restart["effects"][-1] == {"do": "open", "socket": 2, "token": "new-secret"}
    for step in steps[3:]:
        assert step["effects"] == [] and step["state"] == restart["state"], step


@pytest.mark.parametrize("where", ["reconnecting", "waiting", "proving"])
def test_unpair_while_not_live_ends_the_socket_and_its_welcome_changes_nothing(blank, where):
    """The bug of issue 33: an unpair asked while not live closes the socket in flight, and
    that socket's welcome (which would store the device again) is ignored."""
    before = [*live_events(1, KEY), {"type": "closed", "socket": 1, "code": 1006, "reason": ""}, {"type": "timer", "timer": 1}]
    if where == "waiting":
        before += [*opened(2, KEY), {"type": "message", "socket": 2, "message": {"type": "pairing", "state": "waiting"}}]
    elif where == "proving":
        before += opened(2, KEY)
    steps = run(blank, [*before, {"type": "unpair"}, {"type": "message", "socket": 2, "message": WELCOME},
                        {"type": "closed", "socket": 2, "code": 1000, "reason": ""}, {"type": "timer", "timer": 2}])
    unpair = steps[-4]
    assert kinds(unpair) == ["forget", "close", "drop", "status"]
    assert unpair["effects"][1] == {"do": "close", "socket": 2, "code": 1000, "reason": "unpaired"}
    assert status(unpair) == [("refused", UNPAIRED)]
    s = unpair["state"]
    assert (s["phase"], s["paired"], s["unpairing"]) == ("stopped", False, False)
    for step in steps[-3:]:
        assert step["effects"] == [] and step["state"] == s


def test_unpair_between_attempts_lets_the_retry_timer_go(blank):
    steps = run(blank, [*live_events(), {"type": "closed", "socket": 1, "code": 1006, "reason": ""}, {"type": "unpair"},
                        {"type": "timer", "timer": 1}, {"type": "timer", "timer": 2}])
    unpair = steps[-3]
    assert kinds(unpair) == ["forget", "cancelRetry", "status"] and status(unpair) == [("refused", UNPAIRED)]
    assert steps[-2]["effects"] == [] and steps[-1]["effects"] == []


def test_unpair_while_live_asks_the_server(blank):
    steps = run(blank, [*live_events(), {"type": "unpair"}, {"type": "closed", "socket": 1, "code": 4403, "reason": "removed"}])
    unpair, closed = steps[-2:]
    assert unpair["effects"] == [{"do": "forget"}, {"do": "send", "message": {"type": "unpair"}}, {"do": "flush"}]
    assert unpair["state"]["unpairing"] is True
    assert status(closed) == [("refused", UNPAIRED)] and closed["state"]["phase"] == "stopped"


def test_a_refused_upgrade_asks_the_pairing_status(blank):
    refused = {"type": "closed", "socket": 1, "code": 1006, "reason": ""}
    steps = run(blank, [{"type": "start"}, {"type": "credential", "socket": 1, "presented": SECRET}, refused,
                        {"type": "pairingStatus", "ask": 7, "status": 429}, {"type": "pairingStatus", "ask": 1, "status": 429}])
    ask, stale, answer = steps[-3:]
    assert ask["effects"] == [{"do": "drop"}, {"do": "ask", "ask": 1}] and ask["state"]["phase"] == "asking"
    assert stale["effects"] == []
    assert status(answer)[0][1].startswith("Too many refused attempts")
    assert answer["effects"][-1]["delay"] == 60000 and answer["state"]["attempt"] == 7
    # Down: no answer at all.
    down = run(blank, [{"type": "start"}, {"type": "credential", "socket": 1, "presented": SECRET}, refused,
                       {"type": "pairingStatus", "ask": 1, "status": None, "jitter": 1}])[-1]
    assert status(down) == [("reconnecting", "server unreachable · retry in 0.3 s")]



def test_a_server_that_came_up_between_the_upgrade_and_the_ask_is_tried_again_at_once(blank):
    """The upgrade found nothing listening, the ask found the server up (it started between the
    two, as a restarted server does): no refusal yet, a new attempt from a fresh backoff. Only
    a second answered ask in a row proves the refusal (15 s); an ask that finds the server down
    again starts the count anew, and so does a socket that opened."""
    def failed(socket, answer):
        return [{"type": "timer", "timer": socket - 1}] if socket > 1 else [{"type": "start"}], [
            {"type": "credential", "socket": socket, "presented": KEY},
            {"type": "closed", "socket": socket, "code": 1006, "reason": ""},
            {"type": "pairingStatus", "ask": socket, "status": answer, "jitter": 0.5}]

    events = []
    for socket, answer in enumerate([None, 200, 200, None, 200], start=1):
        first, rest = failed(socket, answer)
        events += first + rest
    steps = run(blank, events)
    answers = [step for step, event in zip(steps, as_sent(events)) if event["type"] == "pairingStatus"]
    down, back, refused, down_again, back_again = answers
    assert status(down) == [("reconnecting", "server unreachable · retry in 0.3 s")]
    assert status(back) == [("reconnecting", "the server answers: trying again · retry in 0.3 s")]
    assert back["effects"][-1]["delay"] == 250 and back["state"]["attempt"] == 1
    assert status(refused)[0][0] == "refused" and status(refused)[0][1].startswith("The server refused the connection")
    assert refused["effects"][-1]["delay"] == 15000
    assert down_again["state"]["phase"] == "retrying" and status(down_again)[0][0] == "reconnecting"
    assert back_again["effects"][-1]["delay"] == 250, "an ask that found the server down starts the count anew"
    # A socket that opened (and dropped) starts it anew too.
    steps = run(blank, [*failed(1, 200)[0], *failed(1, 200)[1], {"type": "timer", "timer": 1},
                        {"type": "credential", "socket": 2, "presented": KEY}, {"type": "opened", "socket": 2},
                        {"type": "closed", "socket": 2, "code": 1006, "reason": "", "jitter": 0.5},
                        {"type": "timer", "timer": 2},
                        {"type": "credential", "socket": 3, "presented": KEY},
                        {"type": "closed", "socket": 3, "code": 1006, "reason": ""},
                        {"type": "pairingStatus", "ask": 3, "status": 200, "jitter": 0.5}])
    assert status(steps[-1])[0][0] == "reconnecting" and steps[-1]["effects"][-1]["delay"] == 250

def test_a_dead_key_stops_unless_a_new_link_came(blank):
    revoked = {"type": "closed", "socket": 1, "code": 4411, "reason": ""}
    stop = run(blank, [{"type": "start"}, *opened(1, KEY)[:2], revoked], token="")[-1]
    assert status(stop) == [("refused", "This phone was removed on the computer: scan the code again to pair it.")]
    assert stop["state"]["phase"] == "stopped"
    again = run(blank, [{"type": "start"}, *opened(1, KEY)[:2], revoked], token="new-secret")[-1]
    assert kinds(again) == ["recordClose", "drop", "forget", "status", "status", "open"]
    assert again["effects"][-1] == {"do": "open", "socket": 2, "token": "new-secret"}


def test_a_key_paired_to_watch_stops_a_touchpad_unless_a_new_link_came(blank):
    """4415: this browser's key was paired from the observer page. The touchpad page stops and
    says why; with a link's secret given since, it lets the key go and pairs as a touchpad."""
    observer_only = {"type": "closed", "socket": 1, "code": 4415, "reason": "watch only"}
    stop = run(blank, [{"type": "start"}, *opened(1, KEY), observer_only], token="")[-1]
    assert kinds(stop) == ["recordClose", "drop", "status"]
    [(phase, text)] = status(stop)
    assert phase == "refused" and text.startswith("This browser was paired to watch the gestures"), text
    assert stop["state"]["phase"] == "stopped"
    again = run(blank, [{"type": "start"}, *opened(1, KEY), observer_only], token="new-secret")[-1]
    assert kinds(again) == ["recordClose", "drop", "forget", "status", "status", "open"]
    assert again["effects"][-1] == {"do": "open", "socket": 2, "token": "new-secret"}
    assert again["state"]["paired"] is False


def test_a_link_opened_while_live_changes_nothing(blank):
    paired = run(blank, [*live_events(), {"type": "token", "token": "another"}])[-1]
    assert paired["effects"] == []
    unpaired_welcome = dict(WELCOME, device=None)
    same = run(blank, [{"type": "start"}, *opened(1), {"type": "message", "socket": 1, "message": unpaired_welcome},
                       {"type": "token", "token": "the-secret"}, {"type": "token", "token": "other"}])
    assert same[-2]["effects"] == [] and kinds(same[-1])[:2] == ["close", "drop"]


# An attacker on the path (issue 40): the page believes nothing before the server proved
# itself, takes the handshake once per socket in its order, and never takes a key from the wire.

def msg(socket, message):
    return {"type": "message", "socket": socket, "message": message}


def hung_up_as_fake(step):
    assert kinds(step)[:4] == ["received", "close", "drop", "status"], kinds(step)
    assert "deliver" not in kinds(step) and "answer" not in kinds(step)
    assert status(step)[0][0] == "refused" and status(step)[0][1].startswith(FAKE)
    assert step["state"]["phase"] == "stopped"


@pytest.mark.parametrize("presented", [SECRET, KEY], ids=["secret", "key"])
def test_a_challenge_asking_no_proof_of_a_page_with_a_credential_is_hung_up_on(blank, presented):
    events = [{"type": "start"}, *opened(1, presented)[:2], msg(1, {"type": "challenge", "auth": False}),
              msg(1, WELCOME)]
    steps = run(blank, events, token=presented["token"] if presented is SECRET else "")
    hung_up_as_fake(steps[3])
    assert steps[4]["effects"] == [] and steps[4]["state"]["phase"] == "stopped"


def test_a_page_with_nothing_follows_a_server_without_authentication(blank):
    nothing = {"token": "", "key": "", "id": ""}
    events = [{"type": "start"}, *opened(1, nothing, auth=False), msg(1, {"type": "welcome", "session": 3})]
    steps = run(blank, events, token="")
    assert steps[3]["effects"][1]["do"] == "answer" and steps[3]["effects"][1]["prove"] is False
    assert steps[-1]["state"]["phase"] == "live" and "device" not in kinds(steps[-1])


@pytest.mark.parametrize("presented", [SECRET, KEY], ids=["secret", "key"])
def test_a_welcome_without_the_servers_proof_is_hung_up_on(blank, presented):
    events = [{"type": "start"}, *opened(1, presented)[:-1], msg(1, dict(WELCOME, device={"id": "evil", "name": "x", "key": "EVIL"}))]
    steps = run(blank, events, token=presented["token"] if presented is SECRET else "")
    hung_up_as_fake(steps[-1])
    assert "device" not in kinds(steps[-1]) and not steps[-1]["state"]["paired"]


def test_a_key_in_a_proven_welcome_is_never_taken(blank):
    welcome = dict(WELCOME, device={"id": "dev1", "name": "Pixel 8", "key": "EVIL"})
    steps = run(blank, [{"type": "start"}, *opened(1), msg(1, welcome)])
    device = [e for e in steps[-1]["effects"] if e["do"] == "device"]
    assert device == [{"do": "device", "device": {"id": "dev1", "name": "Pixel 8"}, "key": "DK"}]


@pytest.mark.parametrize("order", ["challenge twice", "authenticated first", "authenticated twice", "welcome twice"])
def test_a_handshake_out_of_order_or_repeated_is_hung_up_on(blank, order):
    challenge = msg(1, {"type": "challenge", "nonce": "n"})
    authenticated = msg(1, {"type": "authenticated", "proof": "P"})
    if order == "challenge twice":
        events = [{"type": "start"}, *opened(1), challenge]
    elif order == "authenticated first":
        events = [{"type": "start"}, *opened(1)[:2], {"type": "proof", "socket": 1, "serverProof": "P", "deviceKey": "DK"},
                  authenticated]
    elif order == "authenticated twice":
        events = [{"type": "start"}, *opened(1), authenticated]
    else:
        events = [{"type": "start"}, *opened(1), msg(1, WELCOME), msg(1, WELCOME)]
    steps = run(blank, events)
    hung_up_as_fake(steps[-1])


@pytest.mark.parametrize("early", [
    {"type": "pairing", "state": "waiting", "seconds": 60},
    {"type": "device", "device": {"id": "dev1", "name": "Evil"}},
    {"type": "error", "code": "x", "message": "y"},
    {"type": "held", "buttons": ["left"], "keys": []},
], ids=["pairing", "device", "error", "held"])
def test_before_the_proof_nothing_is_believed(blank, early):
    steps = run(blank, [{"type": "start"}, *opened(1)[:4], msg(1, early)])
    last = steps[-1]
    assert kinds(last) == ["received"] and last["state"]["phase"] == "proving"


# Moving to HTTPS (docs/protocol.md "Moving to HTTPS"): a `move` is believed only sealed, after
# the server proved itself; a refused ticket is forgotten.

MOVE = {"type": "move", "to": "https", "ticket": "T" * 43}


def test_a_sealed_move_after_the_proof_moves_the_page_with_its_ticket(blank):
    steps = run(blank, [{"type": "start"}, *opened(1, KEY), {**msg(1, MOVE), "sealed": True}], token="")
    last = steps[-1]
    assert kinds(last) == ["received", "close", "drop", "status", "moveToHttps"], kinds(last)
    assert last["effects"][-1] == {"do": "moveToHttps", "ticket": "T" * 43}
    assert status(last)[0][0] == "moving" and "keeps its pairing" in status(last)[0][1]
    assert last["state"]["phase"] == "stopped"


@pytest.mark.parametrize("when", ["plain", "before the proof"])
def test_a_move_the_server_did_not_seal_after_its_proof_is_not_believed(blank, when):
    if when == "plain":
        events = [{"type": "start"}, *opened(1, KEY), {**msg(1, MOVE), "sealed": False}]
    else:
        events = [{"type": "start"}, *opened(1, KEY)[:4], {**msg(1, MOVE), "sealed": True}]
    last = run(blank, events, token="")[-1]
    # Plain after the proof it is not even received; sealed before the proof it is not believed.
    assert kinds(last) == ([] if when == "plain" else ["received"]) and last["state"]["phase"] == "proving"


def test_a_plain_message_after_the_proof_is_not_believed(blank):
    """After the server's proof only the gesture feed and session notices may come plain: a
    plain welcome, control or held notice is an attacker's and changes nothing."""
    events = [{"type": "start"}, *opened(1, KEY)]
    for message in (WELCOME, {"type": "control", "active": False, "reason": "x"}, {"type": "held", "buttons": ["left"]}):
        last = run(blank, [*events, {**msg(1, message), "sealed": False}], token="")[-1]
        assert last["effects"] == [] and last["state"]["phase"] == "proving", message
    gesture = {"type": "gesture", "gesture": "tap", "phase": "ended"}
    live = run(blank, [*events, msg(1, WELCOME), {**msg(1, gesture), "sealed": False}], token="")[-1]
    assert kinds(live) == ["received", "deliver"]


def test_a_page_holding_nothing_goes_to_https_when_the_challenge_says_so(blank):
    nothing = {"token": "", "key": "", "id": ""}
    events = [{"type": "start"}, *opened(1, nothing)[:2], msg(1, {"type": "challenge", "nonce": "n", "https": True})]
    last = run(blank, events, token="")[-1]
    assert last["effects"][-1] == {"do": "moveToHttps", "ticket": None} and "answer" not in kinds(last)


def test_a_refused_ticket_is_forgotten_and_said(blank):
    ticket = {"token": "T" * 43, "key": False, "id": "dev1", "ticket": True}
    refused = {"type": "closed", "socket": 1, "code": 4410, "reason": ""}
    last = run(blank, [{"type": "start"}, *opened(1, ticket)[:2], refused], token="")[-1]
    assert "forgetMove" in kinds(last) and last["state"]["phase"] == "stopped"
    assert status(last)[-1][0] == "refused" and "secure address" in status(last)[-1][1]
