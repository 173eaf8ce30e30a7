// The config files a command reads, found and read in one step: where no candidate file exists
// (a few existsSync calls, candidates.ts) nothing is read and the reader (load.ts) is never
// loaded; otherwise loadConfigFiles reads them, or the one --config file.
import { mayHaveConfig, type SearchOrigin } from './candidates.js';
import type { LoadOptions, LoadResult } from './load.js';

/** The layers to resolve: the files read, or none. */
export async function readConfigFiles(origin: SearchOrigin, options: Omit<LoadOptions, keyof SearchOrigin> = {}): Promise<LoadResult> {
  if (options.explicitFile === undefined && !mayHaveConfig(origin)) return { layers: [], looked: [], skipped: [] };
  const { loadConfigFiles } = await import('./load.js');
  return loadConfigFiles({ ...origin, ...options });
}
