"""The Anime d20 wounds tracker as a tracker: reload, undo, saves through the browser and by name."""
import pytest

from tests.dashboards.kit import check_tracker_kit

pytestmark = pytest.mark.browser


def test_wounds_tracker_keeps_everything(page, dashboards_url):
    def hit(t):
        box = t.locator(".besm-field-amount input").first
        box.fill("7"); box.press("Tab")
        t.locator("button.besm-damage").click()
        t.locator(".besm-headline", has_text="33 / 40 HP").first.wait_for(timeout=10_000)
        box.fill("5"); box.press("Tab")
        t.locator("button.besm-damage").click()
        t.locator(".besm-headline", has_text="28 / 40 HP").first.wait_for(timeout=10_000)
    check_tracker_kit(page, dashboards_url + "/voila/render/anime_d20_checks.ipynb",
                      ".besm-calculator:has(button.besm-damage)", hit, None,
                      lambda t: t.locator(".besm-headline").first.inner_text(), "anime-d20-wounds",
                      open_tab=lambda pg: (pg.get_by_role("tab", name="Wounds").wait_for(timeout=60_000),
                                           pg.get_by_role("tab", name="Wounds").click()))
