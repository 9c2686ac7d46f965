"""The Triplex browser game: one self-contained HTML file (see :mod:`.export`)."""

from boardlab.web.triplex.export import content_security_policy, export_html, render_html

__all__ = ["content_security_policy", "export_html", "render_html"]
