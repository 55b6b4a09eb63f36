"""`make deb`: the package's control data and contents; then, as root, installed into this
machine with dpkg -i (the binary on PATH, serving its page), purged, and installed and purged
again with apt (`apt install ./gesturepad_*.deb`, the README's way)."""
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from packaging_kit import REPO, make

from testkit import Server, hello


@pytest.fixture(scope="module")
def deb(release_bin, tmp_path_factory) -> Path:
    if not shutil.which("dpkg-deb"):
        pytest.skip("dpkg-deb is missing (not a Debian system)")
    out = tmp_path_factory.mktemp("deb")
    # xz level 1: the same package, packed in a third of the time (level 6 is make deb's default).
    make("deb", f"DEBDIR={out}", "DEB_LEVEL=1")
    found = list(out.glob("gesturepad_*.deb"))
    assert len(found) == 1, found
    return found[0]


def run(*args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=600, env=env)
    if check:
        assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return result


def test_control_data(deb, version):
    arch = run("dpkg", "--print-architecture").stdout.strip()
    assert deb.name == f"gesturepad_{version}_{arch}.deb"
    info = run("dpkg-deb", "--info", str(deb)).stdout
    fields = dict(line.strip().split(": ", 1) for line in info.splitlines() if line.startswith(" ") and ": " in line
                  and not line.startswith("  "))
    assert fields["Package"] == "gesturepad"
    assert fields["Version"] == version
    assert fields["Architecture"] == arch
    depends = [d.strip() for d in fields["Depends"].split(",")]
    names = [d.split()[0] for d in depends]
    # The runtime libraries, by their Debian 12 package names, with the shlibs minimal versions.
    for name in ("libwebsockets17", "libqrencode4", "libx11-6", "libxtst6", "libyaml-0-2", "libc6"):
        assert name in names, depends
    assert "libwebsockets17 (>= 4.1.6)" in depends and "libqrencode4 (>= 4.1.1)" in depends
    assert len(names) == len(set(names))
    assert not any("swift" in n for n in names)  # the Swift runtime is linked in
    assert int(fields["Installed-Size"]) > 1000
    assert '"gesturepad url"' in info  # the description survived the shell


def test_contents(deb, tmp_path):
    listing = run("dpkg-deb", "--contents", str(deb)).stdout.splitlines()
    paths = {line.split()[-1] for line in listing}
    owners = {line.split()[1] for line in listing}
    assert owners == {"root/root"}
    for path in ("./usr/bin/gesturepad", "./usr/share/gesturepad/Public/index.html",
                 "./usr/share/gesturepad/Public/watch.html", "./usr/share/gesturepad/examples/gesturepad.yaml",
                 "./usr/share/gesturepad/udev/70-gesturepad-uinput.rules",
                 "./usr/share/gesturepad/udev/71-gesturepad-touchpad.rules", "./usr/lib/systemd/user/gesturepad.service",
                 "./usr/share/man/man1/gesturepad.1.gz", "./usr/share/doc/gesturepad/README.md"):
        assert path in paths, path
    assert not any("install-manifest" in p for p in paths)
    assert not any(p.startswith("./etc/") or p.startswith("./lib/udev") for p in paths)  # nothing activated
    binary = next(line for line in listing if line.endswith("./usr/bin/gesturepad"))
    assert binary.startswith("-rwxr-xr-x")
    run("dpkg-deb", "-x", str(deb), str(tmp_path / "x"))
    unit = (tmp_path / "x/usr/lib/systemd/user/gesturepad.service").read_text()
    assert "ExecStart=/usr/bin/gesturepad serve --quiet" in unit


def dpkg_status() -> str:
    return run("dpkg-query", "-W", "-f=${Status}", "gesturepad", check=False).stdout


def lock_retry(*args: str) -> subprocess.CompletedProcess:
    """dpkg / apt, waiting out another package operation on this machine (frontend lock)."""
    for _ in range(60):
        result = run(*args, check=False, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        if result.returncode == 0 or "lock" not in (result.stderr + result.stdout).lower():
            break
        time.sleep(2)
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return result


def test_installs_into_this_machine_and_purges(deb, version, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("installing a package needs root (CI runs as root)")
    if dpkg_status().startswith("install ok"):
        pytest.skip("a gesturepad package is already installed here; not touching it")
    try:
        lock_retry("dpkg", "-i", str(deb))
        assert dpkg_status() == "install ok installed"
        assert shutil.which("gesturepad") == "/usr/bin/gesturepad"
        assert run("gesturepad", "--version").stdout.strip() == version
        home = tmp_path / "home"
        home.mkdir()
        env = {"HOME": str(home), "XDG_STATE_HOME": None, "XDG_CONFIG_HOME": None}
        with Server(program="/usr/bin/gesturepad", drop_public=True, token="t-Secret0123456789abcdefZ", cwd="/", env=env) as server:
            assert "serving /usr/share/gesturepad/Public" in server.stdout()
            status, _, body = server.get("/")
            assert status == 200 and body == (REPO / "Public" / "index.html").read_bytes()
            with server.connect() as ws:
                assert hello(ws)["type"] == "welcome"
        files = run("dpkg", "-L", "gesturepad").stdout.split()
        lock_retry("dpkg", "--purge", "gesturepad")
        assert dpkg_status() in ("", "unknown ok not-installed")
        assert not any(Path(f).is_file() for f in files), [f for f in files if Path(f).is_file()]
        assert not Path("/usr/share/gesturepad").exists()
        # The README's way: apt resolves Depends (all present here: no download).
        lock_retry("apt-get", "install", "-y", "-qq", "--no-install-recommends", str(deb.resolve()))
        assert run("gesturepad", "--version").stdout.strip() == version
        lock_retry("apt-get", "purge", "-y", "-qq", "gesturepad")
        assert shutil.which("gesturepad") is None
    finally:
        if dpkg_status().startswith("install ok"):
            lock_retry("dpkg", "--purge", "gesturepad")
