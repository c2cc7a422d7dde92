"""``copsolver web``: a local page to play every game against the bots (docs/web.md).

The page (``static/``) speaks the seat protocol (``bots.protocol``, docs/protocol.md) over one
WebSocket; :mod:`bots.web.server` carries it. That module needs the ``web`` extra (Starlette and
uvicorn, ``pip install ".[web]"``); this package itself imports neither, so the rest of copsolver
runs without them.
"""

from __future__ import annotations

#: What to install when the server's libraries are missing.
INSTALL_HINT = 'pip install ".[web]"'
