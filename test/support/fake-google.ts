/**
 * A local stand-in for Google's OAuth token endpoint, the GA4 Data API (REST: `POST
 * /v1beta/properties/{id}:runReport`) and the Search Console API (`POST
 * /webmasters/v3/sites/{siteUrl}/searchAnalytics/query`) on 127.0.0.1, speaking their wire formats,
 * so the official clients (`@google-analytics/data` on its REST transport, `@googleapis/searchconsole`)
 * run unchanged against it. Service-account JWTs are verified with the account's public key:
 * the token endpoint's assertion (RS256, aud = Google's token URL), and GA4's self-signed JWT.
 */
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id: string;
}

/** A new service account with a fresh RSA key (its public key registered with a fake). */
export function newServiceAccount(email = `sync-${randomBytes(3).toString('hex')}@project.iam.gserviceaccount.com`): ServiceAccount {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { client_email: email, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), private_key_id: randomBytes(20).toString('hex') };
}

/** One GA4 fact of a day: a slice of traffic by source, campaign, landing page and audience. */
export interface Ga4Fact {
  source: string;
  medium: string;
  campaign: string;
  landingPage: string;
  audience: string;
  sessions: number;
  totalUsers: number;
  newUsers: number;
  screenPageViews: number;
  keyEvents: number;
  totalRevenue: number;
}

export interface ScFact {
  page: string;
  query: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** What the next API request gets instead of data; each fault is used once, in order. */
export type GoogleFault = { status: number; retryAfter?: string; reason?: string };

export interface FakeRequest {
  api: 'token' | 'ga4' | 'search_console';
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export interface FakeGoogle {
  /** Root URL of every API (GA4_DATA_API_URL, SEARCH_CONSOLE_API_URL); the token endpoint is `${url}/token`. */
  url: string;
  tokenUrl: string;
  requests: FakeRequest[];
  register(account: ServiceAccount): void;
  /** Faults for the next API (not token) requests. */
  script(...faults: GoogleFault[]): void;
  /** From now on, API requests whose window starts on or after `day` fail with 503 (a source going down mid-sync). */
  failFrom(day: string | null): void;
  /** Every API answer from now on takes this long (0 by default). */
  setLatency(ms: number): void;
  ga4Facts: (property: string, day: string) => Ga4Fact[];
  scFacts: (site: string, day: string) => ScFact[];
  close(): Promise<void>;
}

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** A deterministic number in [0, 1) from a text. */
function unit(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
}

/** GA4 facts of a property's day: four sources (two of them AI assistants), two pages, two audiences. */
export function defaultGa4Facts(property: string, day: string): Ga4Fact[] {
  const sources: [string, string, string][] = [
    ['google', 'organic', '(organic)'],
    ['chatgpt.com', 'referral', '(referral)'],
    ['perplexity.ai', 'referral', '(referral)'],
    ['newsletter', 'email', 'spring_sale'],
  ];
  const facts: Ga4Fact[] = [];
  for (const [source, medium, campaign] of sources) {
    for (const landingPage of ['/', '/pricing']) {
      const audience = landingPage === '/' ? 'All Users' : 'Purchasers';
      const u = unit(`${property}|${day}|${source}|${landingPage}`);
      const sessions = 5 + Math.floor(u * 50);
      facts.push({
        source,
        medium,
        campaign,
        landingPage,
        audience,
        sessions,
        totalUsers: sessions - 2,
        newUsers: Math.floor(sessions / 3),
        screenPageViews: sessions * 2,
        keyEvents: Math.floor(u * 4),
        totalRevenue: Math.round(u * 40000) / 100,
      });
    }
  }
  return facts;
}

export function defaultScFacts(site: string, day: string): ScFact[] {
  const host = site.replace(/^sc-domain:/, '').replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const facts: ScFact[] = [];
  for (const page of ['/', '/pricing', '/blog/guide']) {
    for (const query of ['acme crm', 'best crm', 'crm pricing']) {
      const u = unit(`${site}|${day}|${page}|${query}`);
      facts.push({ page: `https://${host}${page}`, query, clicks: Math.floor(u * 30), impressions: 100 + Math.floor(u * 900), position: Math.round((1 + u * 20) * 10) / 10 });
    }
  }
  return facts;
}

function eachDay(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

export async function startFakeGoogle(opts: { ga4Facts?: FakeGoogle['ga4Facts']; scFacts?: FakeGoogle['scFacts'] } = {}): Promise<FakeGoogle> {
  const keys = new Map<string, KeyObject>();
  const tokens = new Set<string>();
  const faults: GoogleFault[] = [];
  let failFrom: string | null = null;
  let latency = 0;
  const requests: FakeRequest[] = [];
  const fake = {} as FakeGoogle;

  /** The claims of a JWT signed by a registered account, or null. */
  const verified = (jwt: string): Record<string, unknown> | null => {
    const [h, p, s] = jwt.split('.');
    if (!h || !p || !s) return null;
    const header = b64json(h);
    const claims = b64json(p);
    const key = keys.get(String(claims.iss));
    if (header.alg !== 'RS256' || !key) return null;
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(key, Buffer.from(s, 'base64url'));
    if (!ok || typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return null;
    return claims;
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const googleError = (res: ServerResponse, status: number, statusText: string, message: string, reason: string, headers: Record<string, string> = {}) =>
    send(res, status, { error: { code: status, message, status: statusText, errors: [{ message, domain: 'global', reason }] } }, headers);

  const authorised = (authorization: string | undefined, scope: string): boolean => {
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    if (tokens.has(token)) return true;
    const claims = verified(token); // GA4's client sends a self-signed JWT with the scope
    return claims !== null && String(claims.scope ?? '').split(' ').includes(scope);
  };

  const fault = (res: ServerResponse, windowStart: string): boolean => {
    const f = faults.shift() ?? (failFrom !== null && windowStart >= failFrom ? { status: 503 } : undefined);
    if (!f) return false;
    const statusText = f.status === 429 ? 'RESOURCE_EXHAUSTED' : f.status === 503 ? 'UNAVAILABLE' : f.status === 403 ? 'PERMISSION_DENIED' : 'INTERNAL';
    googleError(res, f.status, statusText, f.status === 429 ? 'Exhausted property tokens per hour.' : `fault ${f.status}`, f.reason ?? (f.status === 429 ? 'rateLimitExceeded' : 'backendError'), f.retryAfter ? { 'retry-after': f.retryAfter } : {});
    return true;
  };

  const runReport = (property: string, body: Record<string, unknown>) => {
    const range = (body.dateRanges as { startDate: string; endDate: string }[])[0];
    const dims = ((body.dimensions as { name: string }[]) ?? []).map((d) => d.name);
    const metrics = ((body.metrics as { name: string }[]) ?? []).map((m) => m.name);
    const groups = new Map<string, { dims: string[]; values: number[] }>();
    for (const day of eachDay(range.startDate, range.endDate)) {
      for (const f of fake.ga4Facts(property, day)) {
        const values = dims.map((d) => {
          if (d === 'date') return day.replace(/-/g, '');
          const field = { sessionSource: 'source', sessionMedium: 'medium', sessionCampaignName: 'campaign', landingPage: 'landingPage', audienceName: 'audience' }[d];
          if (!field) throw new Error(`dimension ${d}`);
          return (f as unknown as Record<string, string>)[field];
        });
        const key = JSON.stringify(values);
        const g = groups.get(key) ?? { dims: values, values: metrics.map(() => 0) };
        metrics.forEach((m, i) => (g.values[i] += (f as unknown as Record<string, number>)[m] ?? 0));
        groups.set(key, g);
      }
    }
    const all = [...groups.values()].sort((a, b) => (a.dims.join('|') < b.dims.join('|') ? -1 : 1));
    const offset = Number(body.offset ?? 0);
    const limit = Number(body.limit ?? 10000);
    const page = all.slice(offset, offset + limit);
    return {
      dimensionHeaders: dims.map((name) => ({ name })),
      metricHeaders: metrics.map((name) => ({ name, type: name === 'totalRevenue' ? 'TYPE_CURRENCY' : 'TYPE_INTEGER' })),
      ...(page.length && { rows: page.map((g) => ({ dimensionValues: g.dims.map((value) => ({ value })), metricValues: g.values.map((v) => ({ value: String(Math.round(v * 100) / 100) })) })) }),
      rowCount: all.length,
      metadata: { currencyCode: 'USD', timeZone: 'Etc/UTC' },
      kind: 'analyticsData#runReport',
    };
  };

  const searchAnalytics = (site: string, body: Record<string, unknown>) => {
    const dims = (body.dimensions as string[]) ?? [];
    const groups = new Map<string, { keys: string[]; clicks: number; impressions: number; position: number; n: number }>();
    for (const day of eachDay(String(body.startDate), String(body.endDate))) {
      for (const f of fake.scFacts(site, day)) {
        const keysOf = dims.map((d) => (d === 'date' ? day : d === 'page' ? f.page : d === 'query' ? f.query : ''));
        const key = JSON.stringify(keysOf);
        const g = groups.get(key) ?? { keys: keysOf, clicks: 0, impressions: 0, position: 0, n: 0 };
        g.clicks += f.clicks;
        g.impressions += f.impressions;
        g.position += f.position;
        g.n++;
        groups.set(key, g);
      }
    }
    const all = [...groups.values()].sort((a, b) => (a.keys.join('|') < b.keys.join('|') ? -1 : 1));
    const start = Number(body.startRow ?? 0);
    const page = all.slice(start, start + Number(body.rowLimit ?? 1000));
    return {
      ...(page.length && { rows: page.map((g) => ({ keys: g.keys, clicks: g.clicks, impressions: g.impressions, ctr: g.impressions ? g.clicks / g.impressions : 0, position: g.position / g.n })) }),
      responseAggregationType: 'byPage',
    };
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void (latency && !req.url?.startsWith('/token') ? new Promise((r) => setTimeout(r, latency)) : Promise.resolve()).then(() => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      try {
        if (req.method === 'POST' && url.pathname === '/token') {
          const form = new URLSearchParams(text);
          requests.push({ api: 'token', path: url.pathname, body: Object.fromEntries(form), authorization: undefined });
          const claims = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' ? verified(form.get('assertion') ?? '') : null;
          if (!claims || claims.aud !== GOOGLE_TOKEN_URL) return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          const token = `ya29.${randomBytes(24).toString('base64url')}`;
          tokens.add(token);
          return send(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
        }
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        const ga4 = /^\/v1beta\/properties\/([0-9]+):runReport$/.exec(url.pathname);
        if (req.method === 'POST' && ga4) {
          requests.push({ api: 'ga4', path: url.pathname, body, authorization: req.headers.authorization });
          if (!authorised(req.headers.authorization, 'https://www.googleapis.com/auth/analytics.readonly'))
            return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'authError');
          if (fault(res, (body.dateRanges as { startDate: string }[])[0].startDate)) return;
          return send(res, 200, runReport(ga4[1], body));
        }
        const sc = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(url.pathname);
        if (req.method === 'POST' && sc) {
          requests.push({ api: 'search_console', path: url.pathname, body, authorization: req.headers.authorization });
          const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
          if (!tokens.has(token)) return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'authError');
          if (fault(res, String(body.startDate))) return;
          return send(res, 200, searchAnalytics(decodeURIComponent(sc[1]), body));
        }
        googleError(res, 404, 'NOT_FOUND', `no route ${req.method} ${url.pathname}`, 'notFound');
      } catch (error) {
        googleError(res, 400, 'INVALID_ARGUMENT', (error as Error).message, 'badRequest');
      }
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    tokenUrl: `http://127.0.0.1:${port}/token`,
    requests,
    register: (account: ServiceAccount) => keys.set(account.client_email, createPublicKey(account.private_key)),
    script: (...f: GoogleFault[]) => faults.push(...f),
    failFrom: (day: string | null) => (failFrom = day),
    setLatency: (ms: number) => (latency = ms),
    ga4Facts: opts.ga4Facts ?? defaultGa4Facts,
    scFacts: opts.scFacts ?? defaultScFacts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return fake;
}
