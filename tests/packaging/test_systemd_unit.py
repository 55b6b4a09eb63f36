"""The systemd user unit passes `systemd-analyze --user verify`.

Headless as root (CI): a user-mode verify needs XDG_RUNTIME_DIR to be an existing folder
(the user manager's runtime directory); a private temporary one is enough. The verify also
checks that ExecStart's binary exists and that `man gesturepad(1)` (Documentation=) resolves,
so the unit is verified where it was installed, with MANPATH on the installed man pages.
"""
import os
import shutil
import subprocess

import pytest
from packaging_kit import make


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found:
        return found
    if os.geteuid() != 0:
        if os.environ.get("GESTUREPAD_REQUIRE_PACKAGING"):
            pytest.fail("systemd-analyze is missing and installing it needs root")
        pytest.skip("systemd-analyze is missing (apt-get install systemd)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "systemd"], check=True, env=env,
                   timeout=600)
    return shutil.which("systemd-analyze") or pytest.fail("systemd-analyze still missing after installing systemd")


def test_unit_passes_systemd_analyze_verify(release_bin, tmp_path):
    analyze = systemd_analyze()
    prefix = tmp_path / "prefix"
    make("install", f"PREFIX={prefix}")
    unit = prefix / "lib/systemd/user/gesturepad.service"
    text = unit.read_text()
    for line in ("After=graphical-session.target", "PartOf=graphical-session.target",
                 "WantedBy=graphical-session.target", "Documentation=man:gesturepad(1)",
                 "ExecReload=/bin/kill -HUP $MAINPID"):
        assert line in text
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), MANPATH=str(prefix / "share/man"))
    args = [analyze, "--user"]
    if not shutil.which("man"):
        args.append("--man=no")  # no man-db: the page cannot be looked up (it is installed, see test_install)
    result = subprocess.run([*args, "verify", str(unit)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "gesturepad.service" not in result.stderr, result.stderr  # no warning about our unit
    # A broken unit is caught: the check is real.
    broken = tmp_path / "broken" / "gesturepad.service"
    broken.parent.mkdir()
    broken.write_text(text.replace(f"{prefix}/bin/gesturepad", f"{prefix}/bin/missing"))
    result = subprocess.run([*args, "verify", str(broken)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode != 0
    make("uninstall", f"PREFIX={prefix}")
