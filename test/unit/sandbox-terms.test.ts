// The sandbox checks the terms a payment and an invoice both take (lifetime, fee paid by payer,
// under-paid cover) the same way (src/sandbox/create.ts readTerms): the gateway's refusal for each
// bad value, for both creations.
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/operations/read.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { serveOperation } from '../../src/sandbox/routes.js';

function gateway(): SandboxGateway {
  return new SandboxGateway({
    merchantKey: 'mk',
    payoutKey: 'pk',
    now: () => 1_750_000_000_000,
    baseUrl: () => 'http://127.0.0.1:1',
    schedule: () => () => undefined,
  });
}

const json = (body: unknown): JsonObject => JSON.parse(stringify(body) ?? '') as JsonObject;

const BASE = {
  createPayment: { amount: 25, currency: 'USDT', pay_currency: 'USDT', network: 'TRON' },
  createInvoice: { amount: 25, currency: 'USD' },
} as const;

describe.each(['createPayment', 'createInvoice'] as const)('sandbox %s: the terms', (operation) => {
  const create = (terms: Record<string, unknown>) => serveOperation(gateway(), operation, 'v1', { ...BASE[operation], ...terms }, { merchant_api_key: 'mk' });

  it.each([
    [{ lifetime: 5 }, /lifetime is too short \(minimum \d+ minutes\)/],
    [{ lifetime: 5000 }, /lifetime is too long \(maximum 2880 minutes\)/],
    [{ lifetime: 30.5 }, /lifetime must be a whole number of minutes/],
    [{ fee_paid_by_payer: 2 }, /Invalid fee_paid_by_payer: it must be 0 or 1/],
    [{ under_paid_coverage: 61 }, /under_paid_coverage must not be above \d+/],
  ])('%o is refused', (terms, message) => {
    const reply = create(terms);
    expect(reply.status).toBe(400);
    expect(JSON.stringify(json(reply.body))).toMatch(message);
  });

  it('good terms are kept', () => {
    const reply = create({ lifetime: 30, fee_paid_by_payer: 1, under_paid_coverage: 2.5 });
    expect(reply.status).toBe(200);
  });
});
