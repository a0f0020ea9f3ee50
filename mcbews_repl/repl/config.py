"""Settings of the IPython extension, as traitlets so ``%config McbewsRepl.port = 0`` works.

Each setting can also come from an environment variable (read when the extension loads),
which is handy for classrooms and CI: ``MCBEWS_HOST``, ``MCBEWS_PORT``, ``MCBEWS_TOKEN``
(``none`` turns the path token off), ``MCBEWS_COMMAND_TIMEOUT``, ``MCBEWS_CALL_TIMEOUT``,
``MCBEWS_TEXT_PRELUDE``, ``MCBEWS_TEXT_INTERVAL``, ``MCBEWS_ENCRYPT`` (auto, on, off),
``MCBEWS_MAX_CONNECTIONS``.
"""

from __future__ import annotations

import os
from typing import Any

from traitlets import Float, Int, Unicode
from traitlets.config import Configurable

from ..limits import MAX_CONNECTIONS
from ..sansio.wire import DEFAULT_TIMEOUT_SECONDS, TEXT_FRAME_INTERVAL_SECONDS, TEXT_PRELUDE_SECONDS

__all__ = ["ENV_VARS", "McbewsRepl", "encrypt_policy"]

# The default port of the examples; if it is taken the extension falls back to a free one.
DEFAULT_PORT = 19131

ENV_VARS: dict[str, str] = {
    "host": "MCBEWS_HOST",
    "port": "MCBEWS_PORT",
    "token": "MCBEWS_TOKEN",
    "command_timeout": "MCBEWS_COMMAND_TIMEOUT",
    "call_timeout": "MCBEWS_CALL_TIMEOUT",
    "text_prelude": "MCBEWS_TEXT_PRELUDE",
    "text_interval": "MCBEWS_TEXT_INTERVAL",
    "encrypt": "MCBEWS_ENCRYPT",
    "max_connections": "MCBEWS_MAX_CONNECTIONS",
}


class McbewsRepl(Configurable):
    """Where the bridge listens and how patient it is."""

    host = Unicode(
        "127.0.0.1", help="Interface to listen on; other than loopback on purpose only."
    ).tag(config=True)
    port = Int(DEFAULT_PORT, help="Port to listen on; 0 picks a free one.").tag(config=True)
    token = Unicode(
        "auto", help="Path token: 'auto' (random), 'none' (no check) or your own string."
    ).tag(config=True)
    command_timeout = Float(10.0, help="Seconds to wait for a command's answer.").tag(config=True)
    call_timeout = Float(
        DEFAULT_TIMEOUT_SECONDS, help="Seconds to wait for a capability answer."
    ).tag(config=True)
    text_prelude = Float(TEXT_PRELUDE_SECONDS, help="Pause before a text response.").tag(
        config=True
    )
    text_interval = Float(
        TEXT_FRAME_INTERVAL_SECONDS, help="Pause between text response frames."
    ).tag(config=True)

    encrypt = Unicode(
        "auto", help="Encrypt game sessions: 'auto' (when offered), 'on' (required) or 'off'."
    ).tag(config=True)

    max_connections = Int(
        MAX_CONNECTIONS, help="Game connections served at once; one more is refused."
    ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.apply_environment(os.environ)

    def apply_environment(self, env: Any) -> None:
        """Take overrides from environment variables; a bad value says which variable."""
        for name, var in ENV_VARS.items():
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            trait = self.traits()[name]
            try:
                value: Any = type(trait.default_value)(raw)
            except ValueError as exc:
                raise ValueError(f"{var}={raw!r} is not a valid {name}") from exc
            setattr(self, name, value)

    @property
    def encrypt_value(self) -> bool | str:
        """The policy as ``serve`` takes it: ``"auto"``, ``True`` or ``False``."""
        return encrypt_policy(self.encrypt)

    @property
    def token_value(self) -> str | None:
        """The token as ``serve`` takes it: ``None`` turns the check off."""
        return None if self.token.lower() in {"none", "off", ""} else self.token


def encrypt_policy(word: str) -> bool | str:
    """``auto``/``on``/``off`` (also true/false, yes/no) as ``serve(encrypt=...)`` takes it."""
    value = word.strip().lower()
    if value == "auto":
        return "auto"
    if value in {"on", "true", "yes", "1", "required"}:
        return True
    if value in {"off", "false", "no", "0", "never"}:
        return False
    raise ValueError(f"encrypt must be auto, on or off, not {word!r}")
