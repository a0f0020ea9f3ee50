// The emulated game client of benchmarks/bench_peers.py: what Minecraft Bedrock does after
// `/connect <url>`, reduced to the parts a command benchmark touches, so every server under
// test faces the same game.
//
//   node emulated_game.mjs '{"url": "ws://127.0.0.1:PORT/path", "connections": 1, "delayMs": 0}'
//
// - It opens `connections` WebSocket connections to `url` (one per game client) and prints
//   {"event":"connected","connections":N} once all are open.
// - `subscribe` / `unsubscribe` get a commandResponse {"statusCode":0} (as the game does).
// - `commandRequest`: at most 100 in flight per connection (docs/protocol.md, "Limits");
//   the 101st is answered with the game's `error` frame (TooManyPendingRequests,
//   -2147418109) and not executed. The others are answered after `delayMs` (0: at once)
//   with the game's commandResponse body for that command.
// - It counts what it received, answered and refused. A line "report" on stdin prints the
//   counts as one JSON line; end of stdin prints them and exits.
//
// The wsencrypt subprotocol is not offered: the `ws` client rejects a handshake in which
// a server declines an offered subprotocol, and no server here is asked to encrypt.
// `ws` comes from the cache folder the harness installs it into (BENCH_NODE_PREFIX).

import { loadPackage } from "./load_package.mjs";

const ws = await loadPackage("ws");
const WebSocket = ws.default ?? ws.WebSocket;

const MAX_IN_FLIGHT = 100;
const TOO_MANY_PENDING = -2147418109;
const TOO_MANY_PENDING_MESSAGE = "Too many commands have been requested, wait for one to be done";
const COMMAND_NOT_FOUND = -2147483647;
const LOCAL_PLAYER = "Steve";

const config = JSON.parse(process.argv[2] ?? "{}");
const delayMs = Number(config.delayMs ?? 0);
const counts = {
  received: 0, // commandRequest frames
  answered: 0, // commandResponse sent (the command ran)
  refused: 0, // error frame TooManyPendingRequests (the command did not run)
  subscribes: 0,
  other: 0, // frames of any other purpose, or not JSON
  peakInFlight: 0,
  connections: 0,
  closedEarly: 0, // connections the server closed before the report
  socketErrors: 0,
};

// The body the game answers for a command line (field names as docs/protocol.md, "Frames", lists).
function commandBody(line) {
  const name = line.trim().split(/\s+/, 1)[0].replace(/^\//, "").toLowerCase();
  switch (name) {
    case "getlocalplayername":
      return { statusCode: 0, statusMessage: LOCAL_PLAYER, localplayername: LOCAL_PLAYER };
    case "testfor":
      return { statusCode: 0, statusMessage: `Found ${LOCAL_PLAYER}`, victim: [LOCAL_PLAYER] };
    case "say":
      return { statusCode: 0, statusMessage: line.slice(4), message: line.slice(4) };
    default:
      return {
        statusCode: COMMAND_NOT_FOUND,
        statusMessage: `Unknown command: ${name}. Please check that the command exists and that you have permission to use it.`,
      };
  }
}

function frame(purpose, requestId, body) {
  return JSON.stringify({ body, header: { messagePurpose: purpose, requestId, version: 1 } });
}

function play(socket) {
  let inFlight = 0;
  const answer = (requestId, line) => {
    inFlight -= 1;
    counts.answered += 1;
    socket.send(frame("commandResponse", requestId, commandBody(line)));
  };
  socket.on("message", (data) => {
    let header, body;
    try {
      ({ header, body } = JSON.parse(String(data)));
      header.messagePurpose; // a frame without a header is "other"
    } catch {
      counts.other += 1;
      return;
    }
    const requestId = String(header.requestId ?? "");
    switch (header.messagePurpose) {
      case "subscribe":
      case "unsubscribe":
        counts.subscribes += 1;
        socket.send(frame("commandResponse", requestId, { statusCode: 0 }));
        return;
      case "commandRequest": {
        counts.received += 1;
        if (inFlight >= MAX_IN_FLIGHT) {
          counts.refused += 1;
          const refusal = { statusCode: TOO_MANY_PENDING, statusMessage: TOO_MANY_PENDING_MESSAGE };
          socket.send(frame("error", requestId, refusal));
          return;
        }
        inFlight += 1;
        counts.peakInFlight = Math.max(counts.peakInFlight, inFlight);
        const line = String(body?.commandLine ?? "");
        if (delayMs > 0) setTimeout(answer, delayMs, requestId, line);
        else answer(requestId, line);
        return;
      }
      default:
        counts.other += 1;
    }
  });
}

function open(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once("open", () => {
      counts.connections += 1;
      play(socket);
      socket.on("error", () => {
        counts.socketErrors += 1;
      });
      socket.once("close", () => {
        if (!reporting) counts.closedEarly += 1;
      });
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

let reporting = false;
const sockets = [];
for (let i = 0; i < Number(config.connections ?? 1); i++) sockets.push(await open(config.url));
process.stdout.write(JSON.stringify({ event: "connected", connections: sockets.length }) + "\n");

function report() {
  process.stdout.write(JSON.stringify({ event: "report", ...counts }) + "\n");
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline).trim();
    pending = pending.slice(newline + 1);
    if (line === "report") report();
  }
});
process.stdin.on("end", () => {
  reporting = true;
  report();
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});
