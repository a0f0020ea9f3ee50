"""Temporary folders a session makes for itself, removed when done and at the latest when
Python exits.

The simulated world's development behavior packs folder (made by the first ``%mc addon
deploy``) is one: its world removes it when it closes (``%mc sim`` again, ``mc.close()``,
``%unload_ext``); a kernel shut down with the world still running removes it on the way
out, through :mod:`atexit` (a kernel that is killed runs no Python, and leaves it in the
system's temporary folder, ``tempfile.gettempdir()``).
"""

from __future__ import annotations

import atexit
import logging
import shutil
import tempfile
import threading
from pathlib import Path

__all__ = ["make_scratch", "remove_scratch"]

log = logging.getLogger("mcbews_repl.repl")
_MADE: set[Path] = set()
_LOCK = threading.Lock()
_REGISTERED = False


def make_scratch(prefix: str) -> Path:
    """A new empty folder in the system's temporary folder, named ``prefix`` and a few
    random characters; removed by :func:`remove_scratch`, or when Python exits."""
    global _REGISTERED
    path = Path(tempfile.mkdtemp(prefix=prefix))
    with _LOCK:
        _MADE.add(path)
        if not _REGISTERED:
            atexit.register(_remove_all)
            _REGISTERED = True
    return path


def remove_scratch(path: Path) -> None:
    """Remove a folder :func:`make_scratch` made, with everything in it (a file held open
    elsewhere, on Windows, is left and logged)."""
    with _LOCK:
        _MADE.discard(path)
    shutil.rmtree(path, ignore_errors=True)
    if path.exists():
        log.warning("could not remove all of %s (a file in it is open?)", path)


def _remove_all() -> None:
    with _LOCK:
        left = list(_MADE)
    for path in left:
        remove_scratch(path)
