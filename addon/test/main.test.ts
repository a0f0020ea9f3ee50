// main.ts against the mocks: the subscriptions, the bridge player spawn, the chat panel.
import { beforeAll, describe, expect, it } from "vitest";
import { joinChunks } from "./helpers.js";
import { gametest } from "./mocks/server-gametest.js";
import { FormCancelationReason, ui } from "./mocks/server-ui.js";
import { CommandPermissionLevel, CustomCommandStatus, mc, state, type Player } from "./mocks/server.js";

let steve: Player;

function bridgeLines(): string[] {
  const bridge = state.players.find((p) => p.name === "MCBEWS_BRIDGE");
  return (bridge?.commands ?? []).map((c) => c.replace(/^tell @s /, ""));
}

async function settle(): Promise<void> {
  for (let n = 0; n < 5; n++) await Promise.resolve();
}

beforeAll(async () => {
  mc.reset();
  gametest.reset();
  ui.reset();
  steve = mc.addPlayer({ name: "Steve" });
  await import("../src/main.js");
  mc.startup();
  mc.worldLoad();
  mc.advance(2);
});

describe("main", () => {
  it("spawns MCBEWS_BRIDGE inside the world once loaded", () => {
    expect(gametest.spawns).toHaveLength(1);
    expect(gametest.spawns[0]).toMatchObject({ name: "MCBEWS_BRIDGE", gameMode: "Creative", location: { x: 0, y: 318, z: 0 } });
  });

  it("answers a bridge request whatever the script event's source", () => {
    mc.scriptEvent("mcbews:bridge_req", '{"v":2,"request_id":"m1","capability":"get_player_snapshot","payload":{"target":"\\u0040s"}}', steve);
    mc.scriptEvent("mcbews:bridge_req", '{"v":2,"request_id":"m2","capability":"fly","payload":{}}');
    mc.advance(3);
    const lines = bridgeLines();
    const m1 = JSON.parse(joinChunks(lines.filter((l) => l.includes("|m1|")))) as { result: { players: { name: string }[] } };
    expect(m1.result.players.map((p) => p.name)).toEqual(["Steve"]);
    expect(JSON.parse(joinChunks(lines.filter((l) => l.includes("|m2|"))))).toEqual({
      ok: false,
      error: { code: "UNSUPPORTED_CAPABILITY", message: "no such capability: fly" },
    });
  });

  it("registers /mcbews:chat, whose panel sends UI chat upstream", async () => {
    const registered = state.registeredCommands.find((c) => c.command.name === "mcbews:chat");
    expect(registered).toBeDefined();
    ui.responses.push({ canceled: true, cancelationReason: FormCancelationReason.UserBusy });
    ui.responses.push({ canceled: false, formValues: ["hello @a"] });
    expect(registered!.callback({ sourceEntity: steve })).toEqual({ status: CustomCommandStatus.Success });
    expect(registered!.callback({})).toMatchObject({ status: CustomCommandStatus.Failure });
    mc.advance(1);
    await settle();
    mc.advance(6); // the busy form is retried a few ticks later
    await settle();
    mc.advance(2);
    expect(ui.shown).toHaveLength(2);
    const chat = bridgeLines().filter((l) => l.startsWith("MCBEWS|UI_CHAT|"));
    expect(chat[0]).toMatch(/^MCBEWS\|UI_CHAT\|ui-\d+-1\|1\/1\|/);
    expect(JSON.parse(joinChunks(chat))).toEqual({ player: "Steve", message: "hello @a" });
  });

  it("shows text responses to their player", () => {
    mc.scriptEvent("mcbews:text_resp", '{"id":"t","i":1,"n":1,"p":"Steve","r":"user","c":"hi"}');
    expect(steve.messages).toContain("§b[user]§r hi");
  });

  it("stores the command policy in a world dynamic property", () => {
    mc.scriptEvent("mcbews:policy", "allow give", steve);
    expect(String(state.dynamicProperties.get("mcbews:command_policy"))).toContain("give");
  });
});

describe("the pull commands", () => {
  it("registers mcbews:ask, mcbews:pull and mcbews:poll for operators", () => {
    const byName = new Map(state.registeredCommands.map((c) => [c.command.name, c]));
    expect(byName.get("mcbews:ask")?.command.mandatoryParameters).toEqual([{ type: "String", name: "request" }]);
    expect(byName.get("mcbews:pull")?.command.optionalParameters).toEqual([{ type: "Integer", name: "page" }]);
    for (const name of ["mcbews:ask", "mcbews:pull", "mcbews:poll"]) {
      expect(byName.get(name)?.command.permissionLevel).toBe(CommandPermissionLevel.GameDirectors);
    }
  });

  it("answers through the command's result, and UI chat through mcbews:poll while a reader polls", async () => {
    const call = (name: string, ...args: unknown[]): { status: CustomCommandStatus; message?: string } | undefined =>
      state.registeredCommands.find((c) => c.command.name === name)!.callback({ sourceEntity: steve }, ...args);
    const hex = [...JSON.stringify({ v: 2, request_id: "m9", capability: "list_capabilities", payload: {} })]
      .map((c) => c.charCodeAt(0).toString(16).padStart(2, "0"))
      .join("");
    const first = call("mcbews:ask", hex);
    expect(first?.status).toBe(CustomCommandStatus.Success);
    expect(first?.message).toMatch(/^MCBEWS\|ANSWER\|m9\|1\/\d+\|\{"ok":true/);
    expect(call("mcbews:poll")?.message).toBe("MCBEWS|EMPTY");
    ui.responses.push({ canceled: false, formValues: ["by pull"] });
    state.registeredCommands.find((c) => c.command.name === "mcbews:chat")!.callback({ sourceEntity: steve });
    mc.advance(1);
    await settle();
    expect(call("mcbews:poll")?.message).toMatch(/^MCBEWS\|UI\|u\d+t\d+\|1\/1\|\{"player":"Steve","message":"by pull"\}$/);
    expect(call("mcbews:pull", "nothere")?.message).toBe("MCBEWS|NONE|nothere|unknown");
  });
});
