"""Connections that never prove themselves (issue 40, docs/security.md "Against whom"): a page
answers its challenge at once, so connections of one address that hold their challenge
unanswered are someone filling the connection limit. At most 8 wait at once per address (the
next proving upgrade from there is refused 429, a phone elsewhere is not); each one dropped
unanswered costs its address a try, like a wrong proof."""
from __future__ import annotations

from websockets.exceptions import InvalidStatus

from testkit import Server, eventually, hello, recv_json

SECRET = "unproven-connections-secret-Secret0123456789abcdefZ"
CAP = 8


def proving_status(server: Server) -> int:
    """The HTTP status a new `/ws?proof=1` upgrade gets (101 when upgraded)."""
    try:
        with server.connect(token=None, path="/ws?proof=1"):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


def test_unanswered_challenges_are_capped_per_address_and_cost_tries():
    with Server(token=SECRET) as server:
        held = [server.connect(token=None, path="/ws?proof=1") for _ in range(CAP)]
        try:
            for ws in held:
                assert recv_json(ws)["type"] == "challenge"
            # The ninth unanswered one is refused; a client with a token in the address is not held up.
            assert proving_status(server) == 429
            with server.connect() as ws:
                assert hello(ws)["type"] == "welcome"
        finally:
            for ws in held:
                ws.close()
        # The eight were dropped unanswered: eight tries of this address. Two more, and it has
        # none left — even the right secret is answered 429 until a try comes back.
        for _ in range(2):
            with server.connect(token=None, path="/ws?proof=1") as ws:
                recv_json(ws)
        # (The server counts each drop as its close arrives: asked until it has.)
        assert eventually(lambda: token_status(server) == 429), token_status(server)


def token_status(server: Server) -> int:
    """The HTTP status an upgrade with the right secret in the address gets."""
    try:
        with server.connect():
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code
