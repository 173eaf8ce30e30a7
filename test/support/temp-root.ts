// Global setup of the test run: every temporary file of the run goes under one folder of its own,
// removed when the run ends. The tests' homes and working folders, the certificates, and the gw
// processes the end-to-end tests start all take os.tmpdir(), which reads TMPDIR; the workers and
// those processes inherit it. Without this, each run left some 500 folders in the system's /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const VARIABLE = 'GW_TEST_RUN_TMPDIR';

export default function setup(): () => void {
  // Both projects list this file: the second setup finds the folder the first one made.
  const existing = process.env[VARIABLE];
  const root = existing ?? mkdtempSync(path.join(tmpdir(), 'gw-test-run-'));
  process.env[VARIABLE] = root;
  process.env.TMPDIR = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
  };
}
