"""Server settings from the configuration file, and flags over them."""
import pytest

from testkit import InvalidStatus, Server, hello, sinks_available

pytestmark = pytest.mark.skipif(not sinks_available(), reason="the configuration file (output layer) has not landed")


def write_config(tmp_path, text):
    path = tmp_path / "gesturepad.yaml"
    path.write_text(text)
    return path


def test_file_settings_apply_and_flags_override(page_dir, tmp_path):
    config = write_config(tmp_path, "server:\n  token: file-token\n  limits:\n    maxConnections: 1\n")
    with Server(public=page_dir, token=None, extra=["--config", str(config)]) as server:
        assert "#token=file-token" in server.stdout()
        with server.connect(token="file-token") as first:
            assert hello(first)["type"] == "welcome"
            with pytest.raises(InvalidStatus) as refused:
                server.connect(token="file-token")
            assert refused.value.response.status_code == 503
    with Server(public=page_dir, token="flag-token", extra=["--config", str(config), "--max-connections", "2"]) as server:
        assert "#token=flag-token" in server.stdout()
        with server.connect(token="flag-token") as first, server.connect(token="flag-token") as second:
            assert hello(first)["type"] == "welcome"
            assert hello(second)["type"] == "welcome"


def test_file_public_folder_is_relative_to_the_file(page_dir, tmp_path):
    config = write_config(tmp_path, "server:\n  public: page\n")
    assert (tmp_path / "page" / "index.html").exists()
    with Server(public=None, extra=["--config", str(config)], drop_public=True) as server:
        status, _, body = server.get("/")
        assert status == 200 and b"GesturePad test page" in body
