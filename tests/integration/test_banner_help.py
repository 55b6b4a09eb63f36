"""What the terminal tells a new user (docs/server.md "What you see at start"): the observer's
address in the banner and in `gesturepad url`; with `--tls` the `/trust` address in full with
its QR code and the fingerprint; `/trust` in the page's dark look, its fingerprint breaking only
between bytes; and messages that point to `gesturepad help TOPIC` — which exists — rather than
to files of the source tree. The real binary, a real server on a loopback port.
"""
import json
import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.request

import pytest

from testkit import REPO, Server, binary, free_port
from test_url import url

TOPICS = ("control", "pairing", "observer", "tls", "config", "page")


def help_of(*words):
    return subprocess.run([str(binary()), "help", *words], capture_output=True, text=True, timeout=10)


def serve_banner(state_home, *extra, timeout=15.0):
    """Starts `gesturepad serve` (QR codes drawn: no --no-qr) and reads its banner; returns
    (process, port, banner)."""
    port = free_port()
    env = dict(os.environ, XDG_STATE_HOME=str(state_home), TERM="dumb")
    env.pop("GESTUREPAD_TOKEN", None)
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--control", "off",
                                "--notify", "off", "--token", "banner-token-Secret0123456789abcdefZ", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith("Press Ctrl-C"):
            break
    return process, port, lines


def stop(process):
    process.terminate()
    process.wait(timeout=10)


def test_banner_and_url_print_the_observer_address(page_dir):
    with Server(public=page_dir, token=None) as server:
        token = open(os.path.join(server.state_home, "gesturepad", "token")).read().strip()
        watch = f"  http://127.0.0.1:{server.port}/watch.html#token={token}"
        banner = server.stdout().splitlines()
        assert watch in banner
        assert banner[banner.index(watch) - 1] == "To watch the gestures on another screen, open the observer view:"
        assert watch in url(server, "--no-qr").stdout.splitlines()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed by the TLS tests")
def test_tls_banner_gives_the_trust_address_with_its_qr_code_and_the_trust_page_is_dark(tmp_path):
    process, port, lines = serve_banner(tmp_path, "--tls")
    try:
        trust = f"  http://127.0.0.1:{port}/trust"
        assert trust in lines, lines
        at = lines.index(trust)
        assert lines[at - 1].startswith("Trust GesturePad's certificate once on each phone")
        assert lines[at + 1] == "or scan this QR code:"
        qr = lines[at + 2:lines.index("and check that it shows this fingerprint (SHA-256):", at)]
        assert len(qr) >= 10 and all(set(row) <= set(" █▀▄") for row in qr), qr
        fingerprint = lines[lines.index("and check that it shows this fingerprint (SHA-256):", at) + 1].strip()
        assert re.fullmatch(r"([0-9A-F]{2}:){31}[0-9A-F]{2}", fingerprint)
        assert "open /trust" not in "\n".join(lines)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/trust", context=context, timeout=5) as response:
            page = response.read().decode()
        assert "background: #0d1117" in page and "color-scheme: dark" in page
        spans = re.findall(r"<span>([0-9A-F:]+)</span>", page)
        assert "".join(spans) == fingerprint and all(re.fullmatch(r"[0-9A-F]{2}:?", s) for s in spans)
        assert page.count("<wbr>") == 31
    finally:
        stop(process)


def test_help_topics_exist_and_the_overview_lists_them():
    overview = help_of()
    assert overview.returncode == 0
    for topic in TOPICS:
        assert f"  {topic} " in overview.stdout
        run = help_of(topic)
        assert run.returncode == 0 and run.stdout.strip(), topic
        assert "docs/" not in run.stdout, f"{topic} names a file of the source tree"
    control = help_of("control").stdout
    assert "DISPLAY" in control and "70-gesturepad-uinput.rules" in control
    # A command's help, as swift-argument-parser's own `help` prints it.
    rename = help_of("devices", "rename")
    assert rename.returncode == 0 and "USAGE: gesturepad devices rename" in rename.stdout
    wrong = help_of("no-such-topic")
    assert wrong.returncode == 1 and "no topic or command" in wrong.stderr
    # Every command's name stands apart from its line, in one column (the longest,
    # x11-release-guard, once ran into its text: issue 42).
    commands = overview.stdout.split("Commands (gesturepad help COMMAND):\n", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in commands.splitlines() if line.strip()]
    assert any(row.split()[0] == "x11-release-guard" for row in rows), rows
    starts = {len(row) - len(row[2:].split("  ", 1)[1].lstrip()) for row in rows if "  " in row[2:]}
    assert len(starts) == 1 and all("  " in row[2:] for row in rows), rows


def test_a_missing_display_points_to_gesturepad_help(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "GESTUREPAD_TOKEN")}
    env["XDG_STATE_HOME"] = str(tmp_path)
    run = subprocess.run([str(binary()), "serve", "--no-qr", "--control", "x11", "--token", "t-Secret0123456789abcdefZ", "--host", "127.0.0.1",
                          "--port", str(free_port())], capture_output=True, text=True, timeout=10, env=env, cwd=REPO)
    assert run.returncode == 1
    assert "DISPLAY is not set: gesturepad help control" in run.stderr
    assert "docs/" not in run.stderr


def test_help_control_names_the_udev_rule_where_this_installation_has_it(tmp_path):
    """An installed binary (`PREFIX/bin`) names `PREFIX/share/gesturepad/udev`; the one of a
    source checkout names `dist/udev`: a path the user has, never docs/."""
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    rules = prefix / "share" / "gesturepad" / "udev"
    rules.mkdir(parents=True)
    (rules / "70-gesturepad-uinput.rules").write_text("# test copy\n")
    installed = prefix / "bin" / "gesturepad"
    shutil.copy(binary(), installed)
    text = subprocess.run([str(installed), "help", "control"], capture_output=True, text=True, timeout=10).stdout
    assert f"sudo cp {rules}/70-gesturepad-uinput.rules /etc/udev/rules.d/" in text
    here = help_of("control").stdout
    assert f"sudo cp {REPO}/dist/udev/70-gesturepad-uinput.rules /etc/udev/rules.d/" in here


def test_the_manual_page_lists_every_help_topic():
    page = (REPO / "dist" / "man" / "gesturepad.1").read_text()
    section = page.split(".SH HELP TOPICS", 1)[1].split("\n.SH ", 1)[0]
    assert re.findall(r"^\.TP\n\.B (\S+)$", section, re.M) == list(TOPICS)


def command_paths(command: dict, prefix: tuple = ()) -> list[str]:
    """Every command path of swift-argument-parser's dump of the command tree, hidden ones too
    ("devices rename", "x11-release-guard"), in order, once each."""
    paths = []
    for sub in command.get("subcommands") or []:
        path = prefix + (sub["commandName"],)
        paths.append(" ".join(path))
        paths += command_paths(sub, path)
    return list(dict.fromkeys(paths))


def manual_entries() -> list[str]:
    """The tag of every entry of the manual page's COMMANDS section, as man prints it (the
    line after each .TP, its roff fonts and escapes taken away)."""
    page = (REPO / "dist" / "man" / "gesturepad.1").read_text()
    section = page.split(".SH COMMANDS", 1)[1].split("\n.SH ", 1)[0]
    tags = re.findall(r"^\.TP\n(.*)$", section, re.M)
    plain = []
    for tag in tags:
        tag = re.sub(r"^\.[A-Z]+ ", "", tag).replace("\\-", "-").replace("\\fR", "").replace("\\fP", "")
        plain.append(" ".join(tag.replace('"', " ").split()))
    return plain


def test_the_manual_page_has_an_entry_for_every_command():
    """Walks the commands the binary has (its argument parser's own dump, so a command added
    without a manual entry fails here) and finds each, subcommands too, as an entry of the
    manual page's COMMANDS section: `man gesturepad` covers every command."""
    dump = subprocess.run([str(binary()), "--experimental-dump-help"], capture_output=True, text=True, timeout=10)
    assert dump.returncode == 0, dump.stderr
    paths = command_paths(json.loads(dump.stdout)["command"])
    assert {"serve", "url", "pair", "devices", "devices forget", "check-config", "help", "x11-release-guard"} <= set(paths)
    entries = manual_entries()
    missing = [path for path in paths if not any(entry == path or entry.startswith(path + " ") for entry in entries)]
    assert missing == [], f"commands without an entry in dist/man/gesturepad.1 (COMMANDS): {missing}"
    synopsis = (REPO / "dist" / "man" / "gesturepad.1").read_text().split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
    for path in paths:
        if "-guard" not in path and " " not in path:
            assert f".B gesturepad {path}".replace("-", "\\-") in synopsis or path == "serve", path


def test_url_over_https_names_the_trust_address(page_dir):
    with Server(public=page_dir, token=None, extra=["--tls"]) as server:
        printed = url(server, "--no-qr").stdout.splitlines()
        assert f"  http://127.0.0.1:{server.port}/trust" in printed
        assert f"  http://127.0.0.1:{server.port}/trust" in server.stdout().splitlines(), "the banner's own"
