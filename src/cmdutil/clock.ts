// The Clock lives in src/util/clock.ts; this name stays until every caller imports it from there.
export * from '../util/clock.js';
