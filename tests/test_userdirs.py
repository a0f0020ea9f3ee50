"""The per-user cache folder on each platform, checked against platformdirs (which the
package does not depend on; the lab extra brings it with Jupyter) where it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbews_repl.userdirs import user_cache_dir

HOME = Path("/home/ana")


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("win32", {"LOCALAPPDATA": "/Users/ana/AppData/Local"},
         Path("/Users/ana/AppData/Local/mcbews-repl/Cache")),
        ("win32", {}, HOME / "AppData" / "Local" / "mcbews-repl" / "Cache"),
        ("darwin", {}, HOME / "Library" / "Caches" / "mcbews-repl"),
        ("linux", {}, HOME / ".cache" / "mcbews-repl"),
        ("linux", {"XDG_CACHE_HOME": "/var/cache/ana"}, Path("/var/cache/ana/mcbews-repl")),
        ("linux", {"XDG_CACHE_HOME": "relative"}, HOME / ".cache" / "mcbews-repl"),
    ],
)  # fmt: skip
def test_each_platforms_cache_folder(platform: str, env: dict[str, str], expected: Path) -> None:
    assert user_cache_dir(env, platform, HOME) == expected


def test_the_same_folders_as_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("platformdirs")
    from platformdirs.macos import MacOS
    from platformdirs.unix import Unix
    from platformdirs.windows import Windows

    monkeypatch.setenv("HOME", str(HOME))
    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/ana")
    local = "C:\\Users\\ana\\AppData\\Local"  # platformdirs takes only a Windows path here
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", local)
    theirs = {
        "linux": Unix("mcbews-repl", appauthor=False).user_cache_dir,
        "win32": Windows("mcbews-repl", appauthor=False).user_cache_dir,
    }
    env = {"XDG_CACHE_HOME": "/var/cache/ana", "LOCALAPPDATA": local}
    ours = {platform: str(user_cache_dir(env, platform, HOME)) for platform in theirs}
    assert ours == theirs
    # On macOS, recent platformdirs follow XDG_CACHE_HOME when it is set; ours keeps to
    # Apple's Library/Caches, which is what they give without it.
    monkeypatch.delenv("XDG_CACHE_HOME")
    mac = MacOS("mcbews-repl", appauthor=False).user_cache_dir
    assert str(user_cache_dir({}, "darwin", HOME)) == mac
