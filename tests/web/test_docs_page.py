"""The API's interactive reference at ``/docs`` and its schema, served without network:
every script and stylesheet of the page comes from the app itself, the schema lists
every ``/api`` route with a summary and the API's real error body, and (with chromium)
Swagger UI renders the operations from it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.web.app import SWAGGER_SCHEMA, create_app
from tests.web.conftest import screenshots, serving

# Every family of routes the reference must show.
API_PATHS = ("/api/games", "/api/games/{name}", "/api/matches", "/api/matches/{match_id}/moves",
             "/api/triplex/packs", "/api/leaderboard/{pack}/{n}", "/api/pipes/levels",
             "/api/pipes/levels/{level_id}/check")


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("docs-page")
    with TestClient(create_app(f"sqlite:///{folder / 'web.db'}", data_dir=folder)) as opened:
        yield opened


def page_urls(html: str) -> list[str]:
    """Every URL the page loads by itself: scripts, stylesheets, icons and the schema."""
    urls = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)
    urls += re.findall(r'<link[^>]*\bhref="([^"]+)"', html)
    urls += re.findall(r"""\burl:\s*['"]([^'"]+)['"]""", html)
    return urls


def test_docs_is_html_whose_every_asset_is_local_and_served(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    urls = page_urls(response.text)
    assert any(url.endswith(".js") for url in urls)
    assert any(url.endswith(".css") for url in urls)
    assert SWAGGER_SCHEMA in urls
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), f"not local: {url}"
        assert client.get(url).status_code == 200, url


def test_openapi_lists_every_api_route_with_a_summary_and_the_error_body(client):
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    paths = spec["paths"]
    for path in API_PATHS:
        assert path in paths, path
    assert all(path.startswith("/api/") for path in paths), "a page leaked into the schema"
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert operation.get("summary"), f"{method} {path} has no summary"
            assert operation.get("description"), f"{method} {path} has no description"
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")):
                    body = answer["content"]["application/json"]["schema"]
                    assert body == {"$ref": "#/components/schemas/ErrorBody"}, (path, status)
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_the_page_reads_the_same_schema_labelled_for_its_swagger_ui(client):
    exact = client.get("/openapi.json").json()
    for_page = client.get(SWAGGER_SCHEMA).json()
    assert for_page["openapi"] == "3.0.3"
    assert for_page["paths"] == exact["paths"]


def test_an_error_answer_has_the_documented_shape(client):
    response = client.get("/api/games/no-such-game")
    assert response.status_code == 404
    body = response.json()
    # the fields ErrorBody documents, and always the machine code the pages translate
    assert set(body) <= {"error", "where", "code", "params", "details"}
    assert body["code"] == "unknownGame" and body["params"] == {"game": "no-such-game"}


# --- the browser --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    with serving(create_app(data_dir=tmp_path_factory.mktemp("docs-server"))) as url:
        yield url


@pytest.fixture
def shots(tmp_path) -> Path:
    return screenshots(tmp_path, "docs")


def test_swagger_ui_renders_every_operation_offline(browser, server, shots):
    import httpx

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    elsewhere: list[str] = []
    page.on("request", lambda request: None if request.url.startswith((server, "data:"))
            else elsewhere.append(request.url))
    page.goto(f"{server}/docs")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    page.screenshot(path=str(shots / "docs.png"))
    page.close()
    operations = sum(len(ops) for ops in httpx.get(f"{server}/openapi.json").json()["paths"]
                     .values())
    # Swagger UI breaks long paths with zero-width spaces.
    shown = [path.replace("\u200b", "") for path in paths]
    assert len(shown) == operations
    for path in API_PATHS:
        assert path in shown, (path, shown)
    assert not elsewhere, elsewhere
