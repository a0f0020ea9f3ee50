// What tsconfig.stable.json maps @minecraft/server-gametest to: a module with no exports, so the
// stable pack's code cannot use the beta module (its import fails the type check).
export {};
