// subscribe_events: which world.afterEvents the addon forwards for every player (forwarder.ts),
// each with an optional rate; an empty kinds stops them all. The answer says what is forwarded
// now. Not read-only: subscribing to a signal is refused in restricted execution (the
// @minecraft/server 2.4.0 metadata gives subscribe early_execution only), so the pull transport
// runs it at the next tick.
import type { Capability } from "../capability.js";
import { FORWARD_KINDS, readWanted } from "../forwarder.js";
import { FORWARD_RATE_MAX_PER_SECOND } from "../wire.js";

export const subscribeEvents: Capability = {
  name: "subscribe_events",
  description: "Forward these world.afterEvents for every player, one batch a tick with UI chat; {} stops them all",
  params: {
    kinds: `object: kind name to its rate, at most that many a second per player (0: no rate; at most ${FORWARD_RATE_MAX_PER_SECOND}), e.g. {"player_break_block": 0}; default {}`,
  },
  run(payload, ctx) {
    if (ctx.forwarder === undefined) return { ok: false, message: "this addon forwards no events here" };
    const read = readWanted(payload["kinds"] ?? {});
    if (!read.ok) return { ok: false, message: read.message };
    const forwarded = ctx.forwarder.subscribe(read.wanted);
    return { ok: true, result: { forwarded, kinds: [...FORWARD_KINDS] } };
  },
};
