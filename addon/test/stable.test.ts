// The stable pack's entry against the mocks: no bridge player, answers and UI chat by pull only.
import { beforeAll, describe, expect, it } from "vitest";
import { gametest } from "./mocks/server-gametest.js";
import { ui } from "./mocks/server-ui.js";
import { CustomCommandStatus, mc, state, type Player } from "./mocks/server.js";

let steve: Player;

async function settle(): Promise<void> {
  for (let n = 0; n < 5; n++) await Promise.resolve();
}

function call(name: string, ...args: unknown[]): { status: CustomCommandStatus; message?: string } | undefined {
  return state.registeredCommands.find((c) => c.command.name === name)!.callback({ sourceEntity: steve }, ...args);
}

const hexOf = (text: string): string => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");

beforeAll(async () => {
  mc.reset();
  gametest.reset();
  ui.reset();
  steve = mc.addPlayer({ name: "Steve" });
  await import("../src/stable.js");
  mc.startup();
  mc.worldLoad();
  mc.advance(100);
});

describe("stable pack", () => {
  it("never spawns a bridge player", () => {
    expect(gametest.spawns).toEqual([]);
    expect(state.players.map((p) => p.name)).toEqual(["Steve"]);
  });

  it("registers the chat panel and the pull commands", () => {
    expect(state.registeredCommands.map((c) => c.command.name).sort()).toEqual(["mcbews:ask", "mcbews:chat", "mcbews:poll", "mcbews:pull"]);
  });

  it("answers a capability in the command's own result", () => {
    const reply = call("mcbews:ask", hexOf(JSON.stringify({ v: 2, request_id: "s1", capability: "get_player_snapshot", payload: { target: "@s" } })));
    expect(reply?.status).toBe(CustomCommandStatus.Success);
    expect(reply?.message).toMatch(/^MCBEWS\|ANSWER\|s1\|1\/1\|\{"ok":true,"result":\{"players":\[\{"name":"Steve"/);
  });

  it("keeps what a player types in the panel until it is polled", async () => {
    ui.responses.push({ canceled: false, formValues: ["hello"] });
    call("mcbews:chat");
    mc.advance(1);
    await settle();
    expect(call("mcbews:poll")?.message).toMatch(/^MCBEWS\|UI\|u\d+t1\|1\/1\|\{"player":"Steve","message":"hello"\}$/);
    expect(call("mcbews:poll")?.message).toBe("MCBEWS|EMPTY");
  });
});
