"""Each built pack says which it is and its version in list_capabilities, from the same
number its manifest carries (the doctor shows it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl.sim import SimWorld

PACKAGE = Path(__file__).resolve().parents[2] / "mcbews_repl" / "addon"


@pytest.mark.parametrize("pack", ["stable", "beta"])
async def test_a_pack_reports_its_manifest_version(pack: str) -> None:
    manifest = json.loads((PACKAGE / pack / "manifest.json").read_text(encoding="utf-8"))
    version = ".".join(str(n) for n in manifest["header"]["version"])
    for script in (PACKAGE / pack / "scripts" / "main.js", PACKAGE / f"sim_{pack}.js"):
        assert f'"{version}"' in script.read_text(encoding="utf-8"), script.name
    async with (
        mcbews_repl.serve(port=0) as mc,
        SimWorld(fast=True, pack=pack, beta_apis=pack == "beta") as sim,  # type: ignore[arg-type]
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        answer = await mc.call("list_capabilities")
    assert answer["addon"] == {"version": version, "pack": pack}
