import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isReservedHeader } from '../domain';
import { signatureHeaders } from '../domain';
import { FETCH_FAILURE_MESSAGES, guardedLookup, isBlockedAddress, kindOfNetworkError } from '@libs/egress';

export const EXCERPT_CHARS = 1024;
/** Read at most this much of a response (the rest is discarded with the connection). */
const MAX_READ_BYTES = 64 * 1024;

export interface SendRequest {
  url: string;
  secret: string;
  /** The `webhook-id`: the delivery id, the same on every attempt. */
  id: string;
  body: string;
  headers: Record<string, string>;
}

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  retryAfter: string | undefined;
}

/**
 * Sends one signed attempt: POST, no redirects followed (a 3xx is a failure), a hard timeout on
 * the whole exchange, and the SSRF guard on every connection (the agent's lookup refuses a name
 * that resolves to a non-public address; an IP literal is checked before connecting).
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly options: { timeoutMs: number; allowPrivate: boolean; userAgent?: string },
  ) {
    const lookup = guardedLookup(options.allowPrivate) as unknown as http.AgentOptions['lookup'];
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, lookup });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  send(req: SendRequest): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const timeout: { timer?: NodeJS.Timeout } = {};
      const done = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout.timer);
        resolve({ ...r, durationMs: elapsed() });
      };
      const fail = (error: string) => done({ statusCode: null, error, responseExcerpt: null, retryAfter: undefined });
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return fail('invalid url');
      }
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      if (!this.options.allowPrivate && isIP(host) && isBlockedAddress(host)) {
        return fail(FETCH_FAILURE_MESSAGES.address_not_allowed);
      }
      const body = Buffer.from(req.body);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!isReservedHeader(k)) headers[k] = v;
      Object.assign(headers, signatureHeaders(req.secret, req.id, req.body), {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': this.options.userAgent ?? 'ai-visibility-webhooks/1.0',
      });
      const isHttps = url.protocol === 'https:';
      const request = (isHttps ? https : http).request(url, { method: 'POST', headers, agent: isHttps ? this.httpsAgent : this.httpAgent }, (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          done({
            statusCode: status,
            error: ok ? null : status !== null && status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
            responseExcerpt: text ? text.slice(0, EXCERPT_CHARS) : null,
            retryAfter: res.headers['retry-after'],
          });
        };
        res.on('data', (c: Buffer) => {
          if (read < MAX_READ_BYTES) chunks.push(c.subarray(0, MAX_READ_BYTES - read));
          read += c.length;
          if (read >= MAX_READ_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      });
      timeout.timer = setTimeout(() => {
        fail(`timed out after ${this.options.timeoutMs} ms`);
        request.destroy();
      }, this.options.timeoutMs);
      // A delivery's error is shown to the subscriber (GET …/deliveries): the public sentence of its
      // kind, never the system's text, which can name our resolver's answers and internal addresses.
      request.on('error', (error: NodeJS.ErrnoException) => fail(FETCH_FAILURE_MESSAGES[kindOfNetworkError(error)]));
      request.end(body);
    });
  }
}
