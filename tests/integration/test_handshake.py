"""The /ws handshake: token, Origin, path and connection limit are judged before any frame."""
import time

import pytest

from testkit import InvalidStatus, RawClient, Server, hello


def refused_status(server, **kwargs) -> int:
    with pytest.raises(InvalidStatus) as refused:
        server.connect(**kwargs)
    return refused.value.response.status_code


def test_no_token_is_refused_with_401(server):
    assert refused_status(server, token=None) == 401


def test_wrong_token_is_refused_with_403(server):
    assert refused_status(server, token="not-the-token") == 403


def test_wrong_origin_is_refused_with_403(server):
    assert refused_status(server, origin="http://evil.example:8765") == 403


def test_origin_with_other_port_is_refused(server):
    assert refused_status(server, origin=f"http://127.0.0.1:{server.port + 1}") == 403


def test_wrong_path_is_refused(server):
    client = RawClient(server.port, f"/other?token={server.token}")
    assert client.status == 404
    client.close()


def test_right_token_gets_welcome(server):
    with server.connect() as ws:
        welcome = hello(ws)
    assert welcome["type"] == "welcome"
    assert welcome["protocol"] == 1
    assert isinstance(welcome["session"], str)
    assert isinstance(welcome["config"], dict)


def test_matching_origin_is_accepted(server):
    with server.connect(origin=f"http://127.0.0.1:{server.port}") as ws:
        assert hello(ws)["type"] == "welcome"


def test_token_from_environment_is_used(page_dir):
    with Server(public=page_dir, token=None, env={"GESTUREPAD_TOKEN": "from-env-Secret0123456789abcdefZ"}) as server:
        assert refused_status(server, token="test-token") == 403
        with server.connect(token="from-env-Secret0123456789abcdefZ") as ws:
            assert hello(ws)["type"] == "welcome"
        assert "#token=from-env-Secret0123456789abcdefZ" in server.stdout()


def test_random_token_is_printed_and_required(page_dir):
    with Server(public=page_dir, token=None) as server:
        output = server.stdout()
        token = output.split("#token=")[1].split()[0]
        assert len(token) == 32 and int(token, 16) >= 0
        assert refused_status(server, token=None) == 401
        with server.connect(token=token) as ws:
            assert hello(ws)["type"] == "welcome"


def test_no_auth_accepts_without_token_and_warns(page_dir):
    with Server(public=page_dir, token=None, extra=["--no-auth"]) as server:
        with server.connect(token=None) as ws:
            assert hello(ws)["type"] == "welcome"
        assert "WARNING" in server.stdout()
        assert "#token=" not in server.stdout()


def test_connection_limit_refuses_with_503(page_dir):
    with Server(public=page_dir, extra=["--max-connections", "2"]) as server:
        with server.connect(), server.connect():
            assert refused_status(server) == 503
        # Room again once they have left.
        time.sleep(0.3)
        with server.connect() as again:
            assert hello(again)["type"] == "welcome"
