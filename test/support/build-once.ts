// Global setup of the e2e project: builds dist/ from the current source before any e2e test runs,
// however the suite was started (npm test, npm run test:e2e, or npx vitest run test/e2e/x.test.ts).
// --if-changed: the build is skipped when dist/ was built from these very sources (scripts/build.mjs
// keeps a digest of src/, bin/, the build script and the lock file), as after `npm ci` in CI.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-changed'], { cwd: root, stdio: 'inherit' });
}
