// Global setup of the test run: builds dist/ from the current source before any end-to-end test
// runs, however the suite was started (npm test, npm run test:e2e, or npx vitest run
// test/e2e/x.test.ts). --if-changed: the build is skipped when dist/ was built from these very
// sources (scripts/build.mjs keeps a digest of src/, bin/, the build script and the lock file), as
// after `npm ci` in CI.
//
// One exception: a run whose command line names only in-process test files or directories (npm run
// test:unit, npx vitest run test/unit/qr.test.ts) needs no bundle and does not wait for one.
// Anything else on the command line that is not an option (a name pattern, another path, an
// option's value) counts as "may include an end-to-end file": the build check runs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const IN_PROCESS = /^(\.\/)?test\/(unit|commands|cli)(\/|$)/;

/**
 * `vitest run` with file filters only, each of them an in-process test path: no end-to-end file can
 * run. (Not watch mode: its filters can change while it runs.)
 */
export function onlyInProcessTests(argv: readonly string[]): boolean {
  const run = argv.indexOf('run');
  const rest = argv.slice(run + 1).filter((arg) => !arg.startsWith('-'));
  return run !== -1 && rest.length > 0 && rest.every((arg) => IN_PROCESS.test(arg.replaceAll('\\', '/')));
}

export default function setup(): void {
  if (onlyInProcessTests(process.argv)) return;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-changed'], { cwd: root, stdio: 'inherit' });
}
