// Types for the two undici modules the transport loads directly (see transport.ts for why).
declare module 'undici/lib/dispatcher/client.js' {
  import { Client } from 'undici';
  export default Client;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
