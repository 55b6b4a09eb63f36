import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from testkit import Server, binary  # noqa: E402

PAGE_FILES = {
    "index.html": b"<!doctype html><title>GesturePad test page</title>",
    "app.js": b"console.log('hi');",
    "style.css": b"body { margin: 0 }",
    "icon.svg": b'<svg xmlns="http://www.w3.org/2000/svg"/>',
    "data.json": b"{}",
    "manifest.webmanifest": b'{"name": "GesturePad"}',
    "icon.png": b"\x89PNG\r\n\x1a\n",
    "notes.xyz": b"unknown type",
}


def pytest_collection_modifyitems(config, items):
    if not binary().exists():
        skip = pytest.mark.skip(reason=f"{binary()} not built (swift build)")
        for item in items:
            item.add_marker(skip)


@pytest.fixture
def page_dir(tmp_path):
    """A tiny page folder with one file of each served type, and a secret next to it."""
    folder = tmp_path / "page"
    folder.mkdir()
    for name, content in PAGE_FILES.items():
        (folder / name).write_bytes(content)
    (tmp_path / "secret.txt").write_text("must not be served")
    return folder


@pytest.fixture
def server(page_dir):
    with Server(public=page_dir) as running:
        yield running
