"""Boots the User-Mode Linux kernel of the kernel tests with a scenario and hands back what the
scenario wrote (docs/testing.md "The kernel tests").

The kernel is built once per machine by tests/kernel/build-kernel.sh (cached under
.build/uml/, keyed by the source package's version and the configuration lines); each boot
runs tests/kernel/init.sh as PID 1, which starts udev and runs one scenario of
tests/kernel/inside/ with the repository's venv Python. Results come back as JSON files in a
host folder; the console, init's and the scenario's output are kept beside them for a failing
test to show.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

# A whole boot, scenario included, must end within this (a hung kernel is killed).
BOOT_TIMEOUT = 600


def missing_tools() -> str | None:
    """What the host lacks to build or boot the kernel, or None."""
    if not Path("/usr/src/linux-source-6.1.tar.xz").exists():
        return "linux-source-6.1 is not installed (scripts/setup.sh --test)"
    for tool in ("libinput", "udevadm", "stdbuf", "bc", "flex", "bison"):
        if shutil.which(tool) is None and not Path(f"/lib/systemd/systemd-{tool}").exists():
            return f"{tool} is not installed (scripts/setup.sh --test)"
    if not Path("/lib/systemd/systemd-udevd").exists():
        return "systemd-udevd is not installed (apt-get install udev)"
    try:
        import evdev  # noqa: F401
    except ImportError:
        return "python-evdev is not installed in the venv (pip install -r tests/requirements.txt)"
    return None


def build_kernel() -> Path:
    """The cached kernel (built now if needed: minutes, once)."""
    result = subprocess.run([str(HERE / "build-kernel.sh")], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"build-kernel.sh failed ({result.returncode}):\n{result.stderr[-4000:]}")
    sys.stderr.write(result.stderr)
    return Path(result.stdout.strip().splitlines()[-1])


class Boot:
    """One boot's results: the JSON the scenario wrote, and its logs."""

    def __init__(self, out: Path, returncode: int | None):
        self.out = out
        self.returncode = returncode

    def logs(self) -> str:
        parts = []
        for name in ("status", "init.log", "scenario.log", "console.log"):
            path = self.out / name
            if path.exists():
                text = path.read_text(errors="replace")
                parts.append(f"--- {name}\n{text[-6000:]}")
        return "\n".join(parts)

    def results(self, name: str) -> dict:
        path = self.out / f"{name}.json"
        if not path.exists():
            raise AssertionError(f"the scenario wrote no {path.name} (kernel exit {self.returncode}):\n{self.logs()}")
        return json.loads(path.read_text())

    def segment(self, scenario: str, name: str) -> dict:
        """One segment of a scenario's results; a segment the scenario did not reach, or that
        failed inside the kernel, fails the test with the kernel's logs."""
        data = self.results(scenario)
        assert name in data, f"the scenario did not reach {name!r}:\n{self.logs()}"
        entry = data[name]
        assert "error" not in entry, f"{name} failed inside the kernel:\n{entry['error']}\n{self.logs()}"
        return entry


def boot(kernel: Path, scenario: str, out: Path, binary: Path) -> Boot:
    """Boots `kernel` running `scenario` (a path relative to the repository); `out` gets the
    results. The kernel's memory lives in /dev/shm while it runs."""
    out.mkdir(parents=True, exist_ok=True)
    python = Path(sys.executable)
    if not python.is_absolute():
        python = python.resolve()
    args = [
        str(kernel), "mem=768M", "rootfstype=hostfs", "rootflags=/", "rw", f"uml_dir={out}",
        f"init={HERE / 'init.sh'}", f"GP_REPO={REPO}", f"GP_PYTHON={python}", f"GP_SCENARIO={scenario}",
        f"GP_OUT={out}", f"GESTUREPAD_BIN={binary.resolve()}", "con=null", "con0=null,fd:1",
    ]
    with open(out / "console.log", "wb") as console:
        process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT,
                                   start_new_session=True, cwd=out)
        try:
            code = process.wait(timeout=BOOT_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            code = None
        finally:
            # UML leaves helper processes in its group if it dies badly.
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return Boot(out, code)
