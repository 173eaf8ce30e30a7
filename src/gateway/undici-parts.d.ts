// Types for the two undici modules the transport loads directly (see transport.ts for why).
declare module 'undici/lib/dispatcher/client.js' {
  import { Client } from 'undici';
  export default Client;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  // request() only ever calls this.dispatch(options, handler).
  const request: (this: Pick<Dispatcher, 'dispatch'>, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
