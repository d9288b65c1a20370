import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { AuthorizationCode, ClientCredentials } from 'simple-oauth2';
import { OAuthClientsRepository, publishRevocation, s256Challenge, sha256, type Scope } from '@libs/auth';
import { cli } from '../support/cli';
import { startTestApi, type TestApi } from '../support/test-api';

/** OAuth 2.0: the token, authorization and revocation endpoints, bearer tokens on the API, and a real OAuth client library. */
let api: TestApi;
let clients: OAuthClientsRepository;
beforeAll(async () => {
  api = await startTestApi();
  clients = new OAuthClientsRepository(api.dataSource);
});
afterAll(async () => {
  await api?.close();
});

const REDIRECT = 'http://127.0.0.1:9/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const verifier = () => randomBytes(32).toString('base64url');

interface Client {
  clientId: string;
  clientSecret: string;
}

function tokenJson(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api.request({ method: 'POST', url: '/api/oauth/token', body, headers });
}
function tokenForm(body: Record<string, string>, headers: Record<string, string> = {}) {
  return api.request({ method: 'POST', url: '/api/oauth/token', body: new URLSearchParams(body).toString(), headers: { ...FORM, ...headers } });
}
function revoke(body: Record<string, string>) {
  return api.request({ method: 'POST', url: '/api/oauth/revoke', body });
}
async function evicted(): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
}

/** Approves an authorization request with `key` and returns the code from the redirect. */
async function authorize(client: Client, key: string, opts: { verifier: string; scope?: string; state?: string }): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT,
    state: opts.state ?? 'st-1',
    code_challenge: s256Challenge(opts.verifier),
    code_challenge_method: 'S256',
    ...(opts.scope ? { scope: opts.scope } : {}),
  });
  const r = await api.request({ method: 'POST', url: `/api/oauth/authorize?${query}`, key });
  expect(r.status).toBe(302);
  const location = new URL(r.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe(opts.state ?? 'st-1');
  return location.searchParams.get('code')!;
}

describe('OAuth 2.0', () => {
  let org: { id: number; key: string; keyId: number };
  let other: { id: number; key: string; keyId: number };
  let client: Client;
  let brandId: number;

  beforeAll(async () => {
    org = await api.organization({ tier: 'professional' });
    other = await api.organization();
    const c = await api.tenancy.createClient(org.id, 'Client A');
    brandId = (await api.tenancy.createBrand({ organizationId: org.id, clientId: c.id, name: 'Acme', domain: 'acme.com' })).id;
    client = await clients.create({ organizationId: org.id, scopes: ['read:brands', 'read:usage', 'read:opportunities'], redirectUris: [REDIRECT], name: 'Test app' });
  });

  describe('CLI', () => {
    it('creates a client and prints exactly one JSON document with the secret shown once', async () => {
      const env = { DATABASE_URL: api.db.url, REDIS_PREFIX: api.config.redisPrefix };
      const r = await cli(['--json', 'oauth-client', 'create', '--org', String(org.id), '--scopes', 'read:brands,read:usage', '--redirect-uri', REDIRECT, '--redirect-uri', 'https://app.example.com/cb', '--name', 'CLI app'], env);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toEqual({ clientId: expect.stringMatching(/^oc_/), clientSecret: expect.stringMatching(/^ocs_/), scopes: ['read:brands', 'read:usage'], redirectUris: [REDIRECT, 'https://app.example.com/cb'] });
      const [row] = await api.dataSource.query('SELECT secret_hash, tier FROM oauth_clients WHERE client_id = $1', [out.clientId]);
      expect(row.secret_hash.equals(sha256(out.clientSecret))).toBe(true);
      expect(row.tier).toBe('professional');
      const t = await tokenJson({ grant_type: 'client_credentials', client_id: out.clientId, client_secret: out.clientSecret });
      expect(t.status).toBe(200);

      const bad = await cli(['--json', 'oauth-client', 'create', '--org', String(org.id), '--scopes', 'read:brands', '--redirect-uri', 'http://evil.example/cb'], env);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect((await cli(['oauth-client', 'create', '--org', String(org.id), '--scopes', 'read:nothing'], env)).code).toBe(2);
    });
  });

  describe('client_credentials', () => {
    it('issues an access token (200, RFC 6749 fields, no-store, no refresh token) that works as a bearer token', async () => {
      const r = await tokenJson({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers.pragma).toBe('no-cache');
      expect(r.body).toEqual({ access_token: expect.stringMatching(/^oat_/), token_type: 'Bearer', expires_in: 3600, scope: 'read:brands read:usage read:opportunities' });
      const [row] = await api.dataSource.query(`SELECT kind, expires_at FROM oauth_tokens WHERE token_hash = $1`, [sha256(r.body.access_token)]);
      expect(row.kind).toBe('access');
      expect(Math.abs(row.expires_at.getTime() - Date.now() - 3600_000)).toBeLessThan(60_000);

      const brands = await api.request({ url: '/api/v1/brands', bearer: r.body.access_token });
      expect(brands.status).toBe(200);
      expect(brands.body.data.map((b: { id: number }) => b.id)).toEqual([brandId]);
      const validated = await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: r.body.access_token });
      expect(validated.status).toBe(200);
      expect(validated.body).toEqual({
        data: { valid: true, organizationId: org.id, scopes: ['read:brands', 'read:usage', 'read:opportunities'], tier: 'professional', clientId: null },
      });
      // Another organisation's bearer sees none of these brands.
      const foreign = await clients.create({ organizationId: other.id, scopes: ['read:brands'] });
      const ft = await tokenJson({ grant_type: 'client_credentials', client_id: foreign.clientId, client_secret: foreign.clientSecret });
      expect((await api.request({ url: `/api/v1/brands/${brandId}`, bearer: ft.body.access_token })).status).toBe(404);
    });

    it('narrows to a requested subset of scopes, and enforces them (403 naming the scope)', async () => {
      const r = await tokenJson({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'read:usage' });
      expect(r.status).toBe(200);
      expect(r.body.scope).toBe('read:usage');
      const denied = await api.request({ url: '/api/v1/brands', bearer: r.body.access_token });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'read:brands' } });
      const excess = await tokenJson({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'read:usage write:webhooks' });
      expect(excess.status).toBe(400);
      expect(excess.body.error.code).toBe('invalid_scope');
    });

    it('reads client credentials from a form body and from HTTP Basic', async () => {
      const form = await tokenForm({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });
      expect(form.status).toBe(200);
      expect(form.body.token_type).toBe('Bearer');
      const viaBasic = await tokenForm({ grant_type: 'client_credentials', scope: 'read:brands' }, { authorization: basic(client.clientId, client.clientSecret) });
      expect(viaBasic.status).toBe(200);
      expect(viaBasic.body.scope).toBe('read:brands');
      const jsonBasic = await tokenJson({ grant_type: 'client_credentials' }, { authorization: basic(client.clientId, client.clientSecret) });
      expect(jsonBasic.status).toBe(200);
      const both = await tokenForm({ grant_type: 'client_credentials', client_secret: client.clientSecret }, { authorization: basic(client.clientId, client.clientSecret) });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });
  });

  describe('errors', () => {
    it('is 401 invalid_client for a wrong secret or an unknown client, in the caller’s dialect', async () => {
      const json = await tokenJson({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret + 'x' });
      expect(json.status).toBe(401);
      expect(json.body).toEqual({ error: { code: 'invalid_client', message: expect.any(String) } });
      expect(json.headers['www-authenticate']).toBeUndefined();
      expect(json.headers['cache-control']).toBe('no-store');
      const form = await tokenForm({ grant_type: 'client_credentials', client_id: 'oc_unknown', client_secret: 'nope' });
      expect(form.status).toBe(401);
      expect(form.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      const viaBasic = await tokenForm({ grant_type: 'client_credentials' }, { authorization: basic(client.clientId, 'wrong') });
      expect(viaBasic.status).toBe(401);
      expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic /);
      const none = await tokenJson({ grant_type: 'client_credentials' });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('invalid_client');
    });

    it('is 400 unsupported_grant_type for an unknown grant and invalid_request (not VALIDATION_ERROR) for missing parameters', async () => {
      const creds = { client_id: client.clientId, client_secret: client.clientSecret };
      const json = await tokenJson({ grant_type: 'password', username: 'u', password: 'p', ...creds });
      expect(json.status).toBe(400);
      expect(json.body).toEqual({ error: { code: 'unsupported_grant_type', message: expect.any(String) } });
      const form = await tokenForm({ grant_type: 'password', ...creds });
      expect(form.status).toBe(400);
      expect(form.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
      const missing = await tokenJson({ ...creds });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('invalid_request');
      const noCode = await tokenForm({ grant_type: 'authorization_code', redirect_uri: REDIRECT, code_verifier: verifier(), ...creds });
      expect(noCode.status).toBe(400);
      expect(noCode.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('code') });
      const notString = await tokenJson({ grant_type: 'client_credentials', scope: ['read:brands'], ...creds });
      expect(notString.status).toBe(400);
      expect(notString.body.error.code).toBe('invalid_request');
      const noToken = await tokenJson({ grant_type: 'refresh_token', ...creds });
      expect(noToken.body.error.code).toBe('invalid_request');
    });

    it('accepts form bodies on /api/oauth/* only: other routes keep answering 415', async () => {
      const r = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key, body: 'a=1', headers: FORM });
      expect(r.status).toBe(415);
      expect(r.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('authorization_code with PKCE', () => {
    it('describes the request (GET), approves with an API key (POST, 302 with code and state) and exchanges the code', async () => {
      const v = verifier();
      const query = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'read:brands', state: 'abc', code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
      const described = await api.request({ url: `/api/oauth/authorize?${query}` });
      expect(described.status).toBe(200);
      expect(described.body.data).toEqual({
        clientId: client.clientId,
        clientName: 'Test app',
        redirectUri: REDIRECT,
        scopes: ['read:brands'],
        state: 'abc',
        approve: { method: 'POST', url: '/api/oauth/authorize', credential: 'X-API-Key' },
      });
      const code = await authorize(client, org.key, { verifier: v, scope: 'read:brands', state: 'abc' });
      expect(code).toMatch(/^oac_/);
      const [stored] = await api.dataSource.query(`SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM oauth_authorization_codes WHERE code_hash = $1`, [sha256(code)]);
      expect(stored.ttl).toBe(600);
      const r = await tokenJson({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, client_id: client.clientId, client_secret: client.clientSecret });
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.body).toEqual({ access_token: expect.stringMatching(/^oat_/), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^ort_/), scope: 'read:brands' });
      expect((await api.request({ url: '/api/v1/brands', bearer: r.body.access_token })).status).toBe(200);
      // The code is single-use, and presenting it again revokes what it gave (RFC 6749 §4.1.2).
      const again = await tokenJson({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, client_id: client.clientId, client_secret: client.clientSecret });
      expect(again.status).toBe(400);
      expect(again.body.error).toEqual({ code: 'invalid_grant', message: expect.stringMatching(/revoked/) });
      await evicted();
      expect((await api.request({ url: '/api/v1/brands', bearer: r.body.access_token })).status).toBe(401);
      const refreshed = await tokenJson({ grant_type: 'refresh_token', refresh_token: r.body.refresh_token, client_id: client.clientId, client_secret: client.clientSecret });
      expect([refreshed.status, refreshed.body.error.code]).toEqual([400, 'invalid_grant']);
    });

    it('approves through a form body too, and binds tokens to the approving key’s client', async () => {
      const c = await api.tenancy.createClient(org.id, 'Client B');
      const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'], clientId: c.id });
      const v = verifier();
      const body = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'read:brands', code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
      const approved = await api.request({ method: 'POST', url: '/api/oauth/authorize', key: bound.key, body: body.toString(), headers: FORM });
      expect(approved.status).toBe(302);
      const code = new URL(approved.headers.location as string).searchParams.get('code')!;
      const t = await tokenForm({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v }, { authorization: basic(client.clientId, client.clientSecret) });
      expect(t.status).toBe(200);
      const validated = await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.body.access_token });
      expect(validated.body.data).toMatchObject({ organizationId: org.id, clientId: c.id, scopes: ['read:brands'] });
      expect((await api.request({ url: '/api/v1/brands', bearer: t.body.access_token })).body.data).toEqual([]);
      // A key lacking a requested scope cannot grant it.
      const v2 = verifier();
      const q = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'read:usage', state: 's', code_challenge: s256Challenge(v2), code_challenge_method: 'S256' });
      const refused = await api.request({ method: 'POST', url: `/api/oauth/authorize?${q}`, key: bound.key });
      expect(refused.status).toBe(302);
      expect(new URL(refused.headers.location as string).searchParams.get('error')).toBe('access_denied');
    });

    it('refuses an expired code, a wrong redirect_uri and a wrong code_verifier (400 invalid_grant)', async () => {
      const creds = { client_id: client.clientId, client_secret: client.clientSecret };
      const v1 = verifier();
      const expired = await authorize(client, org.key, { verifier: v1 });
      await api.dataSource.query(`UPDATE oauth_authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [sha256(expired)]);
      const r1 = await tokenJson({ grant_type: 'authorization_code', code: expired, redirect_uri: REDIRECT, code_verifier: v1, ...creds });
      expect(r1.status).toBe(400);
      expect(r1.body.error.code).toBe('invalid_grant');

      const v2 = verifier();
      const wrongUri = await authorize(client, org.key, { verifier: v2 });
      const r2 = await tokenForm({ grant_type: 'authorization_code', code: wrongUri, redirect_uri: REDIRECT + '/', code_verifier: v2, ...creds });
      expect(r2.status).toBe(400);
      expect(r2.body).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('redirect_uri') });

      const v3 = verifier();
      const wrongVerifier = await authorize(client, org.key, { verifier: v3 });
      const r3 = await tokenJson({ grant_type: 'authorization_code', code: wrongVerifier, redirect_uri: REDIRECT, code_verifier: verifier(), ...creds });
      expect(r3.status).toBe(400);
      expect(r3.body.error.code).toBe('invalid_grant');
      // A failed exchange consumed the code: the right verifier no longer helps.
      const r4 = await tokenJson({ grant_type: 'authorization_code', code: wrongVerifier, redirect_uri: REDIRECT, code_verifier: v3, ...creds });
      expect(r4.body.error.code).toBe('invalid_grant');

      // Another client cannot redeem the code.
      const v5 = verifier();
      const stolen = await authorize(client, org.key, { verifier: v5 });
      const thief = await clients.create({ organizationId: org.id, scopes: ['read:brands'], redirectUris: [REDIRECT] });
      const r5 = await tokenJson({ grant_type: 'authorization_code', code: stolen, redirect_uri: REDIRECT, code_verifier: v5, client_id: thief.clientId, client_secret: thief.clientSecret });
      expect(r5.body.error.code).toBe('invalid_grant');
    });

    it('shows errors directly until the redirect URI is validated, and redirects them afterwards', async () => {
      const challenge = s256Challenge(verifier());
      const base = { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' };
      const get = (params: Record<string, string>) => api.request({ url: `/api/oauth/authorize?${new URLSearchParams(params)}` });
      const unknown = await get({ ...base, client_id: 'oc_nope' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe('invalid_request');
      const unregistered = await get({ ...base, redirect_uri: 'https://evil.example/cb' });
      expect(unregistered.status).toBe(400);
      expect(unregistered.headers.location).toBeUndefined();
      const cases: [Record<string, string>, string][] = [
        [{ ...base, code_challenge: '' }, 'invalid_request'],
        [{ ...base, code_challenge_method: 'plain' }, 'invalid_request'],
        [{ ...base, response_type: 'token' }, 'unsupported_response_type'],
        [{ ...base, scope: 'write:webhooks' }, 'invalid_scope'],
      ];
      for (const [params, error] of cases) {
        const r = await get(params);
        expect(r.status).toBe(302);
        const location = new URL(r.headers.location as string);
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('state')).toBe('st');
      }
      const post = (key: string | undefined, extra: Record<string, string> = {}) =>
        api.request({ method: 'POST', url: `/api/oauth/authorize?${new URLSearchParams({ ...base, ...extra })}`, key });
      expect((await post(undefined)).status).toBe(401);
      const foreign = await post(other.key);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('access_denied');
      const denied = await post(org.key, { decision: 'deny' });
      expect(denied.status).toBe(302);
      expect(new URL(denied.headers.location as string).searchParams.get('error')).toBe('access_denied');
    });
  });

  describe('refresh_token', () => {
    it('rotates on use; reusing a rotated token revokes the whole family', async () => {
      const creds = { client_id: client.clientId, client_secret: client.clientSecret };
      const v = verifier();
      const code = await authorize(client, org.key, { verifier: v, scope: 'read:brands read:usage' });
      const first = (await tokenJson({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, ...creds })).body;
      const second = await tokenJson({ grant_type: 'refresh_token', refresh_token: first.refresh_token, ...creds });
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String), scope: 'read:brands read:usage' });
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      // Narrowing on refresh; the new refresh token keeps the grant's scopes.
      const third = await tokenForm({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token, scope: 'read:usage', ...creds });
      expect(third.status).toBe(200);
      expect(third.body.scope).toBe('read:usage');
      const widened = await tokenJson({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token, scope: 'read:opportunities', ...creds });
      expect(widened.body.error.code).toBe('invalid_scope');
      const fourth = await tokenJson({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token, ...creds });
      expect(fourth.status).toBe(200);
      expect(fourth.body.scope).toBe('read:brands read:usage');
      expect((await api.request({ url: '/api/v1/brands', bearer: fourth.body.access_token })).status).toBe(200);

      // Reuse of the already-rotated first refresh token.
      const reuse = await tokenJson({ grant_type: 'refresh_token', refresh_token: first.refresh_token, ...creds });
      expect(reuse.status).toBe(400);
      expect(reuse.body.error.code).toBe('invalid_grant');
      await evicted();
      for (const t of [first, second.body, third.body, fourth.body]) {
        expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.access_token })).status).toBe(401);
      }
      const latest = await tokenJson({ grant_type: 'refresh_token', refresh_token: fourth.body.refresh_token, ...creds });
      expect(latest.status).toBe(400);
      expect(latest.body.error.code).toBe('invalid_grant');
    });

    it('refuses another client’s refresh token without touching it', async () => {
      const v = verifier();
      const code = await authorize(client, org.key, { verifier: v });
      const t = (await tokenJson({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, client_id: client.clientId, client_secret: client.clientSecret })).body;
      const thief = await clients.create({ organizationId: org.id, scopes: ['read:brands'] });
      const r = await tokenJson({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: thief.clientId, client_secret: thief.clientSecret });
      expect(r.body.error.code).toBe('invalid_grant');
      const ok = await tokenJson({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.clientId, client_secret: client.clientSecret });
      expect(ok.status).toBe(200);
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('revokes an access token, which then gets 401 everywhere; an unknown token is 200; a bad client is 401', async () => {
      const creds = { client_id: client.clientId, client_secret: client.clientSecret };
      const t = (await tokenJson({ grant_type: 'client_credentials', ...creds })).body;
      expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.access_token })).status).toBe(200); // now cached
      const r = await revoke({ token: t.access_token, ...creds });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({});
      expect(r.headers['cache-control']).toBe('no-store');
      await evicted();
      const after = await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.access_token });
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('UNAUTHORIZED');
      expect((await revoke({ token: 'oat_unknown', ...creds })).status).toBe(200);
      expect((await revoke({ token: t.access_token, ...creds })).status).toBe(200);
      const bad = await revoke({ token: t.access_token, client_id: client.clientId, client_secret: 'wrong' });
      expect(bad.status).toBe(401);
      expect(bad.body.error.code).toBe('invalid_client');
      const missing = await revoke({ ...creds });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('invalid_request');
    });

    it('revoking a refresh token revokes its family; another client cannot revoke a token', async () => {
      const creds = { client_id: client.clientId, client_secret: client.clientSecret };
      const v = verifier();
      const code = await authorize(client, org.key, { verifier: v });
      const t = (await tokenJson({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, ...creds })).body;
      const stranger = await clients.create({ organizationId: other.id, scopes: ['read:brands'] });
      const r0 = await revoke({ token: t.access_token, client_id: stranger.clientId, client_secret: stranger.clientSecret });
      expect(r0.status).toBe(200);
      expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.access_token })).status).toBe(200);
      const r = await api.request({
        method: 'POST',
        url: '/api/oauth/revoke',
        body: new URLSearchParams({ token: t.refresh_token, token_type_hint: 'refresh_token' }).toString(),
        headers: { ...FORM, authorization: basic(client.clientId, client.clientSecret) },
      });
      expect(r.status).toBe(200);
      await evicted();
      expect((await api.request({ method: 'POST', url: '/api/v1/validate-key', bearer: t.access_token })).status).toBe(401);
      expect((await tokenJson({ grant_type: 'refresh_token', refresh_token: t.refresh_token, ...creds })).body.error.code).toBe('invalid_grant');
    });
  });

  describe('with a real OAuth client library (simple-oauth2) over HTTP on 127.0.0.1', () => {
    let base: string;
    beforeAll(async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = api.app.getHttpServer().address() as AddressInfo;
      base = `http://127.0.0.1:${port}`;
    });
    const auth = () => ({ tokenHost: base, tokenPath: '/api/oauth/token', revokePath: '/api/oauth/revoke' });

    it('client_credentials (form + Basic, and JSON body)', async () => {
      const lib = new ClientCredentials({ client: { id: client.clientId, secret: client.clientSecret }, auth: auth() });
      const token = await lib.getToken({ scope: ['read:brands', 'read:usage'] });
      expect(token.token.token_type).toBe('Bearer');
      expect(token.expired()).toBe(false);
      const brands = await fetch(`${base}/api/v1/brands`, { headers: { authorization: `Bearer ${token.token.access_token as string}` } });
      expect(brands.status).toBe(200);
      const jsonLib = new ClientCredentials({ client: { id: client.clientId, secret: client.clientSecret }, auth: auth(), options: { authorizationMethod: 'body', bodyFormat: 'json' } });
      const t2 = await jsonLib.getToken({ scope: 'read:usage' });
      expect(t2.token.scope).toBe('read:usage');
      const wrong = new ClientCredentials({ client: { id: client.clientId, secret: 'wrong' }, auth: auth() });
      await expect(wrong.getToken({})).rejects.toMatchObject({ output: { statusCode: 401 }, data: { payload: { error: 'invalid_client' } } });
    });

    it('authorization_code with PKCE, refresh and revocation', async () => {
      const lib = new AuthorizationCode({ client: { id: client.clientId, secret: client.clientSecret }, auth: { ...auth(), authorizePath: '/api/oauth/authorize' } });
      const v = verifier();
      const params = { redirect_uri: REDIRECT, scope: ['read:brands'], state: 'lib-state', code_challenge: s256Challenge(v), code_challenge_method: 'S256' };
      const url = lib.authorizeURL(params);
      expect(url.startsWith(`${base}/api/oauth/authorize?`)).toBe(true);
      const described = await fetch(url);
      expect(described.status).toBe(200);
      expect(((await described.json()) as { data: { scopes: string[] } }).data.scopes).toEqual(['read:brands']);
      const approved = await fetch(url, { method: 'POST', headers: { 'x-api-key': org.key }, redirect: 'manual' });
      expect(approved.status).toBe(302);
      const location = new URL(approved.headers.get('location')!);
      expect(location.searchParams.get('state')).toBe('lib-state');
      const tokenConfig = { code: location.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: v };
      const token = await lib.getToken(tokenConfig);
      expect(token.token).toMatchObject({ token_type: 'Bearer', scope: 'read:brands', refresh_token: expect.any(String) });

      const refreshed = await token.refresh();
      expect(refreshed.token.refresh_token).not.toBe(token.token.refresh_token);
      const bearer = { authorization: `Bearer ${refreshed.token.access_token as string}` };
      expect((await fetch(`${base}/api/v1/brands`, { headers: bearer })).status).toBe(200);
      expect((await fetch(`${base}/api/v1/validate-key`, { method: 'POST', headers: bearer })).status).toBe(200);
      // The code presented again: refused, and the tokens it gave (refreshed ones too) are revoked.
      await expect(lib.getToken(tokenConfig)).rejects.toMatchObject({ output: { statusCode: 400 }, data: { payload: { error: 'invalid_grant' } } });
      await evicted();
      expect((await fetch(`${base}/api/v1/brands`, { headers: bearer })).status).toBe(401);
      await expect(refreshed.refresh()).rejects.toMatchObject({ output: { statusCode: 400 } });
      await refreshed.revokeAll();
    });
  });

  it('evicts a cached bearer principal on a published revocation (Redis)', async () => {
    const t = (await tokenJson({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'read:brands' as Scope })).body;
    expect((await api.request({ url: '/api/v1/brands', bearer: t.access_token })).status).toBe(200);
    await api.dataSource.query(`UPDATE oauth_tokens SET revoked_at = now() WHERE token_hash = $1`, [sha256(t.access_token)]);
    const redis = new Redis(api.config.redisUrl);
    await publishRevocation(redis, api.config.redisPrefix, sha256(t.access_token));
    redis.disconnect();
    await evicted();
    expect((await api.request({ url: '/api/v1/brands', bearer: t.access_token })).status).toBe(401);
  });
});
