"""Shared fixtures for the outputs/hooks integration tests."""
import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gesturepad() -> str:
    """The built `gesturepad` binary ($GESTUREPAD_BIN, or .build/debug|release)."""
    candidates = [os.environ.get("GESTUREPAD_BIN", "")]
    candidates += [str(REPO / ".build" / kind / "gesturepad") for kind in ("debug", "release")]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    found = shutil.which("gesturepad")
    if found:
        return found
    pytest.skip("gesturepad is not built (swift build)")
