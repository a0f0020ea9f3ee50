// The tags transport: the shared vectors, the store's window and bounds, and the runtime's path
// (answers and UI chat written as tags, acked away, swept by the TTL and at startup).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { encodePageTags, isPageTag, readAcks, tagChanges, TagStore, DEFAULT_TAG_OPTIONS, utf8Bytes } from "../src/tags.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { randomText, rng } from "./helpers.js";
import { mc, state } from "./mocks/server.js";

interface TagVectors {
  page_bytes: number;
  tag_max_chars: number;
  requests: { name: string; request_id: string; capability: string; payload: Record<string, unknown>; line: string }[];
  encode: { name: string; kind: "answer" | "ui"; id: string; page_bytes: number; text: string; tags: string[] }[];
  acks: { name: string; acks: [string, number][]; lines: string[] }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/tags_v1.json", import.meta.url)), "utf8"),
) as TagVectors;

const request = (id: string, capability = "list_capabilities", payload: object = {}): string =>
  JSON.stringify({ v: 2, request_id: id, capability, payload });

/** The text of a message's page tags (the bridge's side of the codec, for these tests). */
function decode(tags: string[]): string {
  const sorted = [...tags].sort((a, b) => Number(a.split(".")[3]) - Number(b.split(".")[3]));
  const bytes = sorted.flatMap((t) => [...Buffer.from(t.split(".")[5]!, "base64url")]);
  return Buffer.from(bytes).toString("utf8");
}

const pageTags = (name: string): string[] => state.players.find((p) => p.name === name)!.getTags().filter(isPageTag);

describe("tags vectors", () => {
  it.each(VECTORS.encode)("encodes: $name", (c) => {
    expect(encodePageTags(c.kind, c.id, c.text, c.page_bytes)).toEqual(c.tags);
  });

  it.each(VECTORS.acks)("reads acks: $name", (c) => {
    const words = c.lines.flatMap((line) => line.split(" ").slice(2)).join(" ");
    expect(readAcks(words)).toEqual({ acks: c.acks.map(([id, next]) => ({ id, next })), refused: [] });
  });

  it("refuses words that are not acks", () => {
    expect(readAcks("a:1 b c:0 d:x e:1:2 -f:2").refused).toEqual(["b", "c:0", "d:x", "e:1:2", "-f:2"]);
  });

  it("the longest page tag is what addTag takes, and random texts round-trip", () => {
    const longest = encodePageTags("answer", "A".repeat(24), "\u00ff".repeat(20000));
    expect(Math.max(...longest.map((t) => t.length))).toBeLessThanOrEqual(VECTORS.tag_max_chars - 4); // 3-digit page numbers here; 5 at most
    const random = rng(7);
    for (let n = 0; n < 50; n++) {
      const text = randomText(random, 600);
      const tags = encodePageTags("ui", "u1t1", text, 1 + Math.floor(random() * VECTORS.page_bytes));
      expect(tags.every((t) => /^[A-Za-z0-9._-]+$/.test(t) && t.length <= 255)).toBe(true);
      expect(decode(tags)).toBe(Buffer.from(utf8Bytes(text)).toString("utf8"));
    }
  });
});

describe("tag store", () => {
  const options = { ...DEFAULT_TAG_OPTIONS, pageBytes: 2, windowPages: 4 };

  it("shows a window, each message's next page first", () => {
    const store = new TagStore(options);
    store.put("answer", "big", "Steve", "abcdefghijkl", 0); // 6 pages
    store.put("answer", "small", "Steve", "xy", 0); // 1 page
    const wanted = [...store.wanted("Steve")];
    expect(wanted).toHaveLength(4);
    expect(wanted.filter((t) => t.includes(".small."))).toHaveLength(1);
    expect(store.wanted("Alex").size).toBe(0);
  });

  it("an ack moves the window on; past the last page the message goes", () => {
    const store = new TagStore(options);
    store.put("answer", "big", "Steve", "abcdefghijkl", 0);
    expect(store.ack("big", 5, 1)).toBe("Steve");
    expect([...store.wanted("Steve")].map((t) => t.split(".")[3])).toEqual(["5", "6"]);
    expect(store.ack("big", 7, 2)).toBe("Steve");
    expect(store.size).toBe(0);
    expect(store.ack("big", 7, 2)).toBeNull();
  });

  it("expires what was not read within the TTL, but not what is being read", () => {
    const store = new TagStore({ ...options, ttlTicks: 10 });
    store.put("answer", "a", "Steve", "abcd", 0);
    store.put("answer", "b", "Alex", "abcd", 0);
    store.ack("b", 2, 8);
    expect(store.expire(12)).toEqual(["Steve"]);
    expect(store.size).toBe(1);
  });

  it("keeps its bounds: entries and bytes, the oldest going first", () => {
    const store = new TagStore({ ...options, maxEntries: 2 });
    for (const id of ["a", "b", "c"]) store.put("answer", id, "Steve", "xy", 0);
    expect(store.size).toBe(2);
    expect(store.evicted).toBe(1);
    expect(new TagStore({ ...options, maxEntryBytes: 3 }).put("answer", "a", "S", "abcd", 0).ok).toBe(false);
  });

  it("changes only its own tags", () => {
    const wanted = new Set(["mcbews.a.k.1.1.YQ."]);
    expect(tagChanges(["builder", "mcbews.a.old.1.1.YQ.", "mcbewsish"], wanted)).toEqual({
      remove: ["mcbews.a.old.1.1.YQ."],
      add: ["mcbews.a.k.1.1.YQ."],
    });
  });
});

describe("the runtime's tags path", () => {
  beforeEach(() => mc.reset());

  it("answers a tags request as page tags on the player who sent it; the ack removes them", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve", tags: ["builder"] });
    rt.onScriptEvent("mcbews:tags_req", request("r1"), "Steve");
    const tags = pageTags("Steve");
    expect(tags.length).toBeGreaterThan(0);
    const answer = JSON.parse(decode(tags)) as { ok: boolean; result: { capabilities: unknown[] } };
    expect(answer.ok).toBe(true);
    const total = Number(tags[0]!.split(".")[4]);
    rt.onScriptEvent("mcbews:tags_ack", `r1:${total + 1}`, "Steve");
    expect(pageTags("Steve")).toEqual([]);
    expect(state.players[0]!.getTags()).toEqual(["builder"]); // the player's own tags stay
  });

  it("writes a large answer a window at a time", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    rt.onScriptEvent("mcbews:tags_req", request("big", "run_world_command", { command: `say ${"x".repeat(300)}` }), "Steve");
    rt.onScriptEvent("mcbews:tags_req", request("r2"), "Steve");
    tick(rt, 2, fake);
    const seen: string[] = [];
    for (let round = 0; round < 50 && pageTags("Steve").length > 0; round++) {
      const shown = pageTags("Steve");
      expect(shown.length).toBeLessThanOrEqual(DEFAULT_TAG_OPTIONS.windowPages);
      seen.push(...shown);
      const next = new Map<string, number>();
      for (const t of shown) {
        const [, , id, index] = t.split(".");
        next.set(id!, Math.max(next.get(id!) ?? 0, Number(index) + 1));
      }
      rt.onScriptEvent("mcbews:tags_ack", [...next].map(([id, n]) => `${id}:${n}`).join(" "), "Steve");
    }
    expect(pageTags("Steve")).toEqual([]);
    for (const id of ["r2", "big"]) {
      const mine = [...new Set(seen.filter((t) => t.split(".")[2] === id))];
      expect((JSON.parse(decode(mine)) as { ok: boolean }).ok).toBe(true);
    }
  });

  it("drops a tags request from no player that names none, and one whose id cannot name a tag", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    rt.onScriptEvent("mcbews:tags_req", request("r1"), null);
    rt.onScriptEvent("mcbews:tags_req", JSON.stringify({ v: 2, request_id: "r2", capability: "list_capabilities", payload: {}, to: "Nobody" }), null);
    rt.onScriptEvent("mcbews:tags_req", request("x".repeat(25)), "Steve");
    expect(pageTags("Steve")).toEqual([]);
    expect(fake.warnings.join("\n")).toMatch(/from no player/);
    // A request from no player that names one: the answer goes on that player.
    rt.onScriptEvent("mcbews:tags_req", JSON.stringify({ v: 2, request_id: "r3", capability: "list_capabilities", payload: {}, to: "Steve" }), null);
    expect(pageTags("Steve").every((t) => t.includes(".r3."))).toBe(true);
    expect(pageTags("Steve").length).toBeGreaterThan(0);
    expect(fake.warnings.join("\n")).toMatch(/not 1-24 letters and digits/);
  });

  it("a cancel removes the page tags; the TTL removes unread ones; stale ones are swept", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve", tags: ["mcbews.a.stale.1.1.YQ.", "vip"] });
    tick(rt, 21, fake); // the first sweep: tags left from an earlier session go
    expect(state.players[0]!.getTags()).toEqual(["vip"]);
    rt.onScriptEvent("mcbews:tags_req", request("c1"), "Steve");
    rt.onScriptEvent("mcbews:cancel", "c1", null);
    expect(pageTags("Steve")).toEqual([]);
    rt.onScriptEvent("mcbews:tags_req", request("t1"), "Steve");
    expect(pageTags("Steve").length).toBeGreaterThan(0);
    tick(rt, DEFAULT_TAG_OPTIONS.ttlTicks + 40, fake);
    expect(pageTags("Steve")).toEqual([]);
  });

  it("sends UI chat as tags to a connection that reads tags", () => {
    const fake = fakeHost(); // the beta pack: it would otherwise go as chat
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    tick(rt, 1, fake); // the bridge player is spawned
    rt.onScriptEvent("mcbews:tags_poll", "", "Steve");
    expect(rt.submitUiChat("Alex", "hello §cthere")).toBeNull();
    const tags = pageTags("Steve");
    expect(tags.every((t) => t.startsWith("mcbews.u."))).toBe(true);
    expect(JSON.parse(decode(tags))).toEqual({ player: "Alex", message: "hello §cthere" });
    expect(rt.pendingLines).toBe(0);
  });
});
