"""The Triplex browser game: one self-contained HTML file (see :mod:`.export`)."""

from boardlab.web.triplex.export import export_html, render_html

__all__ = ["export_html", "render_html"]
