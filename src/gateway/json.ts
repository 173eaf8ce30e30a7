// The lossless JSON helpers live in src/util/json.ts (they know no gateway); this name stays for
// the modules that still import it from here.
export * from '../util/json.js';
