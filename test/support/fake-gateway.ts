// A GatewayClient for run-function tests: answers from what the test gives it (values, or errors
// to throw) and records every call, so a test asserts what the command asked and what it printed.
import { GwError } from '../../src/errors.js';
import type {
  Balance,
  CurrenciesEndpoint,
  GatewayClient,
  Payment,
  PaymentFilter,
  PaymentInfo,
  PaymentPage,
  PaymentRequest,
} from '../../src/gateway/gateway.js';
import { decodeBalances } from '../../src/operations/balance.js';
import { decodePayment } from '../../src/operations/create-payment.js';
import { decodePaymentInfo } from '../../src/operations/payment-info.js';
import { parseLossless } from '../../src/util/json.js';
import type { Operation } from '../../src/operations/codec.js';
import type { JsonObject } from '../../src/operations/read.js';
import { Decimal } from '../../src/money/decimal.js';
import { Untrusted } from '../../src/output/untrusted.js';

type Answer<T> = T | GwError | ((...args: never[]) => T | Promise<T>);

export interface FakeAnswers {
  currencies?: Answer<string[]>;
  payment?: Answer<Payment>;
  balances?: Answer<Balance[]>;
  rate?: Answer<string>;
  info?: Answer<PaymentInfo>;
  page?: Answer<PaymentPage>;
  /** perform()'s answers, by the operation's name ("payment information"). */
  performed?: Record<string, Answer<unknown>>;
}

export interface FakeCall {
  method: keyof GatewayClient;
  args: unknown[];
}

export class FakeGateway implements GatewayClient {
  readonly calls: FakeCall[] = [];

  constructor(private readonly answers: FakeAnswers = {}) {}

  private async answer<T>(method: keyof GatewayClient, args: unknown[], answer: Answer<T> | undefined): Promise<T> {
    this.calls.push({ method, args });
    if (answer === undefined) throw new Error(`fake gateway: no answer for ${method}`);
    if (answer instanceof GwError) throw answer;
    if (typeof answer === 'function') return (answer as (...a: unknown[]) => T | Promise<T>)(...args);
    return answer;
  }

  async acceptedCurrencies(endpoint?: CurrenciesEndpoint): Promise<Untrusted[]> {
    const list = await this.answer('acceptedCurrencies', [endpoint], this.answers.currencies);
    return list.map((s) => Untrusted.of(s));
  }

  createPayment(request: PaymentRequest): Promise<Payment> {
    return this.answer('createPayment', [request], this.answers.payment);
  }

  balances(currency?: string): Promise<Balance[]> {
    return this.answer('balances', [currency], this.answers.balances);
  }

  async rate(from: string, to: string): Promise<Decimal> {
    const rate = await this.answer('rate', [from, to], this.answers.rate);
    return Decimal.fromLiteral(rate) as Decimal;
  }

  paymentInfo(trackId: string): Promise<PaymentInfo> {
    return this.answer('paymentInfo', [trackId], this.answers.info);
  }

  payments(filter: PaymentFilter): Promise<PaymentPage> {
    return this.answer('payments', [filter], this.answers.page);
  }

  perform<Req, Ans>(operation: Operation<Req, Ans, never>, request: Req): Promise<Ans> {
    return this.answer('perform', [operation.name, request], this.answers.performed?.[operation.name] as Answer<Ans> | undefined);
  }
}

/** A Payment as the gateway's JSON answer would give it (the legacy field names). */
export function paymentOf(fields: Record<string, unknown>): Payment {
  return decodePayment(parseLossless(JSON.stringify({ trackId: '184729305', ...fields })) as JsonObject, 'the test');
}

/** A PaymentInfo as the inquiry answer would give it. */
export function paymentInfoOf(fields: Record<string, unknown>): PaymentInfo {
  return decodePaymentInfo(parseLossless(JSON.stringify({ trackId: '184729305', ...fields })) as JsonObject, 'the test');
}

/** Balances from the answer's `data` (any shape the interface allows). */
export function balancesOf(data: unknown): Balance[] {
  return decodeBalances(parseLossless(JSON.stringify(data)), 'the test');
}

/** A payment of 25 USDT on Tron, expiring an hour after `now` (ms). */
export function tronPayment(now: number, extra: Record<string, unknown> = {}): Payment {
  return paymentOf({
    amount: '25',
    currency: 'USDT',
    payAmount: '25',
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
    rate: '1',
    lifeTime: 60,
    orderId: 'ORD-7',
    expiredAt: Math.floor(now / 1000) + 3600,
    createdAt: Math.floor(now / 1000),
    ...extra,
  });
}
