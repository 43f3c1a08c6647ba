"""`rulecraft serve`: a local web page to play any ruleset on its SVG board.

Starlette (with uvicorn) serves one page and a small JSON API; the game logic stays in
the kernel and `engine.web.games`. Needs the `web` extra (`pip install 'rulecraft[web]'`).
"""
