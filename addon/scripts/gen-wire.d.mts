// Types for the generator, so the drift test can import it under strict TypeScript.
export const WIRE_JSON: string;
export const WIRE_TS: string;
export function renderWire(manifest: unknown): string;
export function readManifest(): unknown;
