"""Running the app in a background thread on a free port (tests, screenshots, benchmarks)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager


@contextmanager
def running(host: str = "127.0.0.1", port: int = 0):
    """Serve `create_app()` while the block runs; yields the base URL (`http://host:port`)."""
    import uvicorn

    from engine.web.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(), host=host, port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.01)
    if not server.started:
        raise RuntimeError("the server did not start")
    bound = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(5)
