import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalDns } from '../../support/local-dns';
import { brokenJsonLdPage, productPage, sizedPage, thinArticle } from './fixture-pages';

/** The brand domain of the local sites: `.test` is reserved (RFC 2606), and PAGE_AUDIT_DNS_SERVERS sends every lookup to the local DNS below. */
export const SITE_DOMAIN = 'acme-crm.test';
/** Names of the brand's domain that resolve to addresses the guard must refuse. */
export const HIDDEN_HOST = `hidden.${SITE_DOMAIN}`;
export const METADATA_HOST = `metadata.${SITE_DOMAIN}`;

/**
 * The local DNS of page-audit tests: the brand's domain (and www.) on 127.0.0.1, where its site
 * runs (let through by PAGE_AUDIT_ALLOWED_ADDRESSES=127.0.0.1); hidden. on 127.0.0.2 (the
 * "private" server the guard must keep audits away from), metadata. on 169.254.169.254.
 */
export function startSiteDns() {
  return startLocalDns({
    a: { [SITE_DOMAIN]: ['127.0.0.1'], [`www.${SITE_DOMAIN}`]: ['127.0.0.1'], [HIDDEN_HOST]: ['127.0.0.2'], [METADATA_HOST]: ['169.254.169.254'] },
  });
}

export interface SeenRequest {
  path: string;
  at: number;
  headers: http.IncomingHttpHeaders;
}

/** A "private" server on another loopback address (127.0.0.2) that the guard must keep page audits away from. */
export class HiddenServer {
  connections = 0;
  private server = http.createServer((_req, res) => res.end('internal secret'));
  port = 0;

  async start(): Promise<void> {
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.2', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export const DEFAULT_ROBOTS = ['User-agent: GPTBot', 'Disallow: /gpt-blocked', '', 'User-agent: AIVisibilityPageAudit', 'Disallow: /private/', '', 'User-agent: *', 'Allow: /', ''].join('\n');

/**
 * A brand's site served by the tests on 127.0.0.1: the fixture pages of the issue's proof (a
 * well-structured product page, broken JSON-LD, a page blocked for GPTBot, a redirect to a private
 * address, a 20 MB page, a slow page, a page that is not HTML, a broken encoding), robots.txt,
 * sitemaps, and numbered pages for the benchmark. It records every request it receives.
 */
export class LocalSite {
  readonly seen: SeenRequest[] = [];
  robots = DEFAULT_ROBOTS;
  /** Delay of every /pages/<k> answer (the benchmark's 50 ms). */
  pageDelayMs = 0;
  /** How long /slow takes. */
  slowMs = 5000;
  /** Pages a test sets (and changes between audits), served as HTML before the fixed routes. */
  readonly pages = new Map<string, string>();
  /** Other files a test sets (sitemaps, robots.txt of its own), served with their type before the fixed routes. */
  readonly files = new Map<string, { type: string; body: string; status?: number }>();
  private server = http.createServer((req, res) => this.handle(req, res));
  private timers = new Set<NodeJS.Timeout>();
  port = 0;

  /**
   * `host`: the name the site's URLs use (SITE_DOMAIN with the local DNS; 127.0.0.1 by default),
   * and the names its redirects to the hidden server and the metadata address use.
   */
  constructor(
    private readonly hidden?: HiddenServer,
    readonly host = '127.0.0.1',
    private readonly names: { hidden: string; metadata: string } = { hidden: '127.0.0.2', metadata: '169.254.169.254' },
  ) {}

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  requests(path: string): SeenRequest[] {
    return this.seen.filter((s) => s.path === path);
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private html(res: http.ServerResponse, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    this.seen.push({ path, at: Date.now(), headers: req.headers });
    const o = this.origin;
    const set = this.pages.get(path);
    if (set !== undefined) return this.html(res, set);
    const file = this.files.get(path);
    if (file !== undefined) return void res.writeHead(file.status ?? 200, { 'content-type': file.type }).end(file.body);
    switch (path) {
      case '/robots.txt':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(this.robots);
      case '/products/crm': {
        const etag = '"crm-v1"';
        if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
        return this.html(res, productPage(o), { etag, 'last-modified': 'Tue, 10 Nov 2026 08:00:00 GMT' });
      }
      case '/broken-json-ld':
        return this.html(res, brokenJsonLdPage(o));
      case '/gpt-blocked':
        return this.html(res, productPage(o));
      case '/private/report':
        return this.html(res, productPage(o));
      case '/blog/thoughts':
        return this.html(res, thinArticle());
      case '/redirect-private':
        return void res.writeHead(302, { location: `http://${this.names.hidden}:${this.hidden?.port ?? 9}/secret` }).end();
      case '/redirect-metadata':
        return void res.writeHead(301, { location: `http://${this.names.metadata}/latest/meta-data/` }).end();
      case '/redirect-elsewhere':
        return void res.writeHead(302, { location: 'https://example.org/' }).end();
      case '/moved':
        return void res.writeHead(301, { location: '/products/crm' }).end();
      case '/huge': {
        // 20 MB, streamed without a Content-Length.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.from(`<p>${'x'.repeat(1_048_000)}</p>`);
        let sent = 0;
        const pump = () => {
          while (sent < 20 && res.write(chunk)) sent++;
          if (sent >= 20) res.end();
          else res.once('drain', () => (sent++, pump()));
        };
        res.on('error', () => undefined);
        return pump();
      }
      case '/slow':
        return this.later(this.slowMs, () => this.html(res, productPage(o)));
      case '/not-html':
        return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'));
      case '/bad-encoding':
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.concat([Buffer.from('<html><body><p>Caf'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), Buffer.from('</p></body></html>')]));
      case '/sitemap.xml':
        return void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/products/crm', '/blog/thoughts', '/broken-json-ld', 'ftp://127.0.0.1/file', 'not a url'].map((p) => `<url><loc>${p.startsWith('/') ? o + p : p}</loc></url>`).join('')}</urlset>`,
          );
      case '/sitemap-index.xml':
        return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<sitemapindex><sitemap><loc>${o}/sitemap.xml</loc></sitemap></sitemapindex>`);
      case '/not-a-sitemap.xml':
        return this.html(res, '<!doctype html><html><body><h1>Oops</h1></body></html>');
      case '/json-sitemap.xml':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"urls": ["/a"]}');
    }
    const bench = /^\/pages\/(\d+)$/.exec(path);
    if (bench) {
      const body = sizedPage(o, Number(bench[1]));
      if (this.pageDelayMs) return this.later(this.pageDelayMs, () => this.html(res, body));
      return this.html(res, body);
    }
    const list = /^\/bench-sitemap-(\d+)\.xml$/.exec(path);
    if (list) {
      const urls = Array.from({ length: Number(list[1]) }, (_, k) => `<url><loc>${o}/pages/${k}</loc></url>`).join('');
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset>${urls}</urlset>`);
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  }
}
