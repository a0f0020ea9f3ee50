import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readManifest, renderWire, WIRE_TS } from "../scripts/gen-wire.mjs";
import * as wire from "../src/wire.js";

describe("wire constants", () => {
  it("src/wire.ts is what gen-wire renders from mcbews_repl/wire.json (run `npm run gen-wire`)", () => {
    expect(readFileSync(WIRE_TS, "utf8")).toBe(renderWire(readManifest()));
  });

  it("has the seed's names", () => {
    expect(wire.BRIDGE_REQUEST_EVENT).toBe("mcbews:bridge_req");
    expect(wire.TEXT_RESPONSE_EVENT).toBe("mcbews:text_resp");
    expect(wire.BRIDGE_PREFIX).toBe("MCBEWS|BRIDGE");
    expect(wire.UI_CHAT_PREFIX).toBe("MCBEWS|UI_CHAT");
    expect(wire.BRIDGE_PLAYER).toBe("MCBEWS_BRIDGE");
    expect(wire.REQUEST_VERSION).toBe(2);
    expect(wire.COMMAND_LINE_BUDGET_BYTES).toBe(461);
  });
});
