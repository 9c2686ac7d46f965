"""The web app (``boardlab serve``): a FastAPI application over the public game API.

:mod:`boardlab.web.app` builds it (:func:`~boardlab.web.app.create_app`) and runs it
(:func:`~boardlab.web.app.serve`); the JSON API lives in :mod:`~boardlab.web.api_games`
and :mod:`~boardlab.web.api_matches`, the match logic in :mod:`~boardlab.web.matches`,
the JSON shapes in :mod:`~boardlab.web.views`; ``static/`` holds the pages.
"""
