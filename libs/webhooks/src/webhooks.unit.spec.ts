import { Webhook } from 'standardwebhooks';
import { decideAfterAttempt, headerProblems, parseRetryAfter } from './domain';
import { derivedUuid } from './domain/ids';
import { newWebhookSecret, signatureHeaders } from './domain/signing';
import { blockedUrlReason, guardedLookup, isBlockedAddress, type LookupFunction } from '@libs/egress';

describe('signing (Standard Webhooks)', () => {
  it('makes whsec_ secrets in standard base64 that the reference verifier accepts', () => {
    for (let i = 0; i < 50; i++) {
      const secret = newWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { i } });
      const headers = signatureHeaders(secret, `msg_${i}`, body);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ data: { i } });
      expect(() => new Webhook(secret).verify(body.replace('"i"', '"j"'), headers)).toThrow();
      expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    }
  });
});

describe('retry policy', () => {
  const schedule = [5000, 300_000, 1_800_000];
  it('2xx succeeds, 410 is gone, others retry on the schedule until it is used up', () => {
    expect(decideAfterAttempt(1, 204, null, schedule)).toEqual({ kind: 'succeeded' });
    expect(decideAfterAttempt(1, 410, null, schedule)).toEqual({ kind: 'gone' });
    expect(decideAfterAttempt(1, 500, null, schedule)).toEqual({ kind: 'retry', delayMs: 5000 });
    expect(decideAfterAttempt(2, null, null, schedule)).toEqual({ kind: 'retry', delayMs: 300_000 });
    expect(decideAfterAttempt(3, 301, null, schedule)).toEqual({ kind: 'retry', delayMs: 1_800_000 });
    expect(decideAfterAttempt(4, 500, null, schedule)).toEqual({ kind: 'exhausted' });
  });
  it('waits for Retry-After when it asks for longer (seconds or a date; capped at a day)', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('99999999', now)).toBe(86_400_000);
    expect(decideAfterAttempt(1, 429, 120_000, schedule)).toEqual({ kind: 'retry', delayMs: 120_000 });
    expect(decideAfterAttempt(2, 503, 1000, schedule)).toEqual({ kind: 'retry', delayMs: 300_000 });
  });
});

describe('custom headers', () => {
  it('accepts a sane map and refuses the service\'s own headers, bad names, values and sizes', () => {
    expect(headerProblems({ Authorization: 'Bearer x', 'X-Team': 'growth' })).toEqual([]);
    for (const bad of [{ 'webhook-id': 'x' }, { 'Webhook-Signature': 'x' }, { 'content-type': 'x' }, { Host: 'x' }, { 'a b': 'x' }, { 'X-A': 'a\nb' }, { 'X-A': 1 }, null, [], 'x']) {
      expect(headerProblems(bad).length).toBeGreaterThan(0);
    }
    expect(headerProblems(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])))).toContain('headers may hold at most 20 headers');
    expect(headerProblems({ 'X-A': 'a', 'x-a': 'b' })).toEqual([expect.stringMatching(/twice/)]);
  });
});

describe('SSRF guard', () => {
  it('allows only public unicast addresses', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '255.255.255.255', '224.0.0.1', '::1', '::', 'fd00:ec2::254', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', '::7f00:1', '::a9fe:a9fe', '::2', 'ff02::1', 'nonsense']) {
      expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: true });
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) expect({ a, blocked: isBlockedAddress(a) }).toEqual({ a, blocked: false });
  });

  it('checks every address a name resolves to at creation, and again at connect time (DNS rebinding)', async () => {
    let answer = '93.184.216.34';
    const lookup: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: answer, family: 4 }]);
    expect(await blockedUrlReason(new URL('https://rebind.example/hook'), false, lookup)).toBeNull();
    answer = '127.0.0.1';
    const connectLookup = guardedLookup(false, lookup);
    const error = await new Promise<unknown>((resolve) => connectLookup('rebind.example', { all: true }, (e: unknown) => resolve(e)));
    expect(error).toMatchObject({ name: 'BlockedAddressError' });
    const mixed: LookupFunction = (_h, _o, cb) => cb(null, [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.1', family: 4 }]);
    const reason = await blockedUrlReason(new URL('https://mixed.example/'), false, mixed);
    // Refused, naming the caller's host but not what our resolver answered for it.
    expect(reason).toMatch(/^url host mixed\.example: address not allowed/);
    expect(reason).not.toMatch(/10\.0\.0\.1/);
    expect(await blockedUrlReason(new URL('http://127.0.0.1/'), true)).toBeNull();
    const allowed = await new Promise<unknown[]>((resolve) => guardedLookup(true, lookup)('x', { all: true }, (...args: unknown[]) => resolve(args)));
    expect(allowed).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
  });
});

describe('delivery ids', () => {
  it('derives stable ids', () => {
    expect(derivedUuid('a', 'b')).toBe(derivedUuid('a', 'b'));
    expect(derivedUuid('a', 'b')).not.toBe(derivedUuid('a', 'c'));
    expect(derivedUuid('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
