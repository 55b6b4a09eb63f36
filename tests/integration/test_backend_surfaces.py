"""Every backend in every place a user reads about backends (issue 43 item 9): the backends are
the values `serve --control` takes (the binary's own list, so a backend added to the code and
left out of a help text fails here), and each is named — with what it is — by `replay
--control`'s help, `gesturepad help control`, the help topics' list, the page's help
(Public/help.html's backend table) and docs/control.md."""
from __future__ import annotations

import re
import subprocess

from testkit import REPO, binary


def help_text(*args: str) -> str:
    run = subprocess.run([str(binary()), *args], capture_output=True, text=True, timeout=30)
    return run.stdout + run.stderr


def values(text: str, option: str) -> list[str]:
    """The `(values: …)` list ArgumentParser prints under `option`."""
    after = text[text.index(option):]
    found = re.search(r"\(values:([^)]*)\)", after, re.S)
    assert found, f"no value list under {option}"
    listed = found.group(1).replace("\n", " ").split(";")[0]  # "…, wlroots; default: x11"
    return [v.strip() for v in listed.split(",") if v.strip()]


def test_every_backend_is_named_everywhere():
    backends = [v for v in values(help_text("serve", "--help"), "--control <backend>") if v not in ("auto", "off")]
    assert backends and "x11" in backends, backends
    replay = values(help_text("replay", "--help"), "--control <backend>")
    topic = help_text("help", "control")
    topics = help_text("help")
    page = (REPO / "Public" / "help.html").read_text()
    rows = set(re.findall(r'<tr data-backend="([a-z0-9]+)">', page))
    control_md = (REPO / "docs" / "control.md").read_text()
    missing = []
    for backend in backends:
        if backend not in replay:
            missing.append(f"replay --control does not take {backend}")
        if not re.search(rf"^\s+{backend}\s+\S", topic, re.M):
            missing.append(f"gesturepad help control does not describe {backend}")
        if not re.search(rf"control .*\b{backend}\b", topics):
            missing.append(f"gesturepad help's topic line does not name {backend}")
        if backend not in rows:
            missing.append(f"Public/help.html has no row for {backend}")
        if f"`{backend}`" not in control_md:
            missing.append(f"docs/control.md does not name `{backend}`")
    assert not missing, "\n".join(missing)
