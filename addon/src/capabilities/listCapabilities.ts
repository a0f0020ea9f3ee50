// list_capabilities: what this world's addon offers, so notebooks can discover it.
import type { Capability } from "../capability.js";
import { describePolicy } from "../policy.js";
import { ADDON_PACK, ADDON_VERSION } from "../version.js";

export const listCapabilities: Capability = {
  name: "list_capabilities",
  readOnly: true,
  description: "Every registered capability with a one-line description and its parameters",
  params: {},
  run(_payload, ctx) {
    const capabilities = [...ctx.registry.values()].map((cap) => ({
      name: cap.name,
      description: cap.description,
      params: { ...cap.params },
      ...(cap.prototype === true ? { prototype: true } : {}),
    }));
    const addon = { version: ADDON_VERSION, pack: ADDON_PACK };
    return { ok: true, result: { capabilities, commandPolicy: describePolicy(ctx.policy()), addon } };
  },
};
