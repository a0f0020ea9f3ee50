"""Open a bridge on a runtime thread: for the IPython extension and for plain scripts.

``mcbews_repl.start()`` gives a script the same ``mc`` handle a notebook has, on its own
runtime thread, so every call works with ``.result()`` (no event loop needed) and with
``await`` inside ``asyncio.run``::

    with mcbews_repl.start(port=0) as mc:
        mc.simulate().result()
        print(mc.player("Steve").result())
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...exceptions import AddressInUse
from ...gateway import Bridge, EncryptPolicy, serve
from ..runtime import Runtime
from ._minecraft import Minecraft

__all__ = ["listen", "start"]


def listen(
    runtime: Runtime,
    bridge: Bridge,
    *,
    fallback: bool,
    announce: Callable[[str], object] = print,
) -> Bridge:
    """Start ``bridge`` (made by ``serve()``, which checked its arguments) on the runtime
    thread. A busy port raises :class:`AddressInUse`, or with ``fallback`` says so and
    takes a free port instead (same token and settings)."""
    try:
        return runtime.run(bridge.start())
    except AddressInUse:
        if not fallback or bridge.port == 0:
            raise
    announce(
        f"Port {bridge.port} is busy (another bridge or notebook?); using a free port instead."
    )
    spare = serve(bridge.host, 0, bridge.token, settings=bridge.settings)
    return runtime.run(spare.start())


def start(
    host: str = "127.0.0.1",
    port: int = 19131,
    token: str | None = "auto",
    *,
    encrypt: EncryptPolicy = "auto",
    **options: Any,
) -> Minecraft:
    """A bridge on its own thread for plain scripts: the same ``mc`` a notebook has.

    Arguments are those of :func:`mcbews_repl.serve`. Every call returns a Pending:
    ``.result()`` waits for it, ``await`` works inside ``asyncio.run``. Use it as a context
    manager (``with mcbews_repl.start(port=0) as mc:``) or call ``mc.close()``, which stops
    the bridge and the thread. A busy port raises :class:`~mcbews_repl.AddressInUse` saying
    what to do; ``port=0`` picks a free port. DataFrames and cards need the ``repl`` extra.
    """
    bridge = serve(host, port, token, encrypt=encrypt, **options)  # bad arguments stop here
    runtime = Runtime(name="mcbews-script")
    runtime.start()
    try:
        bridge = listen(runtime, bridge, fallback=False)
    except BaseException:
        runtime.stop()
        raise
    return Minecraft(runtime, bridge, None, None, owns_runtime=True)
