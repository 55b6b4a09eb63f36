"""The page over HTTPS (`serve --tls`) in real headless Chromium that trusts the local CA through
its NSS store (as a phone that installed /ca.crt): no certificate error, a secure context, the
screen kept awake, the service worker registered."""
from __future__ import annotations

import os
import shutil
import ssl
import tempfile
import urllib.request
from pathlib import Path

import pytest

from browser_cdp import Browser
from browser_harness import ARTIFACTS, CACHED_PATHS_JS, Server, contrast, sw_missing, texts, trust_ca

CERTUTIL = shutil.which("certutil")
pytestmark = pytest.mark.skipif(
    CERTUTIL is None and not os.environ.get("GESTUREPAD_REQUIRE_BROWSER"),
    reason="certutil (Debian libnss3-tools) is needed to give Chromium the CA")


@pytest.fixture(scope="module")
def tls_server():
    state = tempfile.mkdtemp(prefix="gp-tls-state-")
    server = Server(extra=["--tls"], env={"XDG_STATE_HOME": state}, log_name="browser-tls-server.log")
    server.start()
    yield server
    server.stop()


def ca_of(server) -> bytes:
    """The CA certificate, fetched as a phone does before it trusts it."""
    with urllib.request.urlopen(server.origin + "/ca.crt", context=ssl._create_unverified_context()) as r:
        return r.read()


def trusting_browser(ca_pem: bytes) -> Browser:
    home = Path(tempfile.mkdtemp(prefix="gp-nss-home-"))
    trust_ca(home / ".pki" / "nssdb", ca_pem)
    return Browser(env={"HOME": str(home)})


def test_the_page_over_https_with_the_ca_trusted(tls_server):
    browser = trusting_browser(ca_of(tls_server))
    try:
        page = browser.new_page()
        page.phone()
        browser.call("Browser.setPermission", {"permission": {"name": "screen-wake-lock"}, "setting": "granted",
                                               "origin": tls_server.origin})
        page.navigate(f"{tls_server.origin}/#token={tls_server.token}")
        page.wait_for("window.gesturepad && window.gesturepad.status === 'live'", 10)
        assert page.eval("window.isSecureContext") is True
        assert page.eval("location.protocol") == "https:"
        page.wait_for("window.gesturepad.wakeLock === true", 5)
        page.wait_for("window.gesturepad.serviceWorker === true", 5)
        # Installed, the worker holds every file of its list (each ES module among them).
        assert sw_missing(page.eval(CACHED_PATHS_JS)) == []
    finally:
        browser.close()


def test_an_untrusting_browser_does_not_get_the_page(tls_server):
    browser = Browser()
    try:
        page = browser.new_page()
        page.navigate(f"{tls_server.origin}/#token={tls_server.token}")
        # Chromium's certificate interstitial: the page never runs, so no GesturePad state.
        page.wait_for("document.readyState === 'complete'", 5)
        assert page.eval("typeof window.gesturepad") == "undefined"
    finally:
        browser.close()


def test_the_trust_page_is_dark_and_its_fingerprint_breaks_only_between_bytes(tls_server):
    """/trust on a narrow phone (320 CSS px): the app's dark look, every text readable (4.5:1),
    and the fingerprint on several lines, each byte (`96:`) whole on one line."""
    browser = trusting_browser(ca_of(tls_server))
    try:
        page = browser.new_page()
        page.phone()
        page.call("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 3,
                                                         "mobile": True})
        page.navigate(f"{tls_server.origin}/trust")
        page.wait_for("document.readyState === 'complete' && !!document.getElementById('fingerprint')", 5)
        assert page.eval("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
        pieces = page.eval("Array.from(document.querySelectorAll('#fingerprint span')).map(function(s){"
                           "return [s.textContent, s.getClientRects().length, Math.round(s.getBoundingClientRect().top)];})")
        assert len(pieces) == 32
        assert all(rects == 1 for _, rects, _ in pieces), [p for p in pieces if p[1] != 1]
        assert len({top for _, _, top in pieces}) > 1, "the fingerprint is wider than the phone: it wraps"
        for t in texts(page):
            assert contrast(t["fg"], t["bg"]) >= 4.5, t
        page.screenshot(str(ARTIFACTS / "trust-320.png"))
    finally:
        browser.close()
