"""Settings of the IPython extension, as traitlets so ``%config McbewsRepl.port = 0`` works.

Where a setting comes from, strongest first: ``%config`` and ``ipython_config.py`` (IPython's
configuration), then an environment variable (read when the extension loads; handy for
classrooms and CI), then the default. The variables: ``MCBEWS_HOST``, ``MCBEWS_PORT``,
``MCBEWS_TOKEN`` (``none`` turns the path token off), ``MCBEWS_COMMAND_TIMEOUT``,
``MCBEWS_CALL_TIMEOUT``, ``MCBEWS_TEXT_PRELUDE``, ``MCBEWS_TEXT_INTERVAL``,
``MCBEWS_ENCRYPT`` (auto, on, off), ``MCBEWS_MAX_CONNECTIONS``,
``MCBEWS_MAX_CONNECTIONS_PER_ADDRESS``, ``MCBEWS_TRANSPORT`` (auto, pull, chat), and for
the simulated world of ``%mc sim`` ``MCBEWS_SIM_PACK`` (stable, beta), ``MCBEWS_SIM_BETA_APIS``
(auto, on, off) and ``MCBEWS_SIM_EDITION`` (bedrock, education); ``MCBEWS_CONFIRM_ABOVE_BLOCKS``
(how many blocks a write sets before it asks for ``force=True``).
"""

from __future__ import annotations

import os
from typing import Any

from traitlets import CaselessStrEnum, Float, Int, TraitError, Unicode
from traitlets.config import Configurable

from ...limits import CONFIRM_ABOVE_BLOCKS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS
from ...sansio import (
    DEFAULT_TIMEOUT_SECONDS,
    TEXT_FRAME_INTERVAL_SECONDS,
    TEXT_PRELUDE_SECONDS,
)

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
    "max_connections_per_address": "MCBEWS_MAX_CONNECTIONS_PER_ADDRESS",
    "transport": "MCBEWS_TRANSPORT",
    "sim_pack": "MCBEWS_SIM_PACK",
    "sim_beta_apis": "MCBEWS_SIM_BETA_APIS",
    "sim_edition": "MCBEWS_SIM_EDITION",
    "confirm_above_blocks": "MCBEWS_CONFIRM_ABOVE_BLOCKS",
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

    encrypt = CaselessStrEnum(
        ["auto", "on", "off"],
        "auto",
        help="Encrypt game sessions: 'auto' (when offered), 'on' (required) or 'off'.",
    ).tag(config=True)

    max_connections = Int(
        MAX_CONNECTIONS, help="Game connections served at once; one more is refused."
    ).tag(config=True)
    max_connections_per_address = Int(
        MAX_CONNECTIONS_PER_ADDRESS,
        help="Game connections served at once from one machine's address (this machine's "
        "own, 127.0.0.1, is not held to it); one more is refused.",
    ).tag(config=True)
    transport = CaselessStrEnum(
        ["auto", "pull", "chat", "tags"],
        "auto",
        help="How answers travel: 'auto' (probe pull, chat, then tags; the first that "
        "answers), 'pull', 'chat' or 'tags'.",
    ).tag(config=True)

    sim_pack = CaselessStrEnum(
        ["stable", "beta"],
        "stable",
        help="The pack %mc sim's world runs: 'stable' (no experiments) or 'beta'.",
    ).tag(config=True)
    sim_beta_apis = CaselessStrEnum(
        ["auto", "on", "off"],
        "auto",
        help="Beta APIs in %mc sim's world: 'auto' (on with the beta pack, off otherwise).",
    ).tag(config=True)
    sim_edition = CaselessStrEnum(
        ["bedrock", "education"],
        "bedrock",
        help="%mc sim's world: 'bedrock', or 'education' (no experiments toggle).",
    ).tag(config=True)

    confirm_above_blocks = Int(
        CONFIRM_ABOVE_BLOCKS,
        help="A write (mc.set_blocks, fill, build) setting more blocks than this asks for "
        "force=True; mc.undo() takes a write back.",
    ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.apply_environment(os.environ)

    def apply_environment(self, env: Any) -> None:
        """Take settings from environment variables, except those IPython's configuration
        set (``%config``, ``ipython_config.py``).

        Raises:
            ValueError: a variable's value does not fit its setting (the message names it).
        """
        configured = set(self.config.get(type(self).__name__, {}))
        for name, var in ENV_VARS.items():
            raw = env.get(var)
            if raw is None or raw == "" or name in configured:
                continue
            trait = self.traits()[name]
            try:
                setattr(self, name, type(trait.default_value)(raw))
            except (ValueError, TraitError) as exc:
                raise ValueError(f"{var}={raw!r} is not a valid {name}: {exc}") from exc

    @property
    def encrypt_value(self) -> bool | str:
        """The policy as ``serve`` takes it: ``"auto"``, ``True`` or ``False``."""
        return encrypt_policy(self.encrypt)

    @property
    def sim_defaults(self) -> dict[str, Any]:
        """What ``%mc sim`` uses when its options do not say (``simulate.SimOptions``)."""
        return {
            "pack": self.sim_pack.lower(),
            "beta_apis": self.sim_beta_apis.lower(),
            "edition": self.sim_edition.lower(),
        }

    @property
    def token_value(self) -> str | None:
        """The token as ``serve`` takes it: ``None`` turns the check off."""
        return None if self.token.lower() in {"none", "off", ""} else self.token


def encrypt_policy(word: str) -> bool | str:
    """``auto``/``on``/``off`` as ``serve(encrypt=...)`` takes it: ``"auto"``, True, False."""
    value = word.strip().lower()
    policies: dict[str, bool | str] = {"auto": "auto", "on": True, "off": False}
    if value not in policies:
        raise ValueError(f"encrypt must be auto, on or off, not {word!r}")
    return policies[value]
