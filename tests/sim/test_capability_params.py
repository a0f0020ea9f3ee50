"""The addon checks capability parameters and names entities, end to end in the simulated world.

The gateway calls the real addon bundle (QuickJS) over a real socket: a key the capability
does not declare, or a value of the wrong type, is refused with INVALID_REQUEST instead of
being ignored; ``describe_entities`` names the ids that ``querytarget`` reports.
"""

from __future__ import annotations

import json

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.sim import SimWorld


async def test_an_unknown_parameter_is_refused_not_ignored(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, _ = linked
    with pytest.raises(CapabilityError) as refused:
        await mc.call("get_inventory_snapshot", player=123)
    assert refused.value.code == "INVALID_REQUEST"
    assert 'unknown parameter "player"' in refused.value.message
    assert "accepted: target" in refused.value.message


async def test_a_wrong_type_is_refused_with_the_accepted_parameters(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, _ = linked
    with pytest.raises(CapabilityError) as refused:
        await mc.call("get_inventory_snapshot", target=123)
    assert refused.value.code == "INVALID_REQUEST"
    assert 'parameter "target" of get_inventory_snapshot must be a string, not an integer' in (
        refused.value.message
    )
    fine = await mc.call("get_inventory_snapshot", target="Steve")
    assert [p["name"] for p in fine["players"]] == ["Steve"]


async def test_describe_entities_names_what_querytarget_found(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    found = json.loads((await mc.command("querytarget @e"))["details"])
    ids = [row["uniqueId"] for row in found]
    answer = await mc.call("describe_entities", ids=[*ids, "-1"])
    named = {e["id"]: (e["typeId"], e["nameTag"]) for e in answer["entities"]}
    expected = {e.id: (e.type_id, e.name if e.is_player else e.name_tag)
                for e in sim.world.all_entities() if e.id in ids}  # fmt: skip
    assert {k: v for k, v in named.items() if k in ids} == expected
    assert ("minecraft:villager_v2", "Bob") in named.values()
    assert named["-1"] == (None, None)
