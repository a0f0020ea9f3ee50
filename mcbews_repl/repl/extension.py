"""``%load_ext mcbews_repl``: start the bridge thread, add ``mc`` and ``%mc``; and undo it all.

Loading and unloading are symmetric: everything :meth:`Extension.load` adds to the shell
(magics, completer, display formatters, the exception handler, the ``mc`` variable, the
configurable) :meth:`Extension.unload` removes, then it stops the server and joins the thread.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from ..exceptions import McbewsError
from ..gateway import Bridge, serve
from . import display as views
from .config import McbewsRepl
from .handle import Minecraft
from .runtime import Pending, Runtime

__all__ = ["Extension", "active", "load", "unload"]

# Seconds allowed for the server to close its connections when the extension unloads.
CLOSE_TIMEOUT_SECONDS = 5.0

_ACTIVE: dict[int, Extension] = {}


class Extension:
    """Everything one shell got from the extension, so unloading can take it all back."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.config = McbewsRepl(parent=shell)
        self.runtime = Runtime()
        self.mc: Minecraft | None = None
        self._formatted: list[tuple[str, type]] = []
        self.encrypt: bool | str | None = None  # a %mc serve --encrypt choice, else config

    # --- the bridge -----------------------------------------------------------------------

    def start_bridge(
        self, host: str | None = None, port: int | None = None, token: str | bool | None = True
    ) -> Minecraft:
        """(Re)start the server on the runtime thread and point ``mc`` at it."""
        self.runtime.start()
        cfg = self.config
        chosen_token = cfg.token_value if token is True else (None if token is False else token)
        host = host or cfg.host
        port = cfg.port if port is None else port
        try:
            bridge = self.runtime.run(self._open(host, port, chosen_token))
        except OSError as exc:
            if port == 0:
                raise
            print(f"Port {port} is busy ({exc.strerror}); using a free port instead.")
            bridge = self.runtime.run(self._open(host, 0, chosen_token))
        self.mc = Minecraft(self.runtime, bridge, _kernel_loop(), cfg.call_timeout)
        self.shell.push({"mc": self.mc}, interactive=True)
        return self.mc

    async def _open(self, host: str, port: int, token: str | None) -> Bridge:
        cfg = self.config
        bridge = serve(
            host,
            port,
            token,
            command_timeout=cfg.command_timeout,
            call_timeout=cfg.call_timeout,
            text_prelude=cfg.text_prelude,
            text_interval=cfg.text_interval,
            encrypt=self.encrypt if self.encrypt is not None else cfg.encrypt_value,
            max_connections=cfg.max_connections,
        )
        return await bridge.start()

    def stop_bridge(self) -> None:
        mc, self.mc = self.mc, None
        if mc is None or not self.runtime.running:
            return
        mc.off_ui_chat()
        try:
            self.runtime.run(_close(mc), CLOSE_TIMEOUT_SECONDS)
        except TimeoutError:
            print("The bridge took too long to close; its thread will be stopped anyway.")

    # --- load / unload --------------------------------------------------------------------

    def load(self) -> None:
        from .magics import McMagics, complete

        self.shell.configurables.append(self.config)
        self.shell.register_magics(McMagics(self.shell, self))
        self.shell.set_hook("complete_command", complete, str_key="%mc")
        self._register_formatters()
        self.shell.set_custom_exc((McbewsError,), _short_error)
        mc = self.start_bridge()
        views.show_welcome(mc)

    def unload(self) -> None:
        self.stop_bridge()
        self.runtime.stop()
        magics = self.shell.magics_manager.magics
        magics["line"].pop("mc", None)
        magics["cell"].pop("mc", None)
        self.shell.magics_manager.registry.pop("McMagics", None)
        dispatch = self.shell.strdispatchers.get("complete_command", _NoStrs())
        dispatch.strs.pop("%mc", None)
        for mime, kind in self._formatted:
            self.shell.display_formatter.formatters[mime].pop(kind, None)
        self.shell.display_formatter.ipython_display_formatter.pop(Pending, None)
        self.shell.set_custom_exc((), None)
        if isinstance(self.shell.user_ns.get("mc"), Minecraft):
            del self.shell.user_ns["mc"]
        if self.config in self.shell.configurables:
            self.shell.configurables.remove(self.config)

    def _register_formatters(self) -> None:
        formatters = self.shell.display_formatter.formatters
        for kind, html_fn, text_fn in views.RENDERERS:
            formatters["text/html"].for_type(kind, html_fn)
            formatters["text/plain"].for_type(kind, text_fn)
            self._formatted += [("text/html", kind), ("text/plain", kind)]
        self.shell.display_formatter.ipython_display_formatter.for_type(
            Pending, views.display_pending
        )


class _NoStrs:
    def __init__(self) -> None:
        self.strs: dict[str, Any] = {}


async def _close(mc: Minecraft) -> None:
    if mc.sim is not None:
        await mc.sim.close()
    await mc.bridge.close()


def _kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's own loop when running under ipykernel (callbacks go there)."""
    if "ipykernel" not in sys.modules:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _short_error(
    shell: Any,
    etype: type[BaseException],
    value: BaseException,
    tb: Any,
    tb_offset: int | None = None,
) -> list[str]:
    """Our own errors are messages for the user, not tracebacks."""
    return [views.error_text(value)]


def load(shell: Any) -> None:
    if id(shell) in _ACTIVE:
        print("mcbews_repl is already loaded; use %reload_ext mcbews_repl to restart it.")
        return
    ext = Extension(shell)
    _ACTIVE[id(shell)] = ext
    try:
        ext.load()
    except BaseException:
        _ACTIVE.pop(id(shell), None)
        ext.unload()
        raise


def unload(shell: Any) -> None:
    ext = _ACTIVE.pop(id(shell), None)
    if ext is not None:
        ext.unload()


def active(shell: Any) -> Extension | None:
    return _ACTIVE.get(id(shell))
