import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + standard
 * base64 (not base64url: the reference verifiers reject `-` and `_`) of 32 random bytes; the
 * signature is `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the decoded bytes.
 */
export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function sign(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three signature headers of one attempt (the timestamp is the attempt's, so retries are signed afresh). */
export function signatureHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secretKey(secret), id, timestamp, body) };
}
