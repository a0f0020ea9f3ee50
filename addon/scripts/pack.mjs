// Deterministic pack artefacts with no dependency on zlib's compressor: the manifest, a pack
// icon drawn in code (PNG with stored deflate blocks) and zip archives with stored entries,
// fixed timestamps and sorted names. The same inputs give the same bytes on every machine.

export const PACK_VERSION = [0, 2, 0];
export const MIN_ENGINE_VERSION = [1, 21, 130];

const SERVER = { module_name: "@minecraft/server", version: "2.4.0" };
const SERVER_UI = { module_name: "@minecraft/server-ui", version: "2.0.0" };
const GAMETEST = { module_name: "@minecraft/server-gametest", version: "1.0.0-beta" };

/**
 * The two packs built from the same sources. The uuids belong to this project; never reuse them
 * elsewhere. The beta pack keeps the uuids the first (beta-only) pack had, so a world that has it
 * applied takes the update; the stable pack is a pack of its own.
 *  - stable: stable modules only, so a world needs no experiment (Minecraft Education included);
 *    answers travel as custom-command results (the pull transport).
 *  - beta: also spawns the bridge player from @minecraft/server-gametest (a beta module, so the
 *    world needs Beta APIs), whose chat is the second transport.
 */
export const PACKS = {
  stable: {
    folder: "mcbews_bridge_bp",
    mcaddon: "mcbews_bridge.mcaddon",
    entry: "stable.ts",
    simBundle: "sim_stable.js",
    name: "mcbews bridge",
    description:
      "Companion of mcbews_repl: answers capability requests and carries UI chat as custom-command results, shows text responses. No experiments needed.",
    uuids: { header: "a6be58f4-c5b9-475c-aca8-6090111cc5ff", module: "7902ab70-ebcc-41f9-a14a-9822490ceb91" },
    dependencies: [SERVER, SERVER_UI],
  },
  beta: {
    folder: "mcbews_bridge_beta_bp",
    mcaddon: "mcbews_bridge_beta.mcaddon",
    entry: "main.ts",
    simBundle: "sim_beta.js",
    name: "mcbews bridge (beta APIs)",
    description:
      "Companion of mcbews_repl: answers as custom-command results or as chat from a simulated player, carries UI chat, shows text responses. Needs Beta APIs.",
    uuids: { header: "803498c5-8aa2-4678-bd56-98893479baea", module: "48920068-4de3-442c-9e20-df7611dcb89d" },
    dependencies: [SERVER, SERVER_UI, GAMETEST],
  },
};

/** The behavior pack manifest of `pack` ("stable" or "beta"). */
export function manifest(pack) {
  const spec = PACKS[pack];
  return {
    format_version: 2,
    header: {
      name: spec.name,
      description: spec.description,
      uuid: spec.uuids.header,
      version: PACK_VERSION,
      min_engine_version: MIN_ENGINE_VERSION,
    },
    modules: [
      {
        type: "script",
        language: "javascript",
        uuid: spec.uuids.module,
        version: PACK_VERSION,
        entry: "scripts/main.js",
      },
    ],
    dependencies: spec.dependencies.map((d) => ({ ...d })),
  };
}

// --- checksums ------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes) {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function u32be(n) {
  return Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

/** A zlib stream made of stored (uncompressed) deflate blocks. */
function zlibStored(data) {
  const parts = [Buffer.from([0x78, 0x01])];
  let pos = 0;
  do {
    const block = data.subarray(pos, pos + 65535);
    pos += block.length;
    const final = pos >= data.length ? 1 : 0;
    const len = block.length;
    parts.push(Buffer.from([final, len & 255, len >>> 8, ~len & 255, (~len >>> 8) & 255]), block);
  } while (pos < data.length);
  parts.push(u32be(adler32(data)));
  return Buffer.concat(parts);
}

// --- the icon -------------------------------------------------------------------------------

function pngChunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))]);
}

/** A 64x64 RGB icon: a stone-blue field with a bridge arch over water, drawn in code. */
export function packIcon(size = 64) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0]; // filter type: none
    for (let x = 0; x < size; x++) row.push(...iconPixel(x, y, size));
    rows.push(Buffer.from(row));
  }
  const ihdr = Buffer.concat([u32be(size), u32be(size), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlibStored(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function iconPixel(x, y, size) {
  const border = x < 3 || y < 3 || x >= size - 3 || y >= size - 3;
  if (border) return [40, 48, 64];
  const deck = y >= 30 && y < 34;
  const dx = (x - size / 2) / (size / 2 - 6);
  const arch = y >= 34 && y < 46 && Math.abs(y - (34 + 12 * dx * dx)) < 1.6;
  const pillar = (x >= 8 && x < 12) || (x >= size - 12 && x < size - 8);
  if (deck || arch || (pillar && y >= 30 && y < 52)) return [236, 232, 220];
  if (y >= 52) return (x + y) % 8 < 4 ? [52, 120, 196] : [64, 136, 212];
  return [92, 160, 92 + Math.floor((y * 64) / size)];
}

// --- zip ------------------------------------------------------------------------------------

const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1;

/** A zip of `entries` ({name, data}) with stored entries, sorted names and fixed times. */
export function zipStored(entries) {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of sorted) {
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time 00:00:00
    local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    local.copy(central, 6, 4, 30); // version needed .. name length, same as the local header
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attrs
    central.writeUInt32LE(0, 38); // external attrs
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}
