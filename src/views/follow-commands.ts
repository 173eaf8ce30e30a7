// The gw command lines that hints print to follow or check a payment again: shell-quoted, with
// --sandbox on sandbox runs. Here, with the views, so that what draws a payment needs nothing of
// the commands' helpers (src/cmdutil/wait.ts re-exports them).
import { shellQuote } from '../output/sanitize.js';

/** How to follow a payment again, for hints: `gw status <id> --wait` (with --sandbox on sandbox runs). */
export function resumeCommand(trackId: string, sandbox: boolean): string {
  // Shell-quoted exactly: control or invisible characters as $'…' escapes, not dropped (a hint is
  // made terminal-safe, which would remove them and name another payment).
  return `gw status ${shellQuote(trackId)} --wait${sandbox ? ' --sandbox' : ''}`;
}

/** A command line for hints: `gw status <id> --api v1` (with --sandbox on sandbox runs). */
export function v1StatusCommand(trackId: string, sandbox: boolean): string {
  return resumeCommand(trackId, sandbox).replace(' --wait', ' --api v1');
}
