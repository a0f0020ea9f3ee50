import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const mock = (name: string): string => fileURLToPath(new URL(`./test/mocks/${name}.ts`, import.meta.url));

// The @minecraft/* npm packages ship typings only; tests run against hand-written mocks.
export default defineConfig({
  resolve: {
    alias: {
      "@minecraft/server-ui": mock("server-ui"),
      "@minecraft/server-gametest": mock("server-gametest"),
      "@minecraft/server": mock("server"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
  },
});
