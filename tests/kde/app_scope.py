"""A systemd app scope made by hand, for tests/kde: the cgroup a program started from Plasma's
launcher runs in, `user.slice/user-UID.slice/user@UID.service/app.slice/app-ID-N.scope`.

xdg-desktop-portal 1.16 derives a host program's app id from it (`sd_pid_get_user_unit`:
`app-org.example.App-12.scope` → `org.example.App`), and KDE 5.27 then shows its consent
dialog. The scope is made in every cgroup hierarchy that systemd keeps (the `name=systemd`
one and the unified one, where mounted); `wrapper` is a program that moves itself into it and
execs the server, so the server is in the scope before it first talks to the bus. `remove()`
takes away the folders it made (its processes must have ended), innermost first.
"""
from __future__ import annotations

import os
from pathlib import Path


def systemd_hierarchies() -> list[Path]:
    """The mount points of the cgroup hierarchies systemd's unit lookup reads: `name=systemd`
    (cgroup v1) and the unified one (cgroup2)."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        separator = fields.index("-")
        kind, options = fields[separator + 1], fields[separator + 3]
        if kind == "cgroup2" or (kind == "cgroup" and "name=systemd" in options.split(",")):
            found.append(Path(fields[4]))
    return found


def scope_problem() -> str | None:
    """Why no scope can be made here, or None."""
    hierarchies = systemd_hierarchies()
    if not hierarchies:
        return "no name=systemd or unified cgroup hierarchy is mounted"
    unwritable = [str(h) for h in hierarchies if not os.access(h, os.W_OK)]
    return f"cannot make cgroups in {', '.join(unwritable)} (needs root)" if unwritable else None


class AppScope:
    """`app-<app_id>-<number>.scope` under this user's `app.slice`, in every systemd hierarchy."""

    def __init__(self, app_id: str, number: int, folder: Path, program: Path):
        uid = os.getuid()
        self.app_id = app_id
        self.relative = Path("user.slice", f"user-{uid}.slice", f"user@{uid}.service", "app.slice",
                             f"app-{app_id}-{number}.scope")
        self.made: list[Path] = []
        self.leaves = [root / self.relative for root in systemd_hierarchies()]
        for leaf in self.leaves:
            missing = [leaf, *leaf.parents]
            missing = [path for path in missing if not path.exists()]
            for path in reversed(missing):
                path.mkdir()
                self.made.append(path)
        self.wrapper = folder / f"in-{app_id}-{number}.sh"
        moves = "".join(f'echo $$ > "{leaf}/cgroup.procs" || exit 97\n' for leaf in self.leaves)
        self.wrapper.write_text(f'#!/bin/sh\n# Into the app scope, then the program.\n{moves}exec "{program}" "$@"\n')
        self.wrapper.chmod(0o755)

    def cgroup_line(self) -> str:
        """The path /proc/PID/cgroup shows for a process in the scope."""
        return "/" + str(self.relative)

    def remove(self) -> list[str]:
        """Removes the folders made, innermost first; returns those that could not go (a process
        still in them)."""
        left = []
        for path in reversed(self.made):
            try:
                path.rmdir()
            except OSError as error:
                left.append(f"{path}: {error.strerror}")
        return left
