"""A server that comes back between the page's two questions: the page's upgrade found nothing
listening, and the `GET /pairing` it asks next (docs/page.md "The connection's life") found the
server up, as a restarted server is a moment later. That answer alone does not prove a refusal:
the page tries again at once and is live within a second — it does not say "refused" and wait
15 s (the flake of `test_not_live_…` in CI, stop 53). A gate between the real page and the real
server fails the upgrade while the ask goes through."""
from __future__ import annotations

from browser_harness import no_console_errors
from gate import LIVE, open_paired, wait_until


def test_an_upgrade_failed_while_the_server_came_up_is_tried_again_at_once(browser, gated):
    server, gate = gated
    page = open_paired(browser, gate, server.token)
    try:
        gate.drop_upgrades(1)
        gate.cut()
        page.wait_for("window.gesturepad.status !== 'live'", 5)
        wait_until(lambda: gate.dropped >= 1, 5, "the page's next upgrade to reach the gate")
        # The retry after an answered ask waits 250 ms (± 15 %), not the refusal's 15 s.
        page.wait_for(LIVE, 3)
        assert gate.dropped == 1
        no_console_errors(page)
    finally:
        page.close()
