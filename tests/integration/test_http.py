"""The page over HTTP: files with the right types, nothing outside the folder."""
import pytest

from testkit import REPO, Server

EXPECTED_TYPES = {
    "/": "text/html",
    "/index.html": "text/html",
    "/app.js": "text/javascript",
    "/style.css": "text/css",
    "/icon.svg": "image/svg+xml",
    "/data.json": "application/json",
    "/manifest.webmanifest": "application/manifest+json",
    "/icon.png": "image/png",
}


@pytest.mark.parametrize("path,content_type", EXPECTED_TYPES.items())
def test_page_and_assets_are_served_with_their_types(server, page_dir, path, content_type):
    status, headers, body = server.get(path)
    assert status == 200
    assert headers["content-type"].split(";")[0].strip() == content_type
    name = "index.html" if path == "/" else path.lstrip("/")
    assert body == (page_dir / name).read_bytes()


@pytest.mark.parametrize("path", ["/missing.html", "/nope/", "/ws", "/index.html.bak"])
def test_missing_files_are_404(server, path):
    status, _, body = server.get(path)
    assert status == 404
    assert b"must not be served" not in body


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/a/../../secret.txt",
    "//../secret.txt", "/%2E%2E/%2E%2E/etc/passwd", "/../../../../etc/passwd",
])
def test_traversal_is_refused(server, path):
    status, _, body = server.get(path)
    assert status in (400, 403, 404)
    assert b"must not be served" not in body
    assert b"root:" not in body


def test_unknown_file_types_are_404(server):
    status, _, body = server.get("/notes.xyz")
    assert status == 404
    assert b"unknown type" not in body


def test_hidden_files_are_404(server, page_dir):
    (page_dir / ".env").write_text("SECRET=1")
    (page_dir / ".git").mkdir()
    (page_dir / ".git" / "config.json").write_text("{}")
    for path in ("/.env", "/.git/config.json"):
        status, _, body = server.get(path)
        assert status == 404, path
        assert b"SECRET" not in body


@pytest.mark.skipif(not (REPO / "Public" / "index.html").exists(), reason="Public/ not merged yet")
def test_real_public_folder_is_served():
    with Server(public=REPO / "Public") as running:
        status, headers, body = running.get("/")
        assert status == 200
        assert headers["content-type"].startswith("text/html")
        assert body == (REPO / "Public" / "index.html").read_bytes()
        for file in sorted((REPO / "Public").rglob("*")):
            if file.is_file():
                path = "/" + str(file.relative_to(REPO / "Public"))
                status, headers, body = running.get(path)
                assert status == 200, path
                assert body == file.read_bytes(), path
