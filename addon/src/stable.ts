// The stable pack's entry: stable modules only (@minecraft/server, @minecraft/server-ui), so the
// world needs no experiment (Minecraft Education included). Answers and panel messages travel as
// the results of the custom commands mcbews:ask, mcbews:pull and mcbews:poll.
// It exports where prototypes are registered (an exported pack's entry imports it: prototypes.ts).
import { startBridge } from "./game.js";

export const prototypes = startBridge().prototypes;
