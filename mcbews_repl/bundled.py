"""The files the package sends its users to: the notebooks, the docs, the addon's README, the
``.ipy`` scripts, the README and the licence.

They live in the repository (``notebooks/``, ``docs/`` ...). A wheel carries copies of them in
``mcbews_repl/_bundled/``, laid out as in the repository so that their relative links (a
notebook's ``../docs/capabilities.md``) keep working; ``build_hooks.py`` copies them there at
build time. :func:`root` finds them either way: in the installed package, or in the checkout
of an editable install (which has no copies).

Standard library only, and no import of the rest of the package: the build hook loads this
file on its own, before anything is installed.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BUNDLE_DIR",
    "CONTENTS",
    "GETTING_STARTED",
    "PAGES",
    "files",
    "page",
    "page_names",
    "path",
    "root",
]

# The folder inside the package that a wheel carries them in.
BUNDLE_DIR = "_bundled"
# What is bundled, in the repository's layout: single files, and folders with the kinds of
# file taken from each (nothing else: no checkpoints, no caches).
CONTENTS: dict[str, tuple[str, ...]] = {
    "README.md": (),
    "LICENSE": (),
    "addon/README.md": (),
    "docs": ("*.md", "images/*.png"),
    "notebooks": ("*.ipynb",),
    "magics": ("*.ipy",),
}
GETTING_STARTED = "notebooks/01_getting_started.ipynb"
# ``mcbews-repl docs NAME`` for the files that are not a page of docs/.
PAGES = {"readme": "README.md", "license": "LICENSE", "addon": "addon/README.md"}

_PACKAGE = Path(__file__).resolve().parent


def root() -> Path:
    """The folder that holds them: ``mcbews_repl/_bundled`` in an installed wheel, the
    repository in a checkout.

    Raises:
        FileNotFoundError: neither has them (a wheel built without the build hook).
    """
    bundle = _PACKAGE / BUNDLE_DIR
    if (bundle / GETTING_STARTED).is_file():
        return bundle
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / GETTING_STARTED).is_file():
        return checkout
    raise FileNotFoundError(
        f"the notebooks and docs are missing from {bundle} (this installation was built "
        "without them): reinstall the package from its wheel or its repository"
    )


def files(base: Path | None = None) -> list[str]:
    """Every bundled file under ``base`` (default :func:`root`), as relative POSIX paths."""
    base = root() if base is None else base
    found: list[str] = []
    for name, patterns in CONTENTS.items():
        if not patterns:
            found += [name] if (base / name).is_file() else []
            continue
        for pattern in patterns:
            found += [p.relative_to(base).as_posix() for p in (base / name).glob(pattern)]
    return sorted(found)


def path(relative: str) -> Path:
    """The bundled file ``relative`` ("addon/README.md").

    Raises:
        FileNotFoundError: no such bundled file.
    """
    found = root() / relative
    if not found.is_file():
        raise FileNotFoundError(f"{relative} is not among the bundled files ({root()})")
    return found


def page(name: str) -> Path:
    """A page by its short name: a docs page ("windows", "repl"), or readme, license, addon;
    a bundled file's relative path works too.

    Raises:
        LookupError: no page of that name (the message lists them).
    """
    key = name.lower().removesuffix(".md")
    docs = {Path(f).stem.lower(): f for f in files() if f.startswith("docs/") and f.endswith(".md")}
    relative = PAGES.get(key) or docs.get(key)
    if relative is None and name.replace("\\", "/") in files():
        relative = name.replace("\\", "/")
    if relative is None:
        raise LookupError(f"no page {name!r}; the pages: {', '.join(page_names())}")
    return path(relative)


def page_names() -> list[str]:
    """The short names :func:`page` takes: the docs pages, then readme, license, addon."""
    docs = [Path(f).stem for f in files() if f.startswith("docs/") and f.endswith(".md")]
    return [*docs, *PAGES]
