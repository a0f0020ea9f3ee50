"""The build step that puts the notebooks, the docs, the addon's README, the ``.ipy`` scripts,
the README and the licence into the wheel, as ``mcbews_repl/_bundled/`` (pyproject.toml names
it under ``[tool.setuptools.cmdclass]``).

Why a build step, not package data: those files belong where they are in the repository
(``notebooks/``, ``docs/``, at the top), outside the package, and setuptools takes package
data only from inside a package's folder. Copying them at build time keeps one copy in the
repository and a complete wheel. What is copied is ``CONTENTS`` of mcbews_repl/bundled.py,
the module that finds the files again at run time; MANIFEST.in puts the same files in the
sdist, so a wheel built from the sdist holds them too. An editable install copies nothing:
bundled.py finds the files in the checkout.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _bundled_module() -> ModuleType:
    """mcbews_repl/bundled.py on its own (importing the package would need its dependencies,
    which a build environment does not have)."""
    spec = importlib.util.spec_from_file_location(
        "_mcbews_bundled", HERE / "mcbews_repl" / "bundled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):  # type: ignore[misc]
    """setuptools' build_py, then the bundled files copied into the built package."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            self._bundled_outputs = self.copy_bundle()

    def copy_bundle(self) -> list[str]:
        bundled = _bundled_module()
        target = Path(self.build_lib) / "mcbews_repl" / bundled.BUNDLE_DIR
        shutil.rmtree(target, ignore_errors=True)  # nothing left from an earlier build
        written = []
        for relative in bundled.files(HERE):
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / relative, destination)
            written.append(str(destination))
        if not (target / bundled.GETTING_STARTED).is_file():
            raise FileNotFoundError(f"{bundled.GETTING_STARTED} is missing from {HERE}")
        return written

    def get_outputs(self, *args: Any, **kwargs: Any) -> list[str]:
        outputs: list[str] = super().get_outputs(*args, **kwargs)
        return outputs + getattr(self, "_bundled_outputs", [])
