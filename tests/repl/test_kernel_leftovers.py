"""What a session leaves behind, read from a real kernel and the disk afterwards: the
simulated world's development folder (made by the first ``%mc addon deploy``) is gone once
the world closes, on ``mc.close()``, on ``%unload_ext`` and when the kernel is shut down
(a front end's shutdown request); the doctor's capture goes to the user's cache folder,
never into the notebook's folder, and the card says where."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .kernel import Kernel

pytestmark = pytest.mark.slow  # real kernels

GREET = (
    'mc.addon.define(\'greet\', \'export default { name: "greet", description: "", '
    "params: {}, run() { return { ok: true, result: 1 }; } };')"
)
DEPLOYED = re.compile(r"to (\S*mcbews-sim-packs-\S*)/mcbews_bridge_bp")


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """The kernel's temporary folder (TMPDIR), empty at the start."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


@pytest.fixture
def kernel(scratch: Path, tmp_path: Path) -> Iterator[Kernel]:
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "MCBEWS_PORT": "0", "HOME": str(home),
           "XDG_CACHE_HOME": str(home / ".cache")}  # fmt: skip
    k = Kernel(env)
    try:
        yield k
    finally:
        k.close()


def deploy(kernel: Kernel, scratch: Path) -> Path:
    """Start the world, define a prototype and deploy it; the folder it went to."""
    assert "1 game connected" in kernel.text("%mc sim"), "no simulated world"
    assert "greet is registered" in kernel.text(GREET)
    said = kernel.text("%mc addon deploy")
    found = DEPLOYED.search(said)
    assert found, said
    folder = Path(found.group(1))
    assert folder.parent == scratch and (folder / "mcbews_bridge_bp").is_dir()
    return folder


def leftovers(scratch: Path) -> list[str]:
    return sorted(p.name for p in scratch.glob("mcbews-sim-packs-*"))


@pytest.fixture
def loaded(kernel: Kernel, tmp_path: Path) -> Kernel:
    (tmp_path / "notebooks").mkdir(exist_ok=True)
    kernel.text(f"import os; os.chdir({str(tmp_path / 'notebooks')!r})")
    assert "/connect" in kernel.text("%load_ext mcbews_repl")
    return kernel


def test_a_new_world_and_mc_close_remove_the_folder(loaded: Kernel, scratch: Path) -> None:
    first = deploy(loaded, scratch)
    second = deploy(loaded, scratch)  # %mc sim again: the old world closed
    assert not first.exists() and leftovers(scratch) == [second.name]
    loaded.text("mc.close()")
    assert leftovers(scratch) == []


def test_unload_ext_removes_the_folder(loaded: Kernel, scratch: Path) -> None:
    deploy(loaded, scratch)
    loaded.text("%unload_ext mcbews_repl")
    assert leftovers(scratch) == []


def test_a_kernel_shut_down_with_the_world_running_leaves_nothing(
    loaded: Kernel, scratch: Path
) -> None:
    deploy(loaded, scratch)
    loaded.shutdown()
    assert leftovers(scratch) == []


def test_the_doctors_capture_goes_to_the_cache_folder_and_the_card_says_where(
    loaded: Kernel, tmp_path: Path
) -> None:
    assert "1 game connected" in loaded.text("%mc sim")
    card = loaded.text("%mc doctor")
    cache = tmp_path / "home" / ".cache" / "mcbews-repl" / "doctor"
    captures = sorted(cache.glob("mcbews-doctor-*.jsonl"))
    assert len(captures) == 1, card
    assert f"saved to {captures[0]} (redacted)" in card
    assert list((tmp_path / "notebooks").iterdir()) == []  # nothing in the notebook's folder
