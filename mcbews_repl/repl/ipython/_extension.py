"""``%load_ext mcbews_repl``: start the bridge thread, add ``mc`` and ``%mc``; and undo it all.

Loading and unloading are symmetric: everything :meth:`Extension.load` adds to the shell
(magics, completer, display formatters, the exception handler, the ``mc`` variable, the
configurable) :meth:`Extension.unload` removes, then it stops the server and joins the thread.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from ...exceptions import CallInterrupted, McbewsError
from ...gateway import Bridge, serve
from ..handle import Minecraft, listen
from ..runtime import Pending, Runtime
from ._config import McbewsRepl
from ._formatters import BY_NAME, RENDERERS, display_pending, show_error, show_welcome

__all__ = ["Extension", "active", "load", "unload"]

_ACTIVE: dict[int, Extension] = {}


class Extension:
    """Everything one shell got from the extension, so unloading can take it all back."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.config = McbewsRepl(parent=shell)
        self.runtime = Runtime()
        self.mc: Minecraft | None = None
        self._formatted: list[tuple[str, type | str]] = []
        # The shell's exception handler before ours, put back on unload.
        self._previous_exc: tuple[tuple[type[BaseException], ...], Any] | None = None
        self.encrypt: bool | str | None = None  # a %mc serve --encrypt choice, else config
        self._matcher: Any = None  # the %mc Tab completer, removed on unload

    # --- the bridge -----------------------------------------------------------------------

    def start_bridge(
        self,
        host: str | None = None,
        port: int | None = None,
        token: str | bool | None = True,
        encrypt: bool | str | None = None,
    ) -> Minecraft:
        """Start a server on the runtime thread and point ``mc`` at it.

        Raises ``ValueError`` (bad arguments) or ``OSError`` (cannot listen) with nothing
        changed; the caller stops any previous bridge (see :meth:`restart_bridge`).
        """
        return self._listen(*self._prepare(host, port, token, encrypt))

    def _prepare(
        self,
        host: str | None,
        port: int | None,
        token: str | bool | None,
        encrypt: bool | str | None,
    ) -> tuple[Bridge, bool, bool | str | None]:
        """A bridge made from the arguments and the settings, checked but not listening."""
        cfg = self.config
        chosen_token = cfg.token_value if token is True else (None if token is False else token)
        policy = encrypt if encrypt is not None else self.encrypt
        bridge = serve(
            host or cfg.host,
            cfg.port if port is None else port,
            chosen_token,
            command_timeout=cfg.command_timeout,
            call_timeout=cfg.call_timeout,
            text_prelude=cfg.text_prelude,
            text_interval=cfg.text_interval,
            encrypt=policy if policy is not None else cfg.encrypt_value,
            max_connections=cfg.max_connections,
            max_connections_per_address=cfg.max_connections_per_address,
            transport=cfg.transport.lower(),
        )
        return bridge, port is None, policy  # an explicit --port is a choice, not a wish

    def _listen(self, bridge: Bridge, fallback: bool, policy: bool | str | None) -> Minecraft:
        self.runtime.start()
        bridge = listen(self.runtime, bridge, fallback=fallback)
        self.encrypt = policy
        self.mc = Minecraft(self.runtime, bridge, _kernel_loop(), self.config.call_timeout)
        self.mc.sim_defaults = self.config.sim_defaults
        self.mc.confirm_above_blocks = self.config.confirm_above_blocks
        self.shell.push({"mc": self.mc}, interactive=True)
        return self.mc

    def restart_bridge(
        self,
        host: str | None,
        port: int | None,
        token: str | bool | None,
        encrypt: bool | str | None,
    ) -> Minecraft:
        """``%mc serve``: arguments are checked, then the new server listens before the old
        one stops. When the new address is the old one's, the old server has to let go of
        the port first; if the new one then cannot listen, the old address and token are
        opened again."""
        prepared = self._prepare(host, port, token, encrypt)  # bad arguments stop here
        old = self.mc
        if old is None or old.stopped:
            return self._listen(*prepared)
        new = prepared[0]
        if (new.host, new.port) != (old.bridge.host, old.bridge.port):
            mc = self._listen(*prepared)
            old.close()
            return mc
        old.close()
        try:
            return self._listen(*prepared)
        except OSError:
            self.start_bridge(old.bridge.host, old.bridge.port, old.bridge.token or False)
            raise

    def stop_bridge(self) -> None:
        """Stop the server; ``mc`` stays, saying it is stopped, until a new one starts."""
        if self.mc is not None:
            self.mc.close()

    # --- load / unload --------------------------------------------------------------------

    def load(self) -> None:
        from ._completion import make_matcher
        from ._magics import McMagics

        self.shell.configurables.append(self.config)
        self.config.observe(self._confirm_above_changed, names=["confirm_above_blocks"])
        self.shell.register_magics(McMagics(self.shell, self))
        self._matcher = make_matcher(lambda: self.mc)
        self.shell.Completer.custom_matchers.append(self._matcher)
        self._register_formatters()
        self._install_error_handler()
        mc = self.start_bridge()
        show_welcome(mc)

    def _confirm_above_changed(self, change: Any) -> None:
        """``%config McbewsRepl.confirm_above_blocks = N`` reaches the running ``mc``."""
        if self.mc is not None:
            self.mc.confirm_above_blocks = int(change["new"])

    def unload(self) -> None:
        self.stop_bridge()
        self.runtime.stop()
        magics = self.shell.magics_manager.magics
        magics["line"].pop("mc", None)
        magics["cell"].pop("mc", None)
        self.shell.magics_manager.registry.pop("McMagics", None)
        if self._matcher in self.shell.Completer.custom_matchers:
            self.shell.Completer.custom_matchers.remove(self._matcher)
        for mime, kind in self._formatted:
            self.shell.display_formatter.formatters[mime].pop(kind, None)
        self.shell.display_formatter.ipython_display_formatter.pop(Pending, None)
        if self._previous_exc is not None:
            self.shell.custom_exceptions, self.shell.CustomTB = self._previous_exc
            self._previous_exc = None
        if isinstance(self.shell.user_ns.get("mc"), Minecraft):
            del self.shell.user_ns["mc"]
        if self.config in self.shell.configurables:
            self.shell.configurables.remove(self.config)

    def _install_error_handler(self) -> None:
        """Ours for McbewsError and an interrupted call (one short line each); whatever
        handled other exceptions before still does."""
        types, previous = self.shell.custom_exceptions, self.shell.CustomTB
        self._previous_exc = (types, previous)

        def handler(
            shell: Any, etype: type[BaseException], value: BaseException, tb: Any,
            tb_offset: int | None = None,
        ) -> None:  # fmt: skip
            if isinstance(value, McbewsError | CallInterrupted):
                _short_error(shell, etype, value, tb, tb_offset)
            else:
                previous(etype, value, tb, tb_offset=tb_offset)

        self.shell.set_custom_exc((*types, McbewsError, CallInterrupted), handler)

    def _register_formatters(self) -> None:
        formatters = self.shell.display_formatter.formatters
        for kind, html_fn, text_fn in RENDERERS:
            formatters["text/html"].for_type(kind, html_fn)
            formatters["text/plain"].for_type(kind, text_fn)
            self._formatted += [("text/html", kind), ("text/plain", kind)]
        for (module, name), html_fn, text_fn in BY_NAME:
            formatters["text/html"].for_type_by_name(module, name, html_fn)
            formatters["text/plain"].for_type_by_name(module, name, text_fn)
            self._formatted += [
                ("text/html", f"{module}.{name}"),
                ("text/plain", f"{module}.{name}"),
            ]
        self.shell.display_formatter.ipython_display_formatter.for_type(Pending, display_pending)


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
) -> None:
    """Our own errors are messages for the user, not tracebacks.

    IPython discards what a custom handler returns, so the handler displays the message
    itself (through the shell, so a kernel sends it as an error output).
    """
    show_error(shell, value)


def load(shell: Any) -> None:
    """Load the extension into ``shell``: the magics, Tab completion, the formatters, the
    error handler, and a bridge with ``mc`` pointing at it. Loading it twice only says so;
    if loading fails part way, what it added is taken back before the error goes on."""
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
    """Take back everything :func:`load` added to ``shell`` and stop its bridge (nothing
    happens when the extension is not loaded there)."""
    ext = _ACTIVE.pop(id(shell), None)
    if ext is not None:
        ext.unload()


def active(shell: Any) -> Extension | None:
    """What the extension added to ``shell``, or None when it is not loaded there."""
    return _ACTIVE.get(id(shell))
