"""The per-user folders this package writes to, on Windows, macOS and Linux.

Only the cache folder is needed (the doctor's captures go there rather than into a notebook's
folder), so it is written here by hand rather than taken from platformdirs: the base install
stays at three dependencies, and the rule is each platform's documented default:

* Windows: ``%LOCALAPPDATA%\\mcbews-repl\\Cache`` (the local, not the roaming, application
  data: a cache has no business following a user between computers);
* macOS: ``~/Library/Caches/mcbews-repl``;
* elsewhere: ``$XDG_CACHE_HOME/mcbews-repl``, else ``~/.cache/mcbews-repl`` (the XDG Base
  Directory specification; a relative ``XDG_CACHE_HOME`` is ignored, as it says).

These are the folders platformdirs' ``user_cache_dir("mcbews-repl", appauthor=False)`` gives
(tests/test_userdirs.py compares the two where platformdirs is installed).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["APP_NAME", "user_cache_dir"]

APP_NAME = "mcbews-repl"


def user_cache_dir(
    env: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None
) -> Path:
    """This user's cache folder for the package (not created here). ``env``, ``platform``
    (``sys.platform``'s values) and ``home`` default to this process's."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform == "win32":
        local = env.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(local) / APP_NAME / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / APP_NAME
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base / APP_NAME
