// Which pack this is and its version, so list_capabilities can say so (the doctor shows it).
// The build sets both (scripts/build.mjs, esbuild `define`, from pack.mjs's PACK_VERSION);
// where nothing set them (the tests) they read "dev".
declare const __MCBEWS_PACK__: string | undefined;
declare const __MCBEWS_VERSION__: string | undefined;

export const ADDON_VERSION: string = typeof __MCBEWS_VERSION__ === "string" ? __MCBEWS_VERSION__ : "dev";
export const ADDON_PACK: string = typeof __MCBEWS_PACK__ === "string" ? __MCBEWS_PACK__ : "dev";
