"""The two shipped packs: where each one's folder and simulator bundle are in the installed
package, and its ``.mcaddon`` (the package's docstring says what each pack is)."""

from __future__ import annotations

import os
import pathlib
import zipfile
from importlib import resources
from typing import Final, Literal, NamedTuple

from ..exceptions import PackError

__all__ = [
    "DEFAULT_PACK",
    "PACKS",
    "PackName",
    "PackSpec",
    "bundle_path",
    "export_mcaddon",
    "sim_bundle_path",
]

PackName = Literal["stable", "beta"]


class PackSpec(NamedTuple):
    """Where one pack lives: its folder in a ``.mcaddon`` and the file name to export to."""

    folder: str
    mcaddon: str


# The names addon/scripts/pack.mjs gives them (a test checks the two agree).
PACKS: Final[dict[PackName, PackSpec]] = {
    "stable": PackSpec("mcbews_bridge_bp", "mcbews_bridge.mcaddon"),
    "beta": PackSpec("mcbews_bridge_beta_bp", "mcbews_bridge_beta.mcaddon"),
}
DEFAULT_PACK: Final[PackName] = "stable"
# Zip entries carry a fixed time so the same pack always gives the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _here() -> pathlib.Path:
    return pathlib.Path(str(resources.files(__package__ or __name__)))


def _check(pack: str) -> PackName:
    if pack not in PACKS:
        raise ValueError(f"pack must be one of {', '.join(PACKS)}, not {pack!r}")
    return pack


def bundle_path(pack: PackName = DEFAULT_PACK) -> pathlib.Path:
    """A pack's folder (``manifest.json``, ``pack_icon.png``, ``scripts/main.js``).

    Raises:
        ValueError: ``pack`` is not ``"stable"`` or ``"beta"``.
    """
    return _here() / _check(pack)


def sim_bundle_path(pack: PackName = DEFAULT_PACK) -> pathlib.Path:
    """A pack's simulator bundle: an ES module with no imports, for QuickJS.

    Raises:
        ValueError: ``pack`` is not ``"stable"`` or ``"beta"``.
    """
    return _here() / f"sim_{_check(pack)}.js"


def _held_open(path: pathlib.Path, exc: OSError) -> PackError:
    """The error for a file or folder of a pack that could not be replaced: on Windows,
    most often because Minecraft holds it open (a world using the pack is loaded, or the
    game is importing the ``.mcaddon``)."""
    why = exc.strerror or str(exc)
    return PackError(
        f"cannot replace {path}: {why}. Minecraft may hold the pack's files open: close the "
        "world that uses it (or the game) and try again; otherwise check that you may write "
        f"to {path.parent}"
    )


def _replace_file(written: pathlib.Path, target: pathlib.Path) -> None:
    """Put ``written`` (a finished temporary file) in place of ``target`` at once.

    Raises:
        PackError: ``target`` cannot be replaced (held open, or not writable).
    """
    try:
        os.replace(written, target)
    except PermissionError as exc:
        written.unlink(missing_ok=True)
        raise _held_open(target, exc) from exc


def _pack_files(pack: PackName) -> list[tuple[str, bytes]]:
    root = bundle_path(pack)
    if not (root / "manifest.json").is_file():
        raise FileNotFoundError(f"the built {pack} pack is missing from {root}")
    files = [p for p in root.rglob("*") if p.is_file()]
    return sorted((p.relative_to(root).as_posix(), p.read_bytes()) for p in files)


def export_mcaddon(
    path: str | os.PathLike[str] | None = None, pack: PackName = DEFAULT_PACK
) -> pathlib.Path:
    """Write a pack's ``.mcaddon`` (a zip with the pack under one folder); return its path.

    ``path`` defaults to the pack's file name (``mcbews_bridge.mcaddon`` for the stable pack,
    ``mcbews_bridge_beta.mcaddon`` for the beta one) in the current directory; an existing
    directory means "write it into that directory". Parent folders are created.

    Raises:
        ValueError: ``pack`` is not ``"stable"`` or ``"beta"``.
        FileNotFoundError: the built pack is missing from the installed package.
        PackError: the target cannot be replaced (on Windows, most often because
            Minecraft holds the pack open; the message says what to close).
    """
    spec = PACKS[_check(pack)]
    target = pathlib.Path.cwd() / spec.mcaddon if path is None else pathlib.Path(path)
    if target.is_dir():
        target = target / spec.mcaddon
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in _pack_files(pack):
            info = zipfile.ZipInfo(f"{spec.folder}/{name}", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    _replace_file(tmp, target)
    return target
