// run_world_command: run one command as the world, if the in-world policy allows it.
import type { Capability, CapabilityResult } from "../capability.js";
import { commandWord, decide } from "../policy.js";

export const runWorldCommand: Capability = {
  name: "run_world_command",
  description: "Run one command in the overworld, within the operator's command policy",
  params: { command: "string: the command line, without or with a leading slash" },
  run(payload, ctx): CapabilityResult {
    const command = payload["command"];
    if (typeof command !== "string" || command.trim() === "") {
      return { ok: false, message: "command must be a non-empty string" };
    }
    const decision = decide(ctx.policy(), command);
    if (!decision.allowed) return { ok: false, message: decision.reason };
    const line = command.trim().replace(/^\//, "");
    const outcome = ctx.runCommand(line);
    const word = commandWord(line);
    if (outcome.ok) return { ok: true, result: { command: word, successCount: outcome.successCount } };
    return { ok: true, result: { command: word, successCount: 0, error: outcome.error } };
  },
};
