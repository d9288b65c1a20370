import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { guardedLookup, isAllowedAddress, type Allowance, type LookupFunction } from './address-guard';
import { kindOfNetworkError, publicFailureMessage, type FetchFailureKind } from './fetch-failures';

export interface FetchRequest {
  url: string;
  /** Extra request headers (conditional headers, Accept, …); the user agent is the fetcher's. */
  headers?: Record<string, string>;
  /** Most bytes of the (decoded) body; more fails the fetch with `too_large`, or with `overflow: 'truncate'` keeps the first `maxBytes`. */
  maxBytes: number;
  /** What a body over `maxBytes` does (default `fail`; robots.txt is read up to a cap, RFC 9309). */
  overflow?: 'fail' | 'truncate';
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  /** Redirects followed, each through the guard (default 5). */
  maxRedirects?: number;
  /**
   * A rule on host names besides the address guard, checked for the URL asked for and every
   * redirect before connecting (e.g. a brand's domains); a refusal is `host_not_allowed`.
   */
  allowHost?: (hostname: string) => boolean;
}

export interface FetchResponse {
  ok: true;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** True when the body was cut at `maxBytes` (`overflow: 'truncate'`). */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  /** Each URL redirected to, in order. */
  redirects: string[];
  durationMs: number;
}

export interface FetchFailure {
  ok: false;
  /** Why, as a stable code (libs/egress fetch-failures). */
  kind: FetchFailureKind;
  /** Why, in a sentence that names no host and no address: what a customer may be shown. */
  message: string;
  /** The detail (hosts, addresses, the system's error): for logs only, never for customers. */
  reason: string;
  /** The URL being fetched when it failed. */
  url: string;
  redirects: string[];
  durationMs: number;
}

export type FetchResult = FetchResponse | FetchFailure;

export interface GuardedFetcherOptions {
  /** `User-Agent` of every request: it names the service. */
  userAgent: string;
  /** Non-public addresses let through (default none). */
  allow?: Allowance;
  /** The resolver (tests may give their own; the default is the system's). */
  lookup?: LookupFunction;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class Failure extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    /** A kept-alive socket the server had just closed: the request never reached it, so it is sent again once. */
    readonly staleSocket = false,
  ) {
    super(message);
  }
}

/**
 * GET through the address guard: every hop's host is checked at connect time (the agents' lookup
 * refuses a name resolving to a non-public address, so DNS rebinding cannot slip past; an IP
 * literal is checked before connecting), redirects are followed only to http(s) URLs and only
 * through the same guard, the decoded body is capped (a `Content-Length` over the cap fails at
 * once, gzip/deflate/br are decoded while counting), and one deadline covers the whole exchange.
 */
export class GuardedFetcher {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly allow: Allowance;

  constructor(private readonly options: GuardedFetcherOptions) {
    this.allow = options.allow ?? false;
    const lookup = guardedLookup(this.allow, options.lookup) as unknown as http.AgentOptions['lookup'];
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, lookup });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async get(req: FetchRequest): Promise<FetchResult> {
    const started = performance.now();
    const deadline = started + req.timeoutMs;
    const redirects: string[] = [];
    const maxRedirects = req.maxRedirects ?? 5;
    let current = req.url;
    const elapsed = () => Math.round(performance.now() - started);
    try {
      for (;;) {
        const url = this.checkedUrl(current, req.allowHost);
        // Conditional headers belong to the URL asked for, not to where it redirects.
        const headers = redirects.length ? withoutConditional(req.headers) : (req.headers ?? {});
        const truncate = req.overflow === 'truncate';
        const res = await this.once(url, headers, req.maxBytes, deadline, truncate).catch((error: unknown) => {
          if (error instanceof Failure && error.staleSocket) return this.once(url, headers, req.maxBytes, deadline, truncate);
          throw error;
        });
        const location = res.headers.location;
        if (REDIRECTS.has(res.status) && typeof location === 'string' && location.length) {
          if (redirects.length >= maxRedirects) throw new Failure('too_many_redirects', `more than ${maxRedirects} redirects`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new Failure('invalid_url', `redirect to an invalid URL: ${location.slice(0, 200)}`);
          }
          current = next.toString();
          redirects.push(current);
          continue;
        }
        return { ok: true, status: res.status, headers: res.headers, body: res.body, truncated: res.truncated, url: url.toString(), redirects, durationMs: elapsed() };
      }
    } catch (error) {
      const failure = error instanceof Failure ? error : new Failure(kindOfNetworkError(error as NodeJS.ErrnoException), (error as Error).message);
      const message = publicFailureMessage(failure.kind, redirects.length > 0);
      return { ok: false, kind: failure.kind, message, reason: failure.message.slice(0, 500), url: current, redirects, durationMs: elapsed() };
    }
  }

  private checkedUrl(text: string, allowHost?: (hostname: string) => boolean): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Failure('invalid_url', `not a URL: ${text.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Failure('invalid_url', `not an http(s) URL: ${url.protocol}`);
    if (url.username || url.password) throw new Failure('invalid_url', 'URLs with credentials are not fetched');
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (allowHost && !allowHost(host)) throw new Failure('host_not_allowed', `${host} is outside the hosts this fetch may reach`);
    if (isIP(host) && !isAllowedAddress(host, this.allow)) throw new Failure('address_not_allowed', `refused to connect to ${host}: not a public address`);
    return url;
  }

  private once(url: URL, extra: Record<string, string>, maxBytes: number, deadline: number, truncate = false): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; truncated: boolean }> {
    return new Promise((resolve, reject) => {
      const remaining = deadline - performance.now();
      if (remaining <= 0) return reject(new Failure('timeout', 'timed out'));
      const isHttps = url.protocol === 'https:';
      const headers = { 'accept-encoding': 'gzip, deflate, br', ...extra, 'user-agent': this.options.userAgent };
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const request = (isHttps ? https : http).get(url, { headers, agent: isHttps ? this.httpsAgent : this.httpAgent }, (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) || status === 304 || status === 204) {
          res.resume();
          return settle(() => resolve({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false }));
        }
        const declared = Number(res.headers['content-length']);
        if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
          request.destroy();
          return settle(() => reject(new Failure('too_large', `the body is ${declared} bytes, more than ${maxBytes}`)));
        }
        const decoded = decoder(res.headers['content-encoding']);
        const stream = decoded ? res.pipe(decoded) : res;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            request.destroy();
            decoded?.destroy();
            if (truncate) {
              chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
              return settle(() => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: true }));
            }
            return settle(() => reject(new Failure('too_large', `the body is more than ${maxBytes} bytes`)));
          }
          chunks.push(chunk);
        });
        stream.on('end', () => settle(() => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: false })));
        stream.on('error', (error: Error) => settle(() => reject(decoded ? new Failure('bad_content_encoding', `the body could not be decoded: ${error.message}`) : new Failure('connection_failed', `the body could not be read: ${error.message}`))));
        res.on('aborted', () => settle(() => reject(new Failure('connection_failed', 'the connection closed mid-body'))));
      });
      const timer = setTimeout(() => {
        request.destroy();
        settle(() => reject(new Failure('timeout', `timed out`)));
      }, remaining);
      request.on('error', (error: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        const kind = kindOfNetworkError(error);
        settle(() => reject(new Failure(kind, kind === 'address_not_allowed' ? error.message : `${error.code ?? 'error'}: ${error.message}`, stale)));
      });
    });
  }
}

function decoder(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function withoutConditional(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (!/^if-(none-match|modified-since)$/i.test(k)) out[k] = v;
  return out;
}
