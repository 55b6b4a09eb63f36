#!/usr/bin/env python3
"""Renders Public/icon.svg into the PNG icons the manifest lists for launchers that take no SVG
(older Android): icon-192.png and icon-512.png (rounded corners, transparent outside) and
icon-maskable-512.png (full-bleed background, the drawing shrunk into the 80 % safe zone), with
headless Chromium. Deterministic for one Chromium; run after changing icon.svg:

    .venv/bin/python scripts/make-icons.py
"""
from __future__ import annotations

import base64
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_cdp import Browser  # noqa: E402

PUBLIC = ROOT / "Public"
BACKGROUND = "#0d1117"


def page_html(svg: str, size: int, maskable: bool) -> str:
    """The icon alone on a page of size × size; maskable: on a full square, at 80 %."""
    scale = 0.8 if maskable else 1.0
    body = f"background:{BACKGROUND}" if maskable else "background:transparent"
    inner = size * scale
    data = base64.b64encode(svg.encode()).decode()
    return (f"<!doctype html><html><body style='margin:0;width:{size}px;height:{size}px;{body};display:grid;"
            f"place-items:center'><img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'></body></html>")


def render(browser: Browser, svg: str, size: int, maskable: bool) -> bytes:
    page = browser.new_page(test_hook=False)
    try:
        page.call("Emulation.setDeviceMetricsOverride", {"width": size, "height": size, "deviceScaleFactor": 1, "mobile": False})
        page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
        html = base64.b64encode(page_html(svg, size, maskable).encode()).decode()
        page.navigate(f"data:text/html;base64,{html}")
        page.wait_for("document.images.length && document.images[0].complete")
        time.sleep(0.1)  # one frame painted
        shot = page.call("Page.captureScreenshot", {"format": "png", "clip": {
            "x": 0, "y": 0, "width": size, "height": size, "scale": 1}})
        return base64.b64decode(shot["data"])
    finally:
        page.close()


def main() -> None:
    svg = (PUBLIC / "icon.svg").read_text()
    browser = Browser()
    try:
        for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                     ("icon-maskable-512.png", 512, True)):
            (PUBLIC / name).write_bytes(render(browser, svg, size, maskable))
            print(f"Public/{name}")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
