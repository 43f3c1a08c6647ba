"""`rulecraft serve`: play in the browser (a local Starlette app run by uvicorn)."""

from __future__ import annotations

import threading
import webbrowser

import typer

from engine.cli.app import app

MISSING = "error: `rulecraft serve` needs the `web` extra: pip install 'rulecraft[web]'"


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port (0: any free one)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
) -> None:
    """Serve the game page on HOST:PORT and open it in the browser."""
    try:
        import uvicorn

        from engine.web.app import create_app
    except ImportError:
        typer.echo(MISSING, err=True)
        raise typer.Exit(2)
    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    # The address is printed once uvicorn listens: only then is the port of --port 0 known.
    stopped = threading.Event()  # the announcer must not print once the server has given up
    threading.Thread(target=_announce_when_up, args=(server, host, not no_browser, stopped),
                     daemon=True).start()
    try:
        server.run()
    except SystemExit as exc:  # uvicorn exits (3) when it cannot listen, after logging why
        stopped.set()
        if exc.code in (0, None):
            raise
        typer.echo(f"error: cannot listen on {host}:{port}; choose another --port (0: any free one)",
                   err=True)
        raise typer.Exit(1)


def _shown(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else host


def _announce_when_up(server, host: str, open_browser: bool, stopped) -> None:
    """Print the page's address once uvicorn listens (its real port, even for --port 0), and open it."""
    for _ in range(200):
        if server.started or stopped.wait(0.05):
            break
    if not server.started:
        return  # it never listened (the caller says why) or took over 10 s: say nothing
    sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
    port = sockets[0].getsockname()[1] if sockets else server.config.port
    url = f"http://{_shown(host)}:{port}/"
    typer.echo(f"serving on {url} (Ctrl-C stops)")
    if open_browser:
        webbrowser.open(url)
