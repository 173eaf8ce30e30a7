// The version, written into the bundle at build time (scripts/build.mjs reads package.json).
declare const __GW_VERSION__: string | undefined;
export const VERSION: string = typeof __GW_VERSION__ === 'string' ? __GW_VERSION__ : '0.0.0-dev';
