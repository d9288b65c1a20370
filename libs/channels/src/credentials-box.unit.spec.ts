import { randomBytes } from 'node:crypto';
import { ApiError } from '@libs/http';
import { CredentialsBox } from './credentials-box';

describe('channel credentials at rest', () => {
  const key = randomBytes(32);
  const secret = JSON.stringify({ client_email: 'a@b.example', private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' });

  it('seals with AES-256-GCM (a fresh nonce each time) and opens again', () => {
    const box = new CredentialsBox({ credentialKeys: [key], oldCredentialKeys: [] });
    const a = box.seal(secret);
    expect(a).toMatch(/^chc:v1:[0-9a-f]{8}:/);
    expect(a).not.toContain('a@b.example');
    expect(box.seal(secret)).not.toBe(a);
    expect(box.open(a)).toBe(secret);
  });

  it('refuses a tampered value, opens with an old key after rotation, and needs a key to seal', () => {
    const old = new CredentialsBox({ credentialKeys: [key], oldCredentialKeys: [] });
    const sealed = old.seal(secret);
    const parts = sealed.split(':');
    parts[5] = Buffer.from('x' + Buffer.from(parts[5], 'base64url').toString('latin1'), 'latin1').toString('base64url');
    expect(() => old.open(parts.join(':'))).toThrow();
    const rotated = new CredentialsBox({ credentialKeys: [randomBytes(32)], oldCredentialKeys: [key] });
    expect(rotated.open(sealed)).toBe(secret);
    expect(() => new CredentialsBox({ credentialKeys: [randomBytes(32)], oldCredentialKeys: [] }).open(sealed)).toThrow(/neither/);
    const none = new CredentialsBox({ credentialKeys: [], oldCredentialKeys: [] });
    expect(none.canSeal).toBe(false);
    expect(() => none.seal(secret)).toThrow(ApiError);
  });
});
