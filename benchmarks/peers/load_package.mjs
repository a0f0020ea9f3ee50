// Load a package from the cache folder that benchmarks/bench_peers.py installs with npm
// (its path in BENCH_NODE_PREFIX), so nothing is installed beside the benchmark's source.

import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export async function loadPackage(name) {
  const root = process.env.BENCH_NODE_PREFIX;
  if (!root) throw new Error("BENCH_NODE_PREFIX is not set: run this through bench_peers.py");
  const require = createRequire(join(resolve(root), "package.json"));
  return import(pathToFileURL(require.resolve(name)).href);
}
