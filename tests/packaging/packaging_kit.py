"""Helpers of the packaging tests (make, the release binary)."""
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def release_binary() -> Path:
    path = Path(os.environ.get("GESTUREPAD_RELEASE_BIN", ".build/release/gesturepad"))
    return path if path.is_absolute() else REPO / path


def make(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Runs `make ARGS` in the repository; fails the test with its output if it fails."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    result = subprocess.run(["make", "--no-print-directory", *args], cwd=REPO, capture_output=True, text=True,
                            env=full_env, timeout=3600)
    assert result.returncode == 0, f"make {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result
