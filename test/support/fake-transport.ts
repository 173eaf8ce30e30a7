// A Transport stand-in for the gateway clients' tests: records every request, answers from a queue.
import type { RawResponse } from '../../src/gateway/envelope.js';
import type { TransportRequest } from '../../src/gateway/transport.js';

export class FakeTransport {
  readonly requests: TransportRequest[] = [];
  constructor(private readonly answers: RawResponse[] = []) {}
  async send(req: TransportRequest): Promise<RawResponse> {
    this.requests.push(req);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('fake transport: no answer queued');
    return answer;
  }
}
