"""HTTPS / WSS (--tls): the local CA, a phone-like client that trusts only /ca.crt, the user's own certificate."""
import hashlib
import json
import os
import re
import shutil
import ssl
import subprocess
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from testkit import REPO, Server, binary, free_port, hello

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make test certificates")


def fetch(url, context):
    with urllib.request.urlopen(url, context=context, timeout=5) as response:
        return response.status, response.headers, response.read()


def insecure():
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def trusting(ca_pem):
    context = ssl.create_default_context(cadata=ca_pem)
    return context


@pytest.fixture
def tls_server(page_dir):
    with Server(public=page_dir, extra=["--tls"]) as server:
        yield server


def test_a_client_trusting_only_the_ca_validates_and_talks(tls_server):
    port = tls_server.port
    # Bootstrapping, as a phone does: the CA certificate is public.
    status, headers, ca = fetch(f"https://127.0.0.1:{port}/ca.crt", insecure())
    assert status == 200 and headers["Content-Type"] == "application/x-x509-ca-cert"
    assert ca.startswith(b"-----BEGIN CERTIFICATE-----")
    context = trusting(ca.decode())
    for host in ("127.0.0.1", "localhost"):
        with connect(f"wss://{host}:{port}/ws?token={tls_server.token}", ssl=context) as ws:
            assert hello(ws)["type"] == "welcome"
        status, _, page = fetch(f"https://{host}:{port}/", context)
        assert status == 200 and page


def test_a_client_not_trusting_it_refuses_by_its_own_check(tls_server):
    with pytest.raises(ssl.SSLCertVerificationError):
        connect(f"wss://127.0.0.1:{tls_server.port}/ws?token={tls_server.token}", ssl=ssl.create_default_context())


def test_fingerprint_matches_banner_trust_page_and_survives_restart(page_dir, tmp_path):
    state = tmp_path / "state"
    fingerprints = []
    banners = []
    for _ in range(2):
        with Server(public=page_dir, extra=["--tls"], env={"XDG_STATE_HOME": str(state)}) as server:
            _, _, ca = fetch(f"https://127.0.0.1:{server.port}/ca.crt", insecure())
            _, _, trust = fetch(f"https://127.0.0.1:{server.port}/trust", insecure())
            der = ssl.PEM_cert_to_DER_cert(ca.decode())
            fingerprint = ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
            assert fingerprint in re.sub(r"<[^>]+>", "", trust.decode()), "the text shown (its bytes are spans)"
            assert fingerprint in server.stdout()
            assert "https://127.0.0.1:" in server.stdout()
            fingerprints.append(fingerprint)
            banners.append(server.stdout())
    assert fingerprints[0] == fingerprints[1]
    assert "issued now" in banners[0] and "issued now" not in banners[1]
    folder = state / "gesturepad"
    for name in ("ca-key.pem", "ca.crt", "server-key.pem", "server.crt"):
        assert oct((folder / name).stat().st_mode & 0o777) == "0o600", name
    assert oct(folder.stat().st_mode & 0o777) == "0o700"


def plain(port, path, headers=None):
    """A plain-HTTP request that does not follow redirects: (status, headers, body)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers, answer.read()


def test_plain_http_serves_the_page_so_it_can_move_and_redirects_the_rest(tls_server):
    """The page's own files are served in clear on a TLS port (a page paired over http keeps its
    pairing in the http origin's storage and must run there once to move, docs/protocol.md
    "Moving to HTTPS"); anything else, and a page address carrying a credential, is redirected."""
    port = tls_server.port
    for path in ("/", "/app.js", "/style.css?run=a%20b&x=1", "/icon.svg"):
        status, headers, body = plain(port, path)
        assert status == 200 and body, path
        assert "Location" not in headers, path
    # A secret in the address is never carried on by the redirect (it crossed in clear once).
    for path, to in (("/?token=abc", "/"), ("/nothing-here", "/nothing-here"), ("/watch.html?token=abc&x=1", "/watch.html?x=1"),
                     ("/notes.xyz", "/notes.xyz")):
        status, headers, body = plain(port, path)
        assert status == 307, path
        assert headers["Location"] == f"https://127.0.0.1:{port}{to}", path
        assert b"abc" not in body
        assert headers["Cache-Control"] == "no-store"
    # A Host header that is not a plain host cannot steer the redirect elsewhere.
    status, headers, _ = plain(port, "/nothing-here", {"Host": "evil.example/steal?"})
    assert status == 307 and headers["Location"].startswith("https://127.0.0.1:"), headers["Location"]


def test_plain_http_never_reads_a_secret_nor_upgrades(tls_server, tmp_path):
    port, token = tls_server.port, tls_server.token
    status, headers, body = plain(port, f"/pairing?token={token}")
    assert status == 403 and "Location" not in headers and token.encode() not in body
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=5)
    assert refused.value.response.status_code == 403
    assert b"wss://" in refused.value.response.body
    # Without a proof request, a plain upgrade is refused too: only a proving page may come in,
    # and then only to be told to move (tests/integration/test_move_to_https.py).
    for path in ("/ws", "/ws?observe=1"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}{path}", open_timeout=5)
        assert refused.value.response.status_code == 403, path
    # Nothing was paired by the plain attempt: the same secret over TLS pairs the first device.
    with connect(f"wss://127.0.0.1:{port}/ws?token={token}", ssl=insecure()) as ws:
        assert hello(ws)["type"] == "welcome"
    assert token not in tls_server.stderr(), "the log names the refusal, never the secret"


def test_the_ca_and_trust_page_stay_readable_in_clear(tls_server):
    status, headers, ca = plain(tls_server.port, "/ca.crt")
    assert status == 200 and headers["Content-Type"] == "application/x-x509-ca-cert"
    assert ca.startswith(b"-----BEGIN CERTIFICATE-----")
    status, _, trust = plain(tls_server.port, "/trust")
    assert status == 200 and b"SHA-256" in trust


def make_certificate(folder, name, cn="127.0.0.1"):
    key, cert = folder / f"{name}.key", folder / f"{name}.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={cn}",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
    return cert, key


def test_the_users_own_certificate(page_dir, tmp_path):
    cert, key = make_certificate(tmp_path, "mine")
    with Server(public=page_dir, extra=["--tls-cert", str(cert), "--tls-key", str(key)]) as server:
        context = ssl.create_default_context(cafile=str(cert))
        with connect(f"wss://localhost:{server.port}/ws?token={server.token}", ssl=context) as ws:
            assert hello(ws)["type"] == "welcome"
        status, _, body = fetch(f"https://localhost:{server.port}/trust", context)
        assert status == 200 and b"certificate you gave it" in body
        assert "your certificate" in server.stdout()


def start_failure(args, tmp_path):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))
    run = subprocess.run([str(binary()), "serve", "--no-qr", "--control", "off", "--token", "t-Secret0123456789abcdefZ", "--host", "127.0.0.1",
                          "--port", str(free_port()), *args], capture_output=True, text=True, timeout=10, env=env, cwd=REPO)
    return run.returncode, [line for line in run.stderr.splitlines() if line.strip()]


def test_a_key_that_does_not_match_or_a_missing_file_is_one_clear_line(tmp_path):
    cert, _ = make_certificate(tmp_path, "a")
    _, other_key = make_certificate(tmp_path, "b")
    status, lines = start_failure(["--tls-cert", str(cert), "--tls-key", str(other_key)], tmp_path)
    assert status != 0 and len(lines) == 1 and "does not belong to the certificate" in lines[0], lines
    status, lines = start_failure(["--tls-cert", str(tmp_path / "none.crt"), "--tls-key", str(other_key)], tmp_path)
    assert status != 0 and len(lines) == 1 and "cannot read the file" in lines[0], lines
    status, lines = start_failure(["--tls-cert", str(cert)], tmp_path)
    assert status != 0 and any("--tls-cert and --tls-key go together" in line for line in lines), lines
