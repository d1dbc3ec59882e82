"""What a reader can read of the explorer: no dead controls without JavaScript."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_explorer_without_javascript_shows_its_note_and_no_controls(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/explore/")
    assert "needs JavaScript" in page.locator("main").inner_text()
    for dead in ["select", "#explore-csv", "#explore-table-box", "#config-diff"]:
        assert page.locator(dead).first.is_visible() is False, dead
    context.close()
    # With JavaScript the controls are there to use.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(server + "/explore/")
    page.wait_for_function("() => Number(document.getElementById('explore-chart').dataset.rendered || 0) >= 1",
                           timeout=20000)
    assert page.locator('select[name="server"]').is_visible()
    assert page.locator("#explore-csv").is_visible()
    context.close()
