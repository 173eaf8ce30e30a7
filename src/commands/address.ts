// gw address new [currency] --network <network> | list | revoke <address>: fixed (static) deposit
// addresses, each taking any number of payments (docs/gateway.md §11). The gateway has them only in
// its versioned API, so they go over it with the merchant key whatever `api` says. A new address
// is checked for its network like every address gw shows (src/payment-uri) and shown with its QR:
// a coin URI without an amount (the currency only shapes that URI), its memo inside the URI where
// the scheme carries one, and no QR where it cannot (as gw pay). An address that fails the check
// is never shown as payable: one line, exit 76. Payments to an address: gw payments --address.
import { Command } from 'commander';
import { parseHttpUrl, parseOrderId, parseSymbol, parseText, parseTrackId, qrChoice } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { keepHeapFlat } from '../cmdutil/stream-heap.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { type AddressListing, DEFAULT_ADDRESS_PAGE_SIZE, listStaticAddresses, MAX_ADDRESS_PAGES } from '../gateway/static-addresses.js';
import { CREATE_STATIC_ADDRESS, type StaticAddress, type StaticAddressRequest } from '../operations/static-address.js';
import { MAX_ADDRESS_PAGE_SIZE, type StaticAddressFilter } from '../operations/static-address-list.js';
import { REVOKE_STATIC_ADDRESS } from '../operations/static-address-revoke.js';
import type { IOStreams } from '../output/iostreams.js';
import { jsonArrayEnd, jsonArrayPage } from '../output/json.js';
import { terminalSafe } from '../output/sanitize.js';
import { renderDetails, renderTable, type DetailRow, visibleWidth, widest } from '../output/table.js';
import { localDateTime, parseTimestamp } from '../output/time.js';
import { Untrusted } from '../output/untrusted.js';
import { maskUrlText } from '../output/url-credentials.js';
import { cellWidth, wrapText } from '../output/wrap.js';
import type { PaymentUri } from '../payment-uri/uri.js';
import { terminalQr } from '../views/terminal-qr.js';

export interface AddressNewOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  request: StaticAddressRequest;
  /** The coin the QR's URI names (the native coin of the network when absent). */
  currency?: string;
  qr: 'auto' | 'always' | 'never';
}

export interface AddressListOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  filter: StaticAddressFilter;
  all: boolean;
}

export interface AddressRevokeOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  address: string;
  /** --yes: revoke without asking. */
  yes: boolean;
}

interface NewFlags {
  network?: string;
  orderId?: string;
  email?: string;
  description?: string;
  callbackUrl?: string;
  toCurrency?: string;
  autoWithdrawal?: boolean;
  qr?: boolean;
}

interface ListFlags {
  network?: string;
  currency?: string;
  address?: string;
  trackId?: string;
  orderId?: string;
  email?: string;
  withPayments?: boolean;
  withoutPayments?: boolean;
  page?: string;
  size?: string;
  all?: boolean;
}

/** An address as typed: printable, no spaces, of a sane length (the network's own check comes from the gateway's answer). */
export function parseAddress(text: string, what = '<address>'): string {
  const address = parseText(text.trim(), what, 200);
  if (address === '' || /\s/.test(address)) throw new UsageError(`${what} must be an address without spaces (got "${text.slice(0, 60)}")`);
  return address;
}

function parseEmail(text: string, flag: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw new UsageError(`${flag} must be an e-mail address (got "${text.slice(0, 60)}")`);
  return text;
}

function parseCount(text: string, flag: string, min: number, max: number): number {
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text.slice(0, 20)}")`);
  return n;
}

/** The request `gw address new` sends, checked before anything is sent (exit 64). */
export function buildAddressRequest(flags: NewFlags): StaticAddressRequest {
  if (flags.network === undefined || flags.network.trim() === '')
    throw new UsageError('--network is required: the gateway makes an address per network (e.g. --network TRON)');
  const request: StaticAddressRequest = { network: parseText(flags.network.trim(), '--network', 60) };
  if (flags.toCurrency !== undefined) request.toCurrency = parseSymbol(flags.toCurrency, '--to-currency');
  if (flags.autoWithdrawal === true) request.autoWithdrawal = true;
  if (flags.callbackUrl !== undefined) {
    parseHttpUrl(flags.callbackUrl, '--callback-url', { credentials: 'allowed' });
    request.callbackUrl = flags.callbackUrl;
  }
  if (flags.email !== undefined) request.email = parseEmail(flags.email, '--email');
  if (flags.orderId !== undefined) request.orderId = parseOrderId(flags.orderId);
  if (flags.description !== undefined) request.description = parseText(flags.description, '--description');
  return request;
}

/** The filter `gw address list` sends, checked before anything is sent (exit 64). */
export function buildAddressFilter(flags: ListFlags): { filter: StaticAddressFilter; all: boolean } {
  const filter: StaticAddressFilter = {};
  if (flags.trackId !== undefined) filter.trackId = parseTrackId(flags.trackId, '--track-id');
  if (flags.network !== undefined) filter.network = parseText(flags.network.trim(), '--network', 60);
  if (flags.currency !== undefined) filter.currency = parseSymbol(flags.currency, '--currency');
  if (flags.address !== undefined) filter.address = parseAddress(flags.address, '--address');
  if (flags.orderId !== undefined) filter.orderId = parseText(flags.orderId, '--order-id', 100);
  if (flags.email !== undefined) filter.email = parseEmail(flags.email, '--email');
  if (flags.withPayments === true && flags.withoutPayments === true) throw new UsageError('--with-payments and --without-payments exclude each other');
  if (flags.withPayments === true) filter.haveTx = true;
  if (flags.withoutPayments === true) filter.haveTx = false;
  const all = flags.all === true;
  if (all && flags.page !== undefined) throw new UsageError('--all reads every page: leave out --page');
  if (flags.page !== undefined) filter.page = parseCount(flags.page, '--page', 1, 1_000_000);
  if (flags.size !== undefined) filter.size = parseCount(flags.size, '--size', 1, MAX_ADDRESS_PAGE_SIZE);
  return { filter, all };
}

export function newCmdAddress(
  f: Factory,
  newF: (opts: AddressNewOptions) => Promise<void> = addressNewRun,
  listF: (opts: AddressListOptions) => Promise<void> = addressListRun,
  revokeF: (opts: AddressRevokeOptions) => Promise<void> = addressRevokeRun,
): Command {
  const command = new Command('address');
  const create = new Command('new')
    .description('create a fixed deposit address on a network; it takes any number of payments')
    .argument('[currency]', 'the coin the QR code asks for (USDT, BTC…); only the QR’s URI depends on it')
    .option('--network <network>', 'the network the address is on, as the gateway names it (TRON, Bitcoin Network…); required')
    .option('--order-id <id>', 'your reference for the address (for reports)')
    .option('--email <addr>', "the payer's e-mail (for reports)")
    .option('--description <text>', 'free text stored with the address')
    .option('--callback-url <url>', 'where the gateway notifies every payment to the address')
    .option('--to-currency <sym>', 'convert what arrives into this currency (the gateway documents USDT)')
    .option('--auto-withdrawal', 'forward what arrives to your withdrawal address')
    .option('--qr', 'always draw the QR code (on stderr with --json)')
    .option('--no-qr', 'never draw the QR code')
    .action((currency: string | undefined, flags: NewFlags) => {
      const request = buildAddressRequest(flags);
      return newF({
        io: f.io,
        gateway: () => f.gateway(),
        request,
        ...(currency !== undefined && { currency: parseSymbol(currency, '[currency]') }),
        qr: qrChoice(flags.qr),
      });
    });
  withHelp(create, {
    examples: ['gw address new USDT --network TRON --order-id customer-42', 'gw address new BTC --network "Bitcoin Network" --json'],
    json: '{"trackId", "address", "network", "memo", "currency", "uri", …every field the gateway sent} ("uri" null when no QR may be shown: a memo the URI cannot carry)',
  });
  const list = new Command('list')
    .description('list your fixed addresses, newest first, with filters')
    .option('--network <network>', 'only addresses on this network')
    .option('--currency <sym>', 'only addresses for this coin')
    .option('--address <address>', 'only this address')
    .option('--track-id <id>', 'only the address with this track id')
    .option('--order-id <id>', 'only addresses with this order id')
    .option('--email <addr>', 'only addresses with this e-mail')
    .option('--with-payments', 'only addresses that have received a payment')
    .option('--without-payments', 'only addresses that have received none')
    .option('--page <n>', 'page number, from 1')
    .option('--size <n>', `addresses per page, 1–${MAX_ADDRESS_PAGE_SIZE} (default ${DEFAULT_ADDRESS_PAGE_SIZE})`)
    .option('--all', `every page (at most ${MAX_ADDRESS_PAGES} pages of ${MAX_ADDRESS_PAGE_SIZE})`)
    .action((flags: ListFlags) => {
      const { filter, all } = buildAddressFilter(flags);
      return listF({ io: f.io, gateway: () => f.gateway(), filter, all });
    });
  withHelp(list, {
    examples: ['gw address list --network TRON', 'gw address list --all --json | jq -r ".addresses[].address"'],
    json: '{"addresses": [{"trackId", "address", "network", "orderId", …every field the gateway sent}], "page", "pages", "total", "complete"}',
  });
  const revoke = new Command('revoke')
    .description('revoke a fixed address: payments to it are no longer credited (asks first)')
    .argument('<address>', 'the address to revoke')
    .option('--yes', 'revoke without asking (for scripts)')
    .action((address: string, flags: { yes?: boolean }) =>
      revokeF({ io: f.io, gateway: () => f.gateway(), address: parseAddress(address), yes: flags.yes === true }),
    );
  withHelp(revoke, {
    examples: ['gw address revoke TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', 'gw address revoke TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe --yes --json'],
    json: '{"address", "revoked": true}',
  });
  return command.addCommand(create).addCommand(list).addCommand(revoke);
}

/** Failures after which the request may have reached the gateway (it is never sent again): what may have happened, and how to check. */
const UNCERTAIN: ReadonlySet<number> = new Set([ExitCode.TEMPFAIL, ExitCode.UNAVAILABLE, ExitCode.PROTOCOL, ExitCode.INTERRUPTED, ExitCode.TERMINATED]);

function mayHaveHappened(error: unknown, what: string, check: string): unknown {
  if (!(error instanceof GwError) || !UNCERTAIN.has(error.exitCode)) return error;
  return error.with({ message: `${error.message}: ${what}`, hint: `check with ${check} before trying again` });
}

// --- gw address new -------------------------------------------------------------------------------

/**
 * The URI of a fixed address: a coin URI without an amount, the memo inside where the scheme
 * carries one (qr false where it cannot). Throws the ProtocolError (exit 76) of an address that is
 * not valid for its network.
 */
export async function addressUri(address: StaticAddress, requestedNetwork: string, currency: string | undefined): Promise<PaymentUri> {
  const { buildPaymentUri, matchNetwork, NETWORKS } = await import('../payment-uri/index.js');
  const network = address.network?.raw() || requestedNetwork;
  const id = matchNetwork(network, currency ?? '');
  const coin = currency ?? (id === undefined ? '' : NETWORKS[id].nativeSymbol);
  return buildPaymentUri({ network, payCurrency: coin, address: address.address.raw(), payAmount: '0', memo: address.memo?.raw() ?? null });
}

/** A [currency] gw knows on no such network (BTC on Tron): its URI holds only the address, and the payer may send the wrong coin. */
async function warnUnknownCoin(io: IOStreams, network: string, currency: string | undefined): Promise<void> {
  if (currency === undefined) return;
  const { resolveAsset } = await import('../payment-uri/index.js');
  const asset = resolveAsset(network, currency);
  if (asset.kind === 'unlisted')
    io.warn(`gw knows no ${currency} on ${asset.network.name}: the QR code holds only the address; make sure the payer sends a coin of this network`);
}

export async function addressNewRun(opts: AddressNewOptions): Promise<void> {
  const { io } = opts;
  const gateway = await opts.gateway();
  let address: StaticAddress;
  try {
    address = await gateway.perform(CREATE_STATIC_ADDRESS, opts.request);
  } catch (error) {
    throw mayHaveHappened(
      error,
      'an address may have been created',
      opts.request.orderId === undefined ? 'gw address list' : `gw address list --order-id ${opts.request.orderId}`,
    );
  }
  let uri: PaymentUri;
  try {
    uri = await addressUri(address, opts.request.network, opts.currency);
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    // Nothing of it is shown: an address that fails its network's check must not reach a payer.
    throw error.with({
      message: `${address.trackId === null ? 'a static address' : `static address ${address.trackId}`} was created, but ${error.message}; it is not shown`,
      hint: `do not take payments to it; check it with the gateway (gw address list${address.trackId === null ? '' : ` --track-id ${address.trackId}`}) and revoke it`,
    });
  }
  const wantQr = uri.qr && (opts.qr === 'always' || (opts.qr === 'auto' && io.drawQrByDefault()));
  await warnUnknownCoin(io, address.network?.raw() || opts.request.network, opts.currency);
  if (io.json) {
    io.printJson({
      ...address.fields,
      trackId: address.trackId,
      address: address.address,
      network: address.network ?? opts.request.network,
      memo: address.memo,
      currency: opts.currency ?? null,
      uri: uri.qr ? uri.uri : null,
    });
    if (wantQr) io.err(await terminalQr(io, uri.uri, 'enlarge the terminal'));
    return;
  }
  io.sandboxBanner();
  const { chalk } = io;
  const shownNetwork = address.network?.toString() || Untrusted.of(opts.request.network).toString();
  const addressRow: DetailRow = { label: 'Address', value: chalk.bold(address.address.toString()) };
  const rows: DetailRow[] = [
    ...(wantQr ? [] : [addressRow]),
    { label: 'Network', value: uri.networkId !== undefined && uri.networkName !== shownNetwork ? `${uri.networkName} (${shownNetwork})` : shownNetwork },
  ];
  if (uri.memo !== undefined)
    rows.push({
      label: 'Memo',
      value: `${chalk.bold(Untrusted.of(uri.memo).toString())}  ${chalk.yellow('(required with every payment: without it a payment cannot be credited)')}`,
    });
  if (opts.currency !== undefined) rows.push({ label: 'Currency', value: opts.currency });
  if (address.trackId !== null) rows.push({ label: 'Track ID', value: address.trackId.toString() });
  if (address.orderId && !address.orderId.isBlank) rows.push({ label: 'Order ID', value: address.orderId.toString() });
  if (address.description && !address.description.isBlank) rows.push({ label: 'Description', value: address.description.toString() });
  if (address.email && !address.email.isBlank) rows.push({ label: 'Payer e-mail', value: address.email.toString() });
  if (address.callbackUrl && !address.callbackUrl.isBlank) rows.push({ label: 'Callback', value: maskUrlText(address.callbackUrl.toString()) });
  if (uri.qr) rows.push({ label: 'URI', value: uri.uri });
  // Rendered together so that the labels align; on a terminal the address's row goes under its QR.
  const details = renderDetails(wantQr ? [...rows, addressRow] : rows);
  const cut = wantQr ? details.lastIndexOf('\n', details.length - 2) + 1 : details.length;
  const below = details.slice(cut);
  let text = details.slice(0, cut);
  if (!uri.qr)
    text += `\n${chalk.bold.yellow(`No QR code: ${uri.qrRefusal ?? 'the memo cannot go in one'}.`)} The payer must send to the address above with the memo ${chalk.bold(Untrusted.of(uri.memo ?? '').toString())}.\n`;
  const listed = `It takes any amount, any number of times: its payments are listed by gw payments --address ${address.address}\n`;
  text += io.stdoutIsTTY ? wrapText(listed, io.width()) : listed;
  const warning = io.sandbox ? `${chalk.yellow('SANDBOX address: made up, nobody watches it; never send funds to it.')}\n` : '';
  // On a terminal the address goes under its QR, so that both stay on a small screen (the QR is
  // sized for the lines below it: the address, the sandbox warning, the prompt).
  if (wantQr) {
    const lines = Math.ceil(cellWidth(below.trimEnd()) / Math.max(1, io.width())) + (warning === '' ? 0 : 1) + 1;
    text += `\n${await terminalQr(io, uri.uri, 'enlarge the terminal', lines)}${below}`;
  }
  io.out(text + warning);
}

// --- gw address list ------------------------------------------------------------------------------

/** The listed addresses valid for their network (checked as gw address new checks one), and why each other one is not. */
async function checkListed(addresses: readonly StaticAddress[], network: string | undefined): Promise<{ valid: StaticAddress[]; invalid: string[] }> {
  const valid: StaticAddress[] = [];
  const invalid: string[] = [];
  for (const address of addresses) {
    try {
      await addressUri(address, network ?? '', undefined);
      valid.push(address);
    } catch (error) {
      if (!(error instanceof GwError)) throw error;
      invalid.push(`${address.trackId === null ? 'an address' : `address ${address.trackId}`}: ${error.message}`);
    }
  }
  return { valid, invalid };
}

const ADDRESS_COLUMNS = ['Created', 'Track ID', 'Network', 'Address', 'Order ID'] as const;

/** A listed address's table cells (plain text; made terminal-safe where printed). */
function addressCells(a: StaticAddress): string[] {
  const d = parseTimestamp(a.date);
  return [d === undefined ? '' : localDateTime(d).slice(0, 16), a.trackId?.raw() ?? '', a.network?.raw() ?? '', a.address.raw(), a.orderId?.raw() ?? ''];
}

/** The one line (exit 76, or the code of the failure that stopped the reading) that says what the listing lacks. */
function incompleteError(read: AddressListing, invalid: readonly string[], invalidCount: number, shownCount: number): GwError {
  const shown = `${shownCount} address${shownCount === 1 ? '' : 'es'} shown`;
  const why = [
    ...(read.incomplete === undefined ? [] : [read.incomplete]),
    ...(invalidCount === 0
      ? []
      : [`${invalidCount === 1 ? invalid[0] : `${invalidCount} addresses are not valid for their network (${invalid[0]}…)`}; not shown`]),
  ];
  const message = `the listing is incomplete: ${why.join('; ')}; ${shown}`;
  const hint = invalidCount > 0 ? { hint: 'take no payments to an address not shown; check it with the gateway and revoke it' } : {};
  if (read.failure !== undefined) return read.failure.with({ message: `${message}: ${read.failure.message}`, ...hint });
  return new GwError(ExitCode.PROTOCOL, message, hint);
}

export async function addressListRun(opts: AddressListOptions): Promise<void> {
  if (opts.all) return addressListAll(opts);
  const { io } = opts;
  const read = await listStaticAddresses(await opts.gateway(), opts.filter, false);
  // An address not valid for its network is never shown: a merchant could hand it to a payer.
  const { valid, invalid } = await checkListed(read.addresses, opts.filter.network);
  const listing = { ...read, addresses: valid };
  const complete = listing.incomplete === undefined && invalid.length === 0;
  if (io.json) {
    io.printJson({ addresses: listing.addresses.map((a) => ({ ...a.fields })), page: listing.page, pages: listing.pages, total: listing.total, complete });
  } else {
    io.sandboxBanner();
    if (listing.addresses.length === 0) io.out('No addresses match.\n');
    else {
      io.out(renderTable([...ADDRESS_COLUMNS], listing.addresses.map(addressCells)));
      if (complete && listing.pages > 1)
        io.notice(
          `page ${listing.page} of ${listing.pages} (${listing.total} addresses)${listing.page < listing.pages ? `: --page ${listing.page + 1} for the next, --all for every one` : ''}`,
        );
    }
  }
  if (!complete) throw incompleteError(listing, invalid, invalid.length, listing.addresses.length);
}

/**
 * --all: each page written as it is read (the table, its columns sized by the first page, or the
 * JSON document, the same text printJson gives) and none kept, so memory stays flat. A page that
 * fails after the first still ends a valid document, "complete": false, then the one line.
 */
async function addressListAll(opts: AddressListOptions): Promise<void> {
  const { io } = opts;
  const gateway = await opts.gateway();
  const out = new AddressStream(io);
  const invalid: string[] = [];
  let invalidCount = 0;
  const read = await listStaticAddresses(gateway, opts.filter, true, async (rows) => {
    const checked = await checkListed(rows, opts.filter.network);
    invalidCount += checked.invalid.length;
    // The first ones only, for the message: what is kept stays small.
    if (invalid.length < 1) invalid.push(...checked.invalid.slice(0, 1));
    if (checked.valid.length > 0) await out.rows(checked.valid);
  });
  const complete = read.incomplete === undefined && invalidCount === 0;
  await out.end({ page: 1, pages: 1, total: out.count, complete });
  if (!complete) throw incompleteError(read, invalid, invalidCount, out.count);
}

/** The output of gw address list --all, written page by page; a stdout that can no longer take it stops the reading (exit 74). */
class AddressStream {
  #count = 0;
  #widths: number[] | undefined;

  constructor(private readonly io: IOStreams) {}

  get count(): number {
    return this.#count;
  }

  async rows(rows: readonly StaticAddress[]): Promise<void> {
    const { io } = this;
    // From the second page on: a listing of one page does not load node:v8 for it.
    if (this.#count > 0) keepHeapFlat(io);
    if (io.json) {
      // The page as printJson lays it out in the whole document, in one piece.
      io.out(
        jsonArrayPage(
          'addresses',
          rows.map((a) => a.fields),
          this.#count === 0,
        ),
      );
    } else {
      const cells = rows.map((a) => addressCells(a).map((c) => terminalSafe(c)));
      if (this.#widths === undefined) {
        io.sandboxBanner();
        this.#widths = ADDRESS_COLUMNS.map((title, i) => widest([visibleWidth(title), ...cells.map((r) => visibleWidth(r[i] ?? ''))]));
        io.out(this.#line(ADDRESS_COLUMNS));
      }
      io.out(cells.map((r) => this.#line(r)).join(''));
    }
    this.#count += rows.length;
    await this.#check();
  }

  async end(counts: { page: number; pages: number; total: number; complete: boolean }): Promise<void> {
    const { io } = this;
    if (io.json) {
      io.out(jsonArrayEnd('addresses', io.sandbox ? { ...counts, sandbox: true } : counts, this.#count === 0));
    } else if (this.#count === 0) {
      io.sandboxBanner();
      io.out('No addresses match.\n');
    }
    await this.#check();
  }

  /** A row padded to the first page's widths (a wider cell pushes its row), as renderTable lays it out. */
  #line(cells: readonly string[]): string {
    const widths = this.#widths ?? [];
    const padded = cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleWidth(c)))));
    return `${padded.join('  ').trimEnd()}\n`;
  }

  async #check(): Promise<void> {
    await this.io.flush();
    if (this.io.stdoutClosed) {
      const n = this.#count;
      throw new GwError(ExitCode.IOERR, `stdout was closed (EPIPE) after ${n} address${n === 1 ? '' : 'es'}: gw address list --all stopped reading`);
    }
  }
}

// --- gw address revoke ----------------------------------------------------------------------------

export async function addressRevokeRun(opts: AddressRevokeOptions): Promise<void> {
  const { io, address } = opts;
  if (!opts.yes) {
    if (!io.canPrompt()) throw new UsageError(`revoking ${address} needs a yes: run it on a terminal to be asked, or add --yes; nothing was sent`);
    const prompter = await io.prompter();
    const ok = await prompter.confirm({
      message: `Revoke ${Untrusted.of(address).line(80)}? Payments sent to it afterwards are no longer credited.`,
      default: false,
    });
    // Declined: the job was not done, so not 0; the code every declined confirmation has (payout, refund).
    if (!ok) throw new GwError(ExitCode.REFUSED, `${Untrusted.of(address).line(80)} was not revoked: nothing was sent`);
  }
  const gateway = await opts.gateway();
  try {
    await gateway.perform(REVOKE_STATIC_ADDRESS, { address });
  } catch (error) {
    const failure = mayHaveHappened(error, 'it may have been revoked all the same', `gw address list --address ${address}`);
    throw failure instanceof GwError ? failure.with({ message: `${address} could not be revoked: ${failure.message}` }) : failure;
  }
  if (io.json) return io.printJson({ address, revoked: true });
  io.sandboxBanner();
  io.out(`Revoked ${Untrusted.of(address).toString()}: payments sent to it from now on are not credited.\n`);
}
