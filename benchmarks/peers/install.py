"""Install the peers of ``bench_peers.py`` into ``.bench-cache/`` (ignored by git).

Each Python peer gets its own virtual environment, since they pin websockets versions of
their own; the Node packages (mcpews and the emulated game's ``ws``) go into one npm
prefix. Versions are pinned: the figures compare named releases. An environment whose
packages already have the pinned versions is reused; anything else is rebuilt.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".bench-cache"
NODE_PREFIX = CACHE / "node"


@dataclass(frozen=True)
class PythonPeer:
    name: str  # the distribution, also the venv's folder suffix
    version: str
    # Extra pins. fcwslib 3.0.0 asks for any websockets, but its handler takes (websocket,
    # path), which websockets 14+ no longer passes; 11.0.3 is what bedrockpy 1.0.1 pins
    # (<12), so both Python peers run on the same transport.
    extra: tuple[str, ...] = ()

    @property
    def venv(self) -> Path:
        return CACHE / f"venv-{self.name}"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def requirements(self) -> list[str]:
        return [f"{self.name}=={self.version}", *self.extra]


PYTHON_PEERS = {
    "bedrockpy": PythonPeer("bedrockpy", "1.0.1"),
    "fcwslib": PythonPeer("fcwslib", "3.0.0", ("websockets==11.0.3",)),
}
NODE_PACKAGES = {"mcpews": "4.0.1", "ws": "8.23.0"}
# The optional event loop measured beside asyncio's own (mcbews_repl keeps the pure default).
UVLOOP = ("uvloop", "0.23.0")
UVLOOP_TARGET = CACHE / "uvloop"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _installed(peer: PythonPeer) -> bool:
    if not peer.python.exists():
        return False
    check = (
        "import importlib.metadata as m, sys; "
        "sys.exit(any(m.version(n) != v for n, v in "
        f"{[tuple(r.split('==')) for r in peer.requirements]!r}))"
    )
    return subprocess.run([str(peer.python), "-c", check], capture_output=True).returncode == 0


def python_peer(name: str) -> Path:
    """The interpreter of ``name``'s environment, created on first use."""
    peer = PYTHON_PEERS[name]
    if not _installed(peer):
        log(f"installing {' '.join(peer.requirements)} into {peer.venv.relative_to(ROOT)}")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(peer.venv)], check=True)
        pip = [str(peer.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, *peer.requirements], check=True)
    return peer.python


def uvloop_path() -> Path | None:
    """A folder holding uvloop for this interpreter (installed on first use), or None where
    the platform has none (no wheel, no compiler): its column is then left out."""
    name, version = UVLOOP
    marker = UVLOOP_TARGET / f"{name}-{version}.dist-info"
    if not marker.is_dir():
        log(f"installing {name}=={version} into {UVLOOP_TARGET.relative_to(ROOT)}")
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        done = subprocess.run([*pip, "--target", str(UVLOOP_TARGET), f"{name}=={version}"])
        if done.returncode != 0 or not marker.is_dir():
            log(f"{name} is not available here: measuring asyncio's own loop only")
            return None
    return UVLOOP_TARGET


def _node_version(package: str) -> str | None:
    manifest = NODE_PREFIX / "node_modules" / package / "package.json"
    try:
        version: str = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None
    return version


def node_prefix() -> Path:
    """The npm prefix holding mcpews and ws at their pinned versions."""
    if all(_node_version(p) == v for p, v in NODE_PACKAGES.items()):
        return NODE_PREFIX
    specs = [f"{p}@{v}" for p, v in NODE_PACKAGES.items()]
    log(f"installing {' '.join(specs)} into {NODE_PREFIX.relative_to(ROOT)}")
    NODE_PREFIX.mkdir(parents=True, exist_ok=True)
    npm = ["npm", "install", "--prefix", str(NODE_PREFIX), "--no-audit", "--no-fund"]
    subprocess.run([*npm, "--save-exact", *specs], check=True, stdout=subprocess.DEVNULL)
    return NODE_PREFIX


def versions() -> dict[str, str]:
    """What is installed, for the report."""
    out = {peer.name: peer.version for peer in PYTHON_PEERS.values()}
    out.update({p: _node_version(p) or "?" for p in NODE_PACKAGES})
    node = subprocess.run(["node", "--version"], capture_output=True, text=True)
    out["node"] = node.stdout.strip() or "?"
    return out
