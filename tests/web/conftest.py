"""What the browser tests share: the real app served by uvicorn in a thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from boardlab.web.app import bind, url_of


@contextmanager
def serving(app) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free port of 127.0.0.1; yields its URL
    and stops the server afterwards."""
    import uvicorn

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
