// The values gw's operations hand to commands live in src/domain/values.ts, below both the
// operations and the domain rules that read them (src/domain/arrival.ts).
export type * from '../domain/values.js';
