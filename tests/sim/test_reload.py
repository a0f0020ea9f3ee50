"""The simulated world loads the script pack of its development folder and honours /reload:
a prototype defined live, the pack written to the folder, /reload over the WebSocket, and the
same capability answers from the pack, the world as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.addon.extend import write_pack_folder
from mcbews_repl.sim import SimWorld

from ..corpus import LANG
from .test_prototypes import GREET


async def test_define_call_deploy_reload_call_again(tmp_path: Path) -> None:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, behavior_packs=tmp_path) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        assert sim.host is not None
        sim.host.define_prototype("greet", GREET)
        assert (await mc.call("greet", who="Steve"))["text"] == "hello Steve"
        sim.run_command("tag Alex add before_reload")
        write_pack_folder(tmp_path, {"greet": GREET.replace("hello ${", "hi ${")})
        reloaded = await mc.command("reload")
        assert reloaded.status_message == LANG["commands.reload.success"]
        assert (await mc.call("greet", who="Steve"))["text"] == "hi Steve"  # from the pack
        assert "before_reload" in sim.world.players["Alex"].tags
        assert sim.host.prototype_names() == ["greet"]
        assert sim.script_errors == []


async def test_reload_drops_live_prototypes_and_keeps_dynamic_properties(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    assert sim.host is not None
    sim.host.define_prototype("greet", GREET)
    sim.api.dynamic_properties["kept"] = 7
    assert (await mc.command("reload all")).status_code == 0
    with pytest.raises(CapabilityError) as gone:
        await mc.call("greet", who="Steve")
    assert gone.value.code == "UNSUPPORTED_CAPABILITY"
    assert sim.api.dynamic_properties["kept"] == 7
    assert (await mc.call("list_capabilities"))["capabilities"]  # the bundled addon again


async def test_a_broken_pack_in_the_folder_fails_the_reload_with_its_problem(
    tmp_path: Path,
) -> None:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, behavior_packs=tmp_path) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        pack = write_pack_folder(tmp_path, {"greet": GREET})
        (pack / "scripts" / "prototypes" / "greet.js").unlink()
        failed = await mc.command("reload")
        assert failed.status_code != 0
        assert "scripts/prototypes/greet.js is imported but is not in the pack" in (
            failed.status_message
        )
