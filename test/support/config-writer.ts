// A child process for test/unit/config-lock.test.ts: one gw config writer, bundled by the test with
// esbuild and started as a separate `node` process, so the lock is tested across processes.
// argv: <config file> <start at (epoch ms)> <action: set|unset> <key path, dot-separated> [value]
// It waits until the start time (so all writers start together), then edits the file through
// editConfigFile, holding the document for HOLD_MS inside the edit (a slow writer), and prints one
// JSON line: {"ok": true} or {"ok": false, "exitCode", "message"}.
import { editConfigFile } from '../../src/config/write.js';
import { GwError } from '../../src/errors.js';

const HOLD_MS = 15;

const [file = '', startAt = '0', action = 'set', keyPath = '', value = ''] = process.argv.slice(2);
const keys = keyPath.split('.');
const sleepSync = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

setTimeout(
  async () => {
    try {
      await editConfigFile({ file, format: file.endsWith('.json') ? 'json' : 'yaml', exists: false }, (doc) => {
        // Read, think, write: without the lock another writer's change lands in this window and is lost.
        sleepSync(HOLD_MS);
        if (action === 'unset') return doc.delete(keys);
        doc.set(keys, value);
        return true;
      });
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    } catch (error) {
      const exitCode = error instanceof GwError ? error.exitCode : 70;
      process.stdout.write(`${JSON.stringify({ ok: false, exitCode, message: String((error as Error).message) })}\n`);
      process.exitCode = exitCode;
    }
  },
  Math.max(0, Number(startAt) - Date.now()),
);
