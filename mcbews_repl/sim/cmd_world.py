"""World commands: time and weather (blocks are in ``cmd_blocks``)."""

from __future__ import annotations

from .cmdtypes import CommandOutcome, Context, Handler
from .facts import text
from .parse import Reader

__all__ = ["HANDLERS", "TICKS_PER_DAY"]

TICKS_PER_DAY = 24000
_TIME_NAMES = {"day": 1000, "noon": 6000, "sunset": 12000, "night": 13000, "midnight": 18000,
               "sunrise": 23000}  # fmt: skip


def time(ctx: Context, r: Reader) -> CommandOutcome:
    """``/time set|add|query ...``: the time of day.

    Raises:
        CommandSyntaxError: the arguments do not parse.
    """
    action = r.choice("set", "add", "query")
    world = ctx.world
    if action == "query":
        what = r.choice("daytime", "gametime", "day")
        r.end()
        value = {
            "daytime": world.time_of_day,
            "gametime": world.absolute_time,
            "day": world.absolute_time // TICKS_PER_DAY,
        }[what]
        return CommandOutcome(
            status_message=text(f"commands.time.query.{what}", value), fields={"data": value}
        )
    token = r.word()
    r.end()
    amount = _TIME_NAMES.get(token.lower())
    if amount is None:
        try:
            amount = int(token)
        except ValueError:
            r.pos -= len(token)
            raise r.fail(token) from None
    if action == "add":
        world.time_of_day = (world.time_of_day + amount) % TICKS_PER_DAY
        return CommandOutcome(status_message=text("commands.time.added", amount))
    world.time_of_day = amount % TICKS_PER_DAY
    return CommandOutcome(status_message=text("commands.time.set", amount))


def weather(ctx: Context, r: Reader) -> CommandOutcome:
    """``/weather clear|rain|thunder [duration]`` or ``/weather query``.

    Raises:
        CommandSyntaxError: the arguments do not parse.
    """
    state = r.choice("clear", "rain", "thunder", "query")
    if state == "query":
        r.end()
        return CommandOutcome(status_message=text("commands.weather.query", ctx.world.weather))
    r.integer(optional=True)  # duration: accepted, weather does not change on its own here
    r.end()
    ctx.world.weather = state
    return CommandOutcome(status_message=text(f"commands.weather.{state}"))


HANDLERS: dict[str, Handler] = {
    "time": time,
    "weather": weather,
}
