// mcpews 4.0.1's side of benchmarks/bench_peers.py (Node; the package comes from the cache
// folder the harness installs it into, BENCH_NODE_PREFIX).
//
//   node --expose-gc serve_mcpews.mjs '{"mode": "burst", "commands": 10000, "window": 100}'
//
// API used (dist/lib/app.js of 4.0.1): `new WSApp(port)`, its `session` event (one
// AppSession per connection), and `await session.command(line)`, which resolves with the
// commandResponse frame and rejects when its statusCode has bit 31 set. The library has no
// window; an `error` frame from the game (TooManyPendingRequests) is emitted on the session
// as `clientError`, which rejects every command() pending on that session, so the harness
// gives it a caller-side window of 100 (`window` in the config).
//
// The measuring is the same as benchmarks/peers/driver.py, which documents the modes
// (seq, burst, rss) and the printed JSON.

import { loadPackage } from "./load_package.mjs";

const { WSApp } = await loadPackage("mcpews");

const DEFAULT_SETTLE_MS = 3000;
const config = JSON.parse(process.argv[2]);
const line = config.line ?? "testfor @s";
const settleMs = (config.settle_s ?? DEFAULT_SETTLE_MS / 1000) * 1000;
const wanted = Number(config.connections ?? 1);

function rssBytes() {
  globalThis.gc?.(); // --expose-gc: measure live memory, as the Python side does after gc
  return process.memoryUsage.rss();
}

function print(event) {
  process.stdout.write(JSON.stringify(event) + "\n");
}

// A caller-side window: at most `size` commands of this wrapper in flight.
function windowed(issue, size) {
  if (!(size > 0)) return issue;
  let free = size;
  const waiting = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return async (session) => {
    if (free > 0) free -= 1;
    else await new Promise((resolve) => waiting.push(resolve));
    try {
      return await issue(session);
    } finally {
      release();
    }
  };
}

async function issue(session) {
  await session.command(line);
  return true; // command() rejects on a failure status
}

async function batch(wrapped, targets) {
  const tally = { ok: 0, failed: 0, errors: {}, settled: 0 };
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let lastSettled = start;
  let allSettled;
  const done = new Promise((resolve) => (allSettled = resolve));
  for (const target of targets) {
    wrapped(target).then(
      () => (tally.ok += 1),
      (err) => {
        tally.failed += 1;
        const name = err?.constructor?.name ?? "Error";
        tally.errors[name] = (tally.errors[name] ?? 0) + 1;
      },
    ).finally(() => {
      tally.settled += 1;
      lastSettled = performance.now();
      if (tally.settled === targets.length) allSettled();
    });
  }
  let stalled = false;
  while (tally.settled < targets.length && !stalled) {
    const before = tally.settled;
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, settleMs))]);
    stalled = tally.settled === before && tally.settled < targets.length;
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    ok: tally.ok,
    failed: tally.failed,
    errors: tally.errors,
    lost: targets.length - tally.settled,
    elapsed_s: (lastSettled - start) / 1000,
    cpu_s: (cpu.user + cpu.system) / 1e6,
  };
}

// The harness alone: the same batch with a command that only yields once to the event loop
// (driver.py's stand-in), so the library's own CPU is the whole process's minus this.
async function harnessCpu(targets, window) {
  const standIn = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return true;
  };
  const runs = [];
  for (let k = 0; k < 3; k++) runs.push((await batch(windowed(standIn, window), targets)).cpu_s);
  return runs.sort((a, b) => a - b)[1];
}

async function sequential(session, count) {
  const latencies = [];
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    try {
      await issue(session);
      ok += 1;
    } catch {
      // counted as failed below
    }
    latencies.push(Math.round(Number(process.hrtime.bigint() - start) / 100) / 10);
  }
  return { ok, failed: count - ok, latencies_us: latencies };
}

async function measure(sessions, rssBefore) {
  const count = Number(config.commands);
  for (let i = 0; i < 10; i++) await issue(sessions[0]); // warm up, as driver.py does
  let result;
  if (config.mode === "seq") {
    result = await sequential(sessions[0], count);
  } else if (config.mode === "burst") {
    const targets = Array(count).fill(sessions[0]);
    result = await batch(windowed(issue, config.window), targets);
    result.harness_cpu_s = await harnessCpu(targets, config.window);
  } else if (config.mode === "rss") {
    const own = new Map(sessions.map((s) => [s, windowed(issue, config.window)]));
    const targets = sessions.flatMap((s) => Array(count).fill(s));
    result = await batch((s) => own.get(s)(s), targets);
    result.rss_before = rssBefore;
    result.rss_after = rssBytes();
  } else {
    throw new Error(`unknown mode ${config.mode}`);
  }
  print({ event: "result", ...result, mode: config.mode, commands: count, connections: sessions.length });
}

const rssBefore = rssBytes();
const app = new WSApp(0);
const sessions = [];
app.on("session", ({ session }) => {
  sessions.push(session);
  if (sessions.length === wanted) {
    measure(sessions, rssBefore).then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  }
});
app.server.once("listening", () => {
  print({ event: "listening", url: `ws://127.0.0.1:${app.server.address().port}` });
});
