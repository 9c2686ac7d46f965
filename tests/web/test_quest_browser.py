"""The Plumber quest in headless Chromium against the real server: an organiser starts a
quest from the page with the seed's grid as a CSV table, a team joins on a phone and
reveals a segment by its location code, and the organiser's page, open all along, shows
it at once (over its WebSocket) in that team's grid; then the team sends one of the
article's printed codes and the organiser sees it finish. Screenshots go to
$BOARDLAB_ARTIFACTS/quest (or the test's tmp folder).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardlab.puzzles.pipes.level import PipeLevel
from boardlab.puzzles.pipes.table import table_text
from boardlab.web.app import create_app
from tests.puzzles.pipes.test_solve import SEED_COMPLETION, SEED_SOLUTIONS
from tests.web.conftest import bearer, screenshots, serving, sideways_scroll, watched_page


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("quest-server")
    with serving(create_app(f"sqlite:///{folder / 'web.db'}", bot_workers=0)) as url:
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return screenshots(tmp_path_factory.mktemp("shots"), "quest")


def test_a_team_reveals_a_segment_and_the_organiser_sees_it_live(browser, server, shots,
                                                                 tmp_path):
    table = tmp_path / "vodoprovod.csv"
    table.write_text(table_text(PipeLevel.parse(SEED_COMPLETION)), encoding="utf-8")
    with watched_page(browser, server) as organiser, \
            watched_page(browser, server, width=360, height=780) as team:
        organiser.goto(server + "/quest")
        organiser.locator("#level-file").set_input_files(str(table))
        # The page reads the file in the background, then fills the form from it.
        organiser.wait_for_function("document.getElementById('quest-name').value !== ''")
        assert organiser.locator("#quest-name").input_value() == "vodoprovod"
        assert organiser.locator("#level-text").input_value().startswith("y,x,type,lit\n")
        assert organiser.locator("#level-format").input_value() == "csv"
        organiser.locator("#create").click()
        link = organiser.locator("#organiser-link")
        link.wait_for()
        join_link = organiser.locator("#team-link").get_attribute("href")
        organiser.goto(link.get_attribute("href"))
        organiser.locator("body[data-live='1']").wait_for(state="attached")
        rows = organiser.locator("#sheet-rows tr")
        rows.nth(71).wait_for(state="attached")
        assert rows.count() == 72
        first_code = rows.nth(0).locator("td.code").inner_text()
        assert organiser.locator("#no-teams").is_visible()

        team.goto(join_link)
        team.locator("#team-name").fill("Совы")
        team.locator("#join-form button").click()
        team.locator("#grid svg").wait_for()
        assert team.locator("#grid .cell.hidden").count() == 72
        organiser.locator(".team-card[data-team='Совы']").wait_for()

        team.locator("#location-code").fill(first_code.lower())
        team.locator("#location-form button").click()
        team.locator("#grid .cell:not(.hidden)").wait_for()
        assert team.locator("#grid .cell.hidden").count() == 71
        assert team.locator("#grid .cell:not(.hidden) .letter").text_content() == "A"
        assert "1" in team.locator("#location-result").inner_text()
        # The organiser's page did not reload: the WebSocket brought the find.
        seen = organiser.locator(".team-card[data-team='Совы'] .cell:not(.hidden)")
        seen.wait_for()
        assert seen.get_attribute("data-row") == "1" and seen.get_attribute("data-col") == "1"
        assert "1" in organiser.locator(".team-card .stats").inner_text()

        team.locator("#location-code").fill(first_code)
        team.locator("#location-form button").click()
        team.locator("#location-result.refused").wait_for()
        assert first_code in team.locator("#location-result").inner_text()
        # The refusal is the one error the team's browser logs (a 409 answer).
        assert team.problems == ["Failed to load resource: the server responded with a "
                                 "status of 409 (Conflict)"]
        team.problems.clear()

        team.locator("#answer-code").fill(SEED_SOLUTIONS[3].split("  ")[1].lower())
        team.locator("#answer-form button").click()
        team.locator("#answer-result.ok").wait_for()
        organiser.locator(".team-card.finished").wait_for()
        assert sideways_scroll(team) == 0
        team.screenshot(path=str(shots / "team-360.png"), full_page=True)
        organiser.screenshot(path=str(shots / "organiser-1200.png"), full_page=True)


def quest_pages(client) -> dict[str, str]:
    """The quest's pages: a new quest's form, and for a quest of a 3x4 level a team's page
    with one segment found and the organiser's page (team link and key after '#')."""
    made = client.post("/api/quests", json={
        "name": "Pages test", "level": "IO LP LI LN\nLJ LI LO LC\nID LK LO IJ\n"}).json()
    quest = made["quest"]["id"]
    team = client.post(f"/api/quests/{quest}/teams",
                       json={"name": "A team with a rather long name"}).json()
    found = client.post(f"/api/quests/{quest}/locations",
                        json={"code": made["locations"][0]["code"]},
                        headers=bearer(team["token"]))
    assert found.status_code == 200, found.text
    return {"quest-new": "/quest", "quest-team": f"/quest?id={quest}#team={team['token']}",
            "quest-organiser": f"/quest/organiser?id={quest}#key={made['key']}"}
