// Node's runtime warnings reach the user through gw, for every command (src/main.ts): one
// sanitised `gw: warning: the runtime warns: …` line (a JSON line with --json: see
// test/unit/iostreams.test.ts), never Node's raw multi-line text with its "(Use `node
// --trace-warnings ...`)" advice. A preloaded module emits one as the process starts, as a
// deprecated API or an insecure TLS setting would.
import { afterAll, describe, expect, it } from 'vitest';
import { gw, removeDir, tempDir, writeFile } from '../support/gw.js';

const dir = tempDir('gw-warnings-');
afterAll(() => removeDir(dir));
// Emitted as the process starts; Node dispatches it once gw's entry has run.
const preload = writeFile(dir, 'warn.cjs', "process.emitWarning('something odd\\n    at second line', 'ExampleWarning');\n");

describe('runtime warnings, outside gw listen', () => {
  it('gw completion bash: one gw warning line, exit 0', async () => {
    const r = await gw(['completion', 'bash'], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('gw: warning: the runtime warns: ExampleWarning: something odd\n');
  });

  it('NODE_NO_WARNINGS=1 still silences them', async () => {
    const r = await gw(['completion', 'bash'], { env: { NODE_OPTIONS: `--require ${preload}`, NODE_NO_WARNINGS: '1' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });
});
