// The pull transport: the shared vectors, the store's bounds, and the runtime's commands.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { utf8Len } from "../src/json.js";
import { decodeAskHex, DEFAULT_PULL_OPTIONS, formatPage, PullStore, splitPages } from "../src/pull.js";
import { parseRequest } from "../src/request.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { randomText, rng } from "./helpers.js";
import { ItemStack, mc } from "./mocks/server.js";

interface PullVectors {
  asks: { name: string; request_id: string; capability: string; payload: Record<string, unknown>; json: string; line: string }[];
  bad_asks: { name: string; hex: string; reason: string }[];
  pages: { name: string; page_bytes: number; text: string; pages: string[] }[];
  replies: { name: string; line: string; type: string; kind?: "answer" | "ui"; id?: string; index?: number; total?: number; content?: string }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/pull_v1.json", import.meta.url)), "utf8"),
) as PullVectors;

const hexOf = (text: string): string => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
const ask = (id: string, capability: string, payload: object = {}): string =>
  hexOf(JSON.stringify({ v: 2, request_id: id, capability, payload }));

describe("pull vectors", () => {
  it.each(VECTORS.asks)("decodes the ask: $name", (c) => {
    const decoded = decodeAskHex(c.line.slice("mcbews:ask ".length));
    expect(decoded).toEqual({ ok: true, text: c.json });
    const parsed = parseRequest(c.json);
    expect(parsed).toEqual({ ok: true, request: { requestId: c.request_id, capability: c.capability, payload: c.payload } });
  });

  it.each(VECTORS.bad_asks)("refuses a bad ask: $name", (c) => {
    expect(decodeAskHex(c.hex)).toMatchObject({ ok: false, reason: c.reason });
  });

  it.each(VECTORS.pages)("splits pages: $name", (c) => {
    expect(splitPages(c.text, c.page_bytes)).toEqual(c.pages);
  });

  it.each(VECTORS.replies.filter((r) => r.type === "page"))("formats a page: $name", (c) => {
    expect(formatPage(c.kind!, c.id!, c.index!, c.total!, c.content!)).toBe(c.line);
  });

  it("pages of any text rejoin, fit and are as full as they can be", () => {
    const next = rng(7);
    for (let round = 0; round < 300; round++) {
      const text = randomText(next, 400);
      const size = 4 + Math.floor(next() * 40);
      const pages = splitPages(text, size);
      expect(pages.join("")).toBe(text);
      pages.forEach((page, i) => {
        expect(utf8Len(page)).toBeLessThanOrEqual(size);
        const following = pages[i + 1];
        if (following !== undefined) expect(utf8Len(page) + utf8Len([...following][0]!)).toBeGreaterThan(size);
      });
    }
  });
});

describe("the pull store", () => {
  const small = { ...DEFAULT_PULL_OPTIONS, pageBytes: 4, maxEntries: 3, maxTotalBytes: 20, maxEntryBytes: 12, ttlTicks: 10, maxUiWaiting: 2 };

  it("hands out pages, then forgets an answer once every page was pulled", () => {
    const store = new PullStore(small);
    expect(store.put("answer", "a1", "abcdefghij", 0)).toEqual({ ok: true });
    expect(store.reply("a1", 2)).toBe("MCBEWS|ANSWER|a1|2/3|efgh");
    expect(store.reply("a1", 4)).toBe("MCBEWS|NONE|a1|no_page");
    expect(store.reply("a1", 1)).toBe("MCBEWS|ANSWER|a1|1/3|abcd");
    expect(store.reply("a1", 2)).toBe("MCBEWS|ANSWER|a1|2/3|efgh"); // again: a lost reply can be pulled anew
    expect(store.reply("a1", 3)).toBe("MCBEWS|ANSWER|a1|3/3|ij");
    expect(store.reply("a1", 1)).toBe("MCBEWS|NONE|a1|unknown");
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it("says WAIT for an accepted request until its answer is kept", () => {
    const store = new PullStore(small);
    store.markWaiting("w1", 0);
    expect(store.reply("w1", 1)).toBe("MCBEWS|WAIT|w1");
    store.put("answer", "w1", "ok", 1);
    expect(store.reply("w1", 1)).toBe("MCBEWS|ANSWER|w1|1/1|ok");
  });

  it("is bounded: entries, bytes and one answer's size; the oldest goes first", () => {
    const store = new PullStore(small);
    expect(store.put("answer", "big", "x".repeat(13), 0)).toMatchObject({ ok: false });
    for (const id of ["a", "b", "c", "d"]) store.put("answer", id, "12345678", 0);
    expect(store.size).toBeLessThanOrEqual(3);
    expect(store.bytes).toBeLessThanOrEqual(20);
    expect(store.reply("a", 1)).toBe("MCBEWS|NONE|a|unknown");
    expect(store.reply("d", 1)).toBe("MCBEWS|ANSWER|d|1/2|1234");
    expect(store.evicted).toBe(2);
  });

  it("expires what nobody pulled, waiting marks included", () => {
    const store = new PullStore(small);
    store.put("answer", "old", "abc", 0);
    store.markWaiting("slow", 0);
    expect(store.expire(9)).toEqual([]);
    expect(store.expire(10)).toEqual(["old"]);
    expect(store.reply("slow", 1)).toBe("MCBEWS|NONE|slow|unknown");
  });

  it("polls UI chat oldest first, refusing more than it may keep waiting", () => {
    const store = new PullStore(small);
    expect(store.poll(0)).toBe("MCBEWS|EMPTY");
    expect(store.lastPollTick).toBe(0);
    expect(store.enqueueUi("u1t1", "first", 1)).toBeNull();
    expect(store.enqueueUi("u1t2", "two", 1)).toBeNull();
    expect(store.enqueueUi("u1t3", "three", 1)).toMatch(/2 messages already wait/);
    expect(store.poll(2)).toBe("MCBEWS|UI|u1t1|1/2|firs");
    expect(store.reply("u1t1", 2)).toBe("MCBEWS|UI|u1t1|2/2|t");
    expect(store.poll(3)).toBe("MCBEWS|UI|u1t2|1/1|two");
    expect(store.poll(4)).toBe("MCBEWS|EMPTY");
  });
});

describe("the runtime's pull commands", () => {
  beforeEach(() => mc.reset());

  it("answers a read-only capability inside mcbews:ask, in its own result", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    const reply = rt.ask(ask("r1", "get_player_snapshot", { target: "@s" }), "Steve");
    expect(reply.ok).toBe(true);
    const page = /^MCBEWS\|ANSWER\|r1\|1\/1\|(.*)$/s.exec(reply.message);
    expect(page).not.toBeNull();
    const answer = JSON.parse(page![1]!) as { ok: boolean; result: { players: { name: string }[] } };
    expect(answer.result.players.map((p) => p.name)).toEqual(["Steve"]);
    expect(fake.deferred).toEqual([]);
  });

  it("runs a capability that changes the world at the next tick: WAIT, then the answer", async () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const reply = rt.ask(ask("c1", "run_world_command", { command: "say hi" }), null);
    expect(reply).toEqual({ ok: true, message: "MCBEWS|WAIT|c1" });
    expect(rt.pullPage("c1", 1).message).toBe("MCBEWS|WAIT|c1");
    tick(rt, 1, fake);
    await Promise.resolve(); // the answer is kept when its promise settles
    expect(rt.pullPage("c1", 1).message).toBe('MCBEWS|ANSWER|c1|1/1|{"ok":true,"result":{"command":"say","successCount":6}}');
  });

  it("answers errors with the request id in the store, and refuses what has no id", () => {
    const rt = runtimeWith(fakeHost({ stable: true }));
    expect(rt.ask(ask("e1", "fly"), null).message).toBe(
      'MCBEWS|ANSWER|e1|1/1|{"ok":false,"error":{"code":"UNSUPPORTED_CAPABILITY","message":"no such capability: fly"}}',
    );
    expect(rt.ask("zz", null)).toMatchObject({ ok: false, message: expect.stringContaining("not_hex") });
    expect(rt.ask(hexOf("{}"), null)).toMatchObject({ ok: false, message: expect.stringContaining("request_id must be") });
    expect(rt.ask(ask("bad-id", "list_capabilities"), null)).toMatchObject({ ok: false });
    expect(rt.pullPage("no|pe", 1).ok).toBe(false);
  });

  it("answers a script-event request into the store, for mcbews:pull", () => {
    const rt = runtimeWith(fakeHost({ stable: true }));
    rt.onScriptEvent("mcbews:pull_req", JSON.stringify({ v: 2, request_id: "s1", capability: "list_capabilities", payload: {} }), null);
    const first = rt.pullPage("s1", 1).message;
    expect(first).toMatch(/^MCBEWS\|ANSWER\|s1\|1\/\d+\|\{"ok":true,"result":\{"capabilities":/);
  });

  it("keeps an answer too large for the store as CAPABILITY_FAILED", () => {
    const rt = runtimeWith(fakeHost({ stable: true }));
    const name = "n".repeat(60_000); // 36 such stacks: over the 2 MiB an answer may have
    mc.addPlayer({ name: "Big", inventory: Array.from({ length: 36 }, () => new ItemStack({ typeId: "minecraft:stone", nameTag: name })) });
    const reply = rt.ask(ask("b1", "get_inventory_snapshot", { target: "Big" }), null).message;
    expect(reply).toMatch(/^MCBEWS\|ANSWER\|b1\|1\/1\|\{"ok":false,"error":\{"code":"CAPABILITY_FAILED","message":"the answer is too large to keep: /);
  });

  it("the stable pack answers nothing over chat, and says so in the content log", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent("mcbews:bridge_req", JSON.stringify({ v: 2, request_id: "q", capability: "list_capabilities", payload: {} }), null);
    tick(rt, 50, fake);
    expect(rt.queuedRequests).toBe(0);
    expect(fake.spawn.count).toBe(0);
    expect(fake.warnings.some((w) => w.includes("a request by chat was ignored"))).toBe(true);
  });

  it("UI chat waits for mcbews:poll in the stable pack", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    expect(rt.submitUiChat("Steve", "hello @a")).toBeNull();
    expect(rt.submitUiChat("Steve", "  ")).toBe("the message is empty");
    const reply = rt.poll().message;
    expect(reply).toMatch(/^MCBEWS\|UI\|u0t1\|1\/1\|/);
    expect(JSON.parse(reply.split("|").slice(4).join("|"))).toEqual({ player: "Steve", message: "hello @a" });
    expect(rt.poll().message).toBe("MCBEWS|EMPTY");
  });

  it("in the beta pack UI chat goes as chat unless a connection polls", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt, 1, fake); // the bridge player joins
    rt.submitUiChat("Steve", "by chat");
    expect(rt.pendingLines).toBe(1);
    rt.poll(); // a pulling connection is live now
    rt.submitUiChat("Steve", "by pull");
    expect(rt.pendingLines).toBe(1);
    expect(rt.poll().message).toMatch(/"message":"by pull"/);
    tick(rt, 5 * 20 + 2, fake); // nobody polled for over 5 s
    rt.submitUiChat("Steve", "by chat again");
    expect(rt.pendingLines).toBe(1);
    expect(rt.pull.uiWaiting).toBe(0);
  });
});
