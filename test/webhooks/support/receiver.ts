import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  id: string;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: http.IncomingHttpHeaders;
  verified: boolean;
  receivedAt: number;
}

/** What the receiver answers on a path: a status (and headers), or a function of the attempt number for that webhook-id. */
export type Behaviour = (attempt: number) => { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTP receiver on 127.0.0.1 that verifies every delivery with the `standardwebhooks`
 * package (the reference verifier), using the secret registered for the path.
 */
export class Receiver {
  readonly received: Received[] = [];
  /** Every request, verified or not, and connections (to prove none were attempted). */
  connections = 0;
  private readonly secrets = new Map<string, string>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly attempts = new Map<string, number>();
  private server: http.Server | null = null;
  port = 0;
  /** Answer this long after a request arrives (a slower receiver keeps a backlog in the queue). */
  delayMs = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const id = String(req.headers['webhook-id'] ?? '');
        let verified = false;
        const secret = this.secrets.get(path);
        if (secret) {
          try {
            new Webhook(secret).verify(raw, req.headers as Record<string, string>);
            verified = true;
          } catch {
            verified = false;
          }
        }
        let body: Received['body'];
        try {
          body = JSON.parse(raw);
        } catch {
          body = { type: '?', timestamp: '', data: {} };
        }
        this.received.push({ path, id, type: body.type, body, headers: req.headers, verified, receivedAt: Date.now() });
        const key = `${path} ${id}`;
        const attempt = (this.attempts.get(key) ?? 0) + 1;
        this.attempts.set(key, attempt);
        const answer = this.behaviours.get(path)?.(attempt) ?? { status: 200 };
        const reply = () => {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? `ok ${attempt}`);
        };
        if (this.delayMs) setTimeout(reply, this.delayMs);
        else reply();
      });
    });
    this.server.on('connection', () => this.connections++);
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  register(path: string, secret: string, behaviour?: Behaviour): void {
    this.secrets.set(path, secret);
    if (behaviour) this.behaviours.set(path, behaviour);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
