"""Sphinx configuration of boardlab's documentation site (see docs/README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The checkout's own sources win over any installed copy, so the site documents this tree.
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE / "_ext"))

import boardlab  # noqa: E402

# Import every table definition before autodoc looks at any: inspecting SQLAlchemy's
# declarative base can leave it unable to map a table class declared afterwards.
import boardlab.web.app  # noqa: E402, F401

project = "boardlab"
author = "the boardlab authors"
copyright = "boardlab authors, MIT licence"
release = version = boardlab.__version__
language = "en"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinxcontrib.typer",
    "boardlab_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots", "zrf-notes"]

# Every cross-reference must resolve (-n). References to other projects' objects cannot
# be checked offline (no intersphinx inventories), so only those are let through.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|numba|sqlalchemy|fastapi|starlette|pydantic|typer|click|rich|"
               r"matplotlib|ray|uvicorn|alembic|httpx|concurrent|multiprocessing|random|"
               r"socket|pathlib|fractions|collections|enum|json|re|types|os|io|typing|"
               r"threading|datetime|dataclasses|abc|argparse|hashlib|logging|contextlib|"
               r"functools|itertools|sqlite3|subprocess|asyncio|_thread)\..*"),
    # Default values and generics as autodoc prints them in signatures (FastAPI's
    # Query() and Body(), pydantic's "no default"), not names of documented objects.
    (r"py:class", r"Query|Body|PydanticUndefined|dict\[.*"),
    # The type alias of a game's points (tuple[Fraction, ...]), as some signatures name it.
    (r"py:class", r"Returns"),
]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True,
                           "ignore-module-all": True}
autodoc_typehints = "signature"
autoclass_content = "class"

html_theme = "furo"
html_title = f"boardlab {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
