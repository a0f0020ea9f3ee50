// The stable pack's entry: stable modules only (@minecraft/server, @minecraft/server-ui), so the
// world needs no experiment (Minecraft Education included). Answers and panel messages travel as
// the results of the custom commands mcbews:ask, mcbews:pull and mcbews:poll.
import { startBridge } from "./game.js";

startBridge();
