"""The packaging tests: `make install` / `make uninstall` into temporary prefixes, the
systemd user unit, `make deb` and installing the package into this machine (root only).

They need the release binary (`make release`: --static-swift-stdlib), which `make test`
builds once before the Python tests; `make install` then reuses it. Without it they are
skipped, unless GESTUREPAD_REQUIRE_PACKAGING=1 (make test) makes that a failure.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from packaging_kit import release_binary  # noqa: E402


@pytest.fixture(scope="session")
def release_bin() -> Path:
    path = release_binary()
    if not path.exists():
        message = f"{path} not built (make release)"
        if os.environ.get("GESTUREPAD_REQUIRE_PACKAGING"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def version(release_bin) -> str:
    return subprocess.run([str(release_bin), "--version"], capture_output=True, text=True, check=True).stdout.strip()
