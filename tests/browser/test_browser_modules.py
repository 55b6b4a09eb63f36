"""The page as ES modules: one module script per page, no globals (the page state only through
the test hook), the service worker's file list in step with Public/."""
from __future__ import annotations

import re

from browser_harness import PUBLIC, Player, feed, no_console_errors, sw_files


def test_service_worker_lists_every_page_file():
    """sw.js keeps every file of the page at install — each module of js/ among them — and
    nothing that does not exist."""
    listed = sw_files()
    assert len(listed) == len(set(listed)), "a file is listed twice"
    on_disk = {str(p.relative_to(PUBLIC)) for p in PUBLIC.rglob("*") if p.is_file()} - {"sw.js"}
    assert set(listed) - {"./"} == on_disk
    assert {f"js/{p.name}" for p in (PUBLIC / "js").glob("*.js")} <= set(listed)


def test_each_page_loads_one_module_script():
    """index.html and watch.html load one entry module each; no classic script, no inline script."""
    for page, entry in (("index.html", "js/pad.js"), ("watch.html", "js/watch.js")):
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", (PUBLIC / page).read_text(), re.S)
        assert scripts == [(f' type="module" src="{entry}"', "")], (page, scripts)


# The modules that must not touch the document (docs/page.md "ES modules"): the connection and
# what it needs, and the feed's words. They import only each other.
DOM_FREE = {
    "connection.js", "address.js", "state.js", "numbers.js", "gestures.js", "moves.js", "wire.js", "proof.js", "sha256.js",
    "aead.js", "x25519.js", "link.js", "link-texts.js", "batcher.js", "feed-words.js",
}


def test_connection_modules_do_not_touch_the_dom():
    """The connection code is apart from the DOM code: the DOM-free modules never name
    `document` and import only DOM-free modules."""
    for name in sorted(DOM_FREE):
        text = (PUBLIC / "js" / name).read_text()
        assert not re.search(r"\bdocument\b", text), name
        imported = set(re.findall(r"^import .* from '\./([\w.]+)';$", text, re.M))
        assert imported <= DOM_FREE, (name, imported - DOM_FREE)
    entry_imports = re.findall(r"^import .* from '\./([\w.]+)';$", (PUBLIC / "js" / "pad.js").read_text(), re.M)
    assert "connection.js" in entry_imports


def window_names(page) -> set[str]:
    return set(page.eval("Object.getOwnPropertyNames(window)"))


def script_free_names(browser, server, phone: bool, test_hook: bool = False) -> set[str]:
    """The names on `window` of a page of the same origin that runs no script (the manifest),
    in a tab emulated like the page's (touch adds `ontouchstart`, …)."""
    blank = browser.new_page(test_hook=test_hook)
    try:
        if phone:
            blank.phone()
        else:
            blank.desktop()
        blank.navigate(f"{server.origin}/manifest.json")
        blank.wait_for("document.readyState === 'complete'")
        return window_names(blank)
    finally:
        blank.close()


def test_the_page_defines_no_globals(browser, server):
    """Without the test hook the touchpad and the observer add nothing to `window` (compared
    with a page of the same origin that runs no script), and the touchpad still works: live,
    a tap listed in the feed."""
    pad = browser.new_page(test_hook=False)
    watch = browser.new_page(test_hook=False)
    try:
        pad.phone()
        pad.navigate(f"{server.origin}/#token={server.token}")
        pad.wait_for("document.querySelector('#status b').textContent === 'live'", 8)
        watch.desktop()
        watch.navigate(f"{server.origin}/watch.html#token={server.token}")
        watch.wait_for("document.querySelector('#status b').textContent === 'live'", 8)
        p = Player(pad)
        p.down(0, f1=(150, 300))
        p.up(60)
        p.finish()
        pad.wait_for("document.querySelector('#feed li[data-gesture=tap]') !== null")
        assert [row["text"] for row in feed(pad)] == ["tap"]
        for page, phone in ((pad, True), (watch, False)):
            assert window_names(page) - script_free_names(browser, server, phone) == set()
            assert page.eval("typeof window.gesturepad + typeof window.GP") == "undefinedundefined"
            # Still there for a look from the console: the state module hands it out.
            assert page.module("js/state.js", "m.pageState().status") == "live"
            no_console_errors(page)
    finally:
        pad.close()
        watch.close()


def test_the_test_hook_is_the_only_global(browser, server, pad):
    """With the test hook set, the page publishes its state as `window.gesturepad` — the one
    name it adds to `window`."""
    assert window_names(pad) - script_free_names(browser, server, True, test_hook=True) == {"gesturepad"}
    assert pad.state()["status"] == "live" and pad.state()["role"] == "touchpad"
