// Every command of gw, one row each, in the order help lists them. From this table follow: the
// commands src/cli.ts builds (each module imported only when a command line needs it), the command
// list of the root help and of completion (the row's summary), and the launcher's list of commands
// that get a V8 code cache of their own (scripts/build.mjs writes it into the bundle's first line,
// which bin/gw.cjs reads). Adding a command is its module and one row here (and its tests, docs).
//
// This module imports nothing at run time: the build reads it on its own (scripts/build.mjs), and
// every run of gw loads it. The modules themselves load only through `load`.
import type { Command } from 'commander';
import type { Factory } from '../cmdutil/factory.js';

export interface CommandRow {
  /** The word that names it on the command line. */
  readonly name: string;
  /** Other words for it (Commander's aliases), if any. */
  readonly aliases?: readonly string[];
  /** One line: its entry in `gw --help` and in completion, and the description its help shows (src/cli.ts). */
  readonly summary: string;
  /** Imports the command's module, only when a command line needs it. */
  readonly load: () => Promise<(f: Factory) => Command>;
}

export const COMMANDS: readonly CommandRow[] = [
  {
    name: 'init',
    summary: 'set up gw: gateway URL (or the sandbox), keys checked live, profile; writes your user config file (0600)',
    load: async () => (await import('./init.js')).newCmdInit,
  },
  { name: 'currencies', summary: 'list the currencies the merchant accepts', load: async () => (await import('./currencies.js')).newCmdCurrencies },
  {
    name: 'pay',
    summary: 'create a white-label payment and show it to the payer with a QR code',
    load: async () => (await import('./pay.js')).newCmdPay,
  },
  {
    name: 'counter',
    summary: "a till for the day on the full screen: amount, payment on the counter screen, next customer; the day's summary at the end",
    load: async () => (await import('./counter.js')).newCmdCounter,
  },
  {
    name: 'invoice',
    summary: 'create a payment link (the payer chooses the coin on its page) and show it with a QR code',
    load: async () => (await import('./invoice.js')).newCmdInvoice,
  },
  {
    name: 'status',
    summary: "show a payment's state; with --wait, follow it until it is paid, expires or fails",
    load: async () => (await import('./status.js')).newCmdStatus,
  },
  { name: 'payments', summary: 'list payments, newest first, with filters', load: async () => (await import('./payments.js')).newCmdPayments },
  {
    name: 'report',
    summary: 'totals of a range per day, week or month: payments per state, asked, received, refunds, payouts, net; --in a fiat',
    load: async () => (await import('./report.js')).newCmdReport,
  },
  {
    name: 'address',
    summary: 'fixed deposit addresses that take any number of payments: new (with its QR), list, revoke',
    load: async () => (await import('./address.js')).newCmdAddress,
  },
  {
    name: 'payout',
    summary: 'send a payout (checked, shown and confirmed first; never sent twice); payout status <trackId> [--wait]',
    load: async () => (await import('./payout.js')).newCmdPayout,
  },
  {
    name: 'refund',
    summary: 'refund what arrived for a payment: a payout in its coin and network, checked against earlier refunds, confirmed first',
    load: async () => (await import('./refund.js')).newCmdRefund,
  },
  { name: 'payouts', summary: 'list payouts, newest first, with filters', load: async () => (await import('./payouts.js')).newCmdPayouts },
  { name: 'balance', summary: 'show wallet balances (needs the payout key)', load: async () => (await import('./balance.js')).newCmdBalance },
  { name: 'rate', summary: 'show the exchange rate between two cryptocurrencies', load: async () => (await import('./rate.js')).newCmdRate },
  {
    name: 'config',
    summary: 'show the configuration, where each value comes from and which files were read (keys masked); set, get or unset a value',
    load: async () => (await import('./config.js')).newCmdConfig,
  },
  {
    name: 'doctor',
    summary: 'check the set-up: configuration, proxy, gateway reachable, TLS, each key, clock (for CI and support)',
    load: async () => (await import('./doctor.js')).newCmdDoctor,
  },
  {
    name: 'sandbox',
    summary: 'serve the embedded sandbox gateway (test keys, fake addresses, notifications to callback URLs) until interrupted',
    load: async () => (await import('./sandbox.js')).newCmdSandbox,
  },
  {
    name: 'listen',
    summary: "receive the gateway's payment notifications on this machine: verify each signature, answer as the gateway requires, print each one",
    load: async () => (await import('./listen.js')).newCmdListen,
  },
  {
    name: 'webhook',
    summary: 'check and send payment notifications (webhooks): verify a signature, test your receiver',
    load: async () => (await import('./webhook.js')).newCmdWebhook,
  },
  {
    name: 'completion',
    summary: 'print the shell completion script for bash, zsh or fish',
    load: async () => (await import('./completion.js')).newCmdCompletion,
  },
];

/** The row of the command a word names (its name or an alias), if any. */
export function commandNamed(word: string): CommandRow | undefined {
  return COMMANDS.find((row) => row.name === word || row.aliases?.includes(word));
}

/**
 * What the launcher reads to pick a command's code cache, without loading the CLI: each word that
 * names a command (name or alias) and the command's name. scripts/build.mjs writes it as the
 * bundle's first line, `//gw-commands {…}` (see bin/gw.cjs).
 */
export function launcherCommands(rows: readonly CommandRow[] = COMMANDS): Record<string, string> {
  const words: Record<string, string> = {};
  for (const row of rows) for (const word of [row.name, ...(row.aliases ?? [])]) words[word] = row.name;
  return words;
}
