"""Fixtures for the kernel tests: the uinput and touchpad backends against a real kernel, udev
and libinput in a User-Mode Linux kernel (kernel_harness.py). Each test module boots the kernel
once with its scenario (tests/kernel/inside/) and asserts on what came back.

Skipped, with the reason in the header, when the kernel cannot be built here — unless
GESTUREPAD_REQUIRE_KERNEL=1 (`make test`) says it must, then that is a failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from kernel_harness import boot, build_kernel, missing_tools  # noqa: E402
from testkit import binary  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_KERNEL") == "1"


def _skip_reason() -> str | None:
    missing = missing_tools()
    if missing:
        return None if REQUIRED else missing
    if not binary().exists():
        return f"{binary()} not built (swift build)"
    return None


def pytest_report_header(config):
    reason = _skip_reason()
    return f"kernel tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    if not reason:
        return
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def kernel():
    missing = missing_tools()
    if missing:
        pytest.fail(missing) if REQUIRED else pytest.skip(missing)
    return build_kernel()


@pytest.fixture(scope="session")
def run_scenario(kernel, tmp_path_factory):
    """run_scenario("uinput") boots the kernel with inside/uinput_scenario.py (once per
    session) and returns its Boot."""
    boots = {}

    def run(name: str):
        if name not in boots:
            out = tmp_path_factory.mktemp(f"kernel-{name}")
            boots[name] = boot(kernel, f"tests/kernel/inside/{name}_scenario.py", out, binary())
        return boots[name]

    return run
