"""`make install PREFIX=… [DESTDIR=…]` and `make uninstall`: the installed binary runs from
anywhere and serves its own page; uninstall removes exactly what install put there."""
import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from packaging_kit import REPO, make

from testkit import Server, hello

EXPECTED = [
    "bin/gesturepad",
    "share/gesturepad/Public/index.html",
    "share/gesturepad/Public/watch.html",
    "share/gesturepad/examples/gesturepad.yaml",
    "share/gesturepad/examples/xdotool_pipe.py",
    "share/gesturepad/udev/70-gesturepad-uinput.rules",
    "share/gesturepad/udev/71-gesturepad-touchpad.rules",
    "share/gesturepad/install-manifest",
    "lib/systemd/user/gesturepad.service",
    "share/man/man1/gesturepad.1.gz",
    "share/doc/gesturepad/README.md",
    "share/doc/gesturepad/docs/gestures.md",
]


def tree(root: Path) -> list[str]:
    """Every file and folder under root, relative, sorted."""
    return sorted(str(p.relative_to(root)) + ("/" if p.is_dir() else "") for p in root.rglob("*"))


def test_install_serves_from_anywhere_and_uninstall_leaves_nothing(release_bin, version, tmp_path):
    prefix = tmp_path / "prefix"
    result = make("install", f"PREFIX={prefix}")
    assert f"gesturepad {version} in {prefix}" in result.stdout
    for name in EXPECTED:
        assert (prefix / name).is_file(), name
    public = sorted(str(p.relative_to(REPO / "Public")) for p in (REPO / "Public").rglob("*") if p.is_file())
    installed = sorted(str(p.relative_to(prefix / "share/gesturepad/Public"))
                       for p in (prefix / "share/gesturepad/Public").rglob("*") if p.is_file())
    assert installed == public
    binary = prefix / "bin" / "gesturepad"
    assert os.access(binary, os.X_OK)
    assert subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip() == version
    unit = (prefix / "lib/systemd/user/gesturepad.service").read_text()
    assert f"ExecStart={prefix}/bin/gesturepad serve --quiet" in unit
    # Every installed file is in the manifest, and nothing else.
    manifest = (prefix / "share/gesturepad/install-manifest").read_text().splitlines()
    files = sorted(line[2:] for line in manifest if line.startswith("f "))
    assert files == sorted(str(p) for p in prefix.rglob("*") if p.is_file())

    # From /, with a fresh HOME and no --public: the page beside the binary, and /ws.
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_STATE_HOME": None, "XDG_CONFIG_HOME": None}
    with Server(program=binary, drop_public=True, token=None, cwd="/", env=env) as server:
        assert f"serving {prefix}/share/gesturepad/Public" in server.stdout()
        status, headers, body = server.get("/")
        assert status == 200 and body == (REPO / "Public" / "index.html").read_bytes()
        token = (home / ".local/state/gesturepad/token").read_text().strip()
        assert f"#token={token}" in server.stdout()
        with server.connect(token=token) as ws:
            welcome = hello(ws)
            assert welcome["type"] == "welcome" and welcome["server"] == f"gesturepad/{version}"
        url = subprocess.run([str(binary), "url", "--no-qr"], capture_output=True, text=True,
                             env={"HOME": str(home), "PATH": os.environ["PATH"]}, cwd="/")
        assert url.returncode == 0 and f"http://127.0.0.1:{server.port}/#token={token}" in url.stdout
        # The application-menu entry opens the desktop page: `gesturepad open` finds the page of
        # the running server, with the desktop key the server made (0600).
        entry = configparser.ConfigParser(interpolation=None)
        entry.optionxform = str
        entry.read(prefix / "share/applications/gesturepad.desktop")
        desktop = entry["Desktop Entry"]
        assert desktop["Type"] == "Application" and desktop["Name"] == "GesturePad" and desktop["Terminal"] == "false"
        assert f'"{prefix}/bin/gesturepad" open --wait 10' in desktop["Exec"]
        assert (prefix / f"share/icons/hicolor/scalable/apps/{desktop['Icon']}.svg").is_file()
        key_file = home / ".local/state/gesturepad/desktop-key"
        assert oct(key_file.stat().st_mode & 0o777) == "0o600"
        opened = subprocess.run([str(binary), "open", "--print"], capture_output=True, text=True,
                                env={"HOME": str(home), "PATH": os.environ["PATH"]}, cwd="/")
        key = key_file.read_text().strip()
        assert opened.returncode == 0 and opened.stdout.strip() == f"http://127.0.0.1:{server.port}/desktop.html#key={key}"
        status, headers, body = server.get("/desktop.html")
        assert status == 200 and body == (REPO / "Public" / "desktop.html").read_bytes()

    make("uninstall", f"PREFIX={prefix}")
    assert not prefix.exists(), tree(prefix)


def test_uninstall_keeps_what_was_there_before_and_reinstall_is_clean(release_bin, tmp_path):
    """Folders that existed before install (bin/, share/man/man1/ with other files) stay, with
    their files; installing twice, then uninstalling once, still leaves nothing of ours."""
    prefix = tmp_path / "usr-local"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "other-tool").write_text("#!/bin/sh\n")
    (prefix / "share" / "man" / "man1").mkdir(parents=True)
    (prefix / "share" / "man" / "man1" / "other.1").write_text(".TH OTHER 1\n")
    before = tree(prefix)
    make("install", f"PREFIX={prefix}")
    stale = prefix / "share/gesturepad/Public/old-file.js"
    stale.write_text("from an older version")
    manifest = prefix / "share/gesturepad/install-manifest"
    manifest.write_text(manifest.read_text() + f"f {stale}\n")
    make("install", f"PREFIX={prefix}")
    assert not stale.exists()  # a file the new version does not ship is gone
    make("uninstall", f"PREFIX={prefix}")
    assert tree(prefix) == before
    # Nothing installed: uninstall says so and succeeds.
    assert "nothing to do" in make("uninstall", f"PREFIX={prefix}").stdout


def test_destdir_stages_for_packaging(release_bin, tmp_path):
    """DESTDIR stages the tree; the paths inside (unit, manifest) are the final ones."""
    stage = tmp_path / "stage"
    make("install", f"DESTDIR={stage}", "PREFIX=/usr")
    assert (stage / "usr/bin/gesturepad").is_file()
    assert "ExecStart=/usr/bin/gesturepad serve --quiet" in (stage / "usr/lib/systemd/user/gesturepad.service").read_text()
    manifest = (stage / "usr/share/gesturepad/install-manifest").read_text()
    assert "f /usr/bin/gesturepad" in manifest and str(stage) not in manifest
    make("uninstall", f"DESTDIR={stage}", "PREFIX=/usr")
    assert not stage.exists() or tree(stage) == []


def test_home_prefix_puts_the_unit_where_systemctl_user_looks(release_bin, tmp_path):
    """PREFIX=$HOME/.local: the unit goes to ~/.local/share/systemd/user (the user unit path)."""
    home = tmp_path / "home"
    make("install", f"PREFIX={home}/.local", env={"HOME": str(home)})
    unit = home / ".local/share/systemd/user/gesturepad.service"
    assert unit.is_file() and f"ExecStart={home}/.local/bin/gesturepad" in unit.read_text()
    make("uninstall", f"PREFIX={home}/.local", env={"HOME": str(home)})
    assert not (home / ".local").exists()


def test_relative_prefix_is_refused(release_bin):
    result = subprocess.run(["make", "--no-print-directory", "install", "PREFIX=relative/dir"], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode != 0 and "PREFIX must be an absolute path" in result.stderr
    assert not (REPO / "relative").exists()
