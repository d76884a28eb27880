// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    connections?: number;
    /** Stop after this many responses (overrides duration). */
    amount?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    /** How often autocannon samples, in ms; it also notices a finished run only at these ticks. */
    sampleInt?: number;
    headers?: Record<string, string>;
    /** The requests each connection sends in turn; setupRequest may change one before it goes. */
    requests?: { setupRequest?: (request: Request) => Request }[];
    /** Called once per connection, before its first request. */
    setupClient?: (client: Client) => void;
  }

  /** A request as autocannon is about to send it. */
  export interface Request {
    method?: string;
    path: string;
    headers?: Record<string, string>;
  }

  /** One connection; it sends its requests one after the other (no pipelining). */
  export interface Client extends EventEmitter {
    /** Headers of this connection's requests, on top of the instance's `headers`. */
    setHeaders(headers: Record<string, string>): void;
  }

  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    totalCompletedRequests: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
