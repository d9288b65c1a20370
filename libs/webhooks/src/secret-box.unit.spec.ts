import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WebhookSecretBox } from './secret-box';
import { parseEncryptionKeys } from './domain/encryption-keys';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('WebhookSecretBox', () => {
  it('seals with a fresh nonce each time and opens what it sealed; a changed byte fails', () => {
    const box = new WebhookSecretBox({ encryptionKeys: key('k1'), encryptionKeyFile: '' });
    const a = box.seal('whsec_abc');
    const b = box.seal('whsec_abc');
    expect(a).toMatch(/^enc:v1:k1:/);
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('whsec_abc');
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(box.open('whsec_plain_from_before')).toBe('whsec_plain_from_before');
  });

  it('rotates: the new key seals, the old still opens, and what needs resealing is known', () => {
    const old = key('old');
    const before = new WebhookSecretBox({ encryptionKeys: old, encryptionKeyFile: '' });
    const sealedBefore = before.seal('secret');
    const after = new WebhookSecretBox({ encryptionKeys: `${key('new')},${old}`, encryptionKeyFile: '' });
    expect(after.open(sealedBefore)).toBe('secret');
    expect(after.needsResealing(sealedBefore)).toBe(true);
    expect(after.needsResealing(after.seal('secret'))).toBe(false);
    expect(after.needsResealing('plain')).toBe(true);
    const dropped = new WebhookSecretBox({ encryptionKeys: key('new'), encryptionKeyFile: '' });
    expect(() => dropped.open(sealedBefore)).toThrow(/no longer holds/);
  });

  it('generates the local key file once (mode 0600) and every box reading it agrees', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'whkey-')), 'nested', 'key');
    const one = new WebhookSecretBox({ encryptionKeys: '', encryptionKeyFile: file });
    const two = new WebhookSecretBox({ encryptionKeys: '', encryptionKeyFile: file });
    expect(two.open(one.seal('x'))).toBe('x');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEncryptionKeys(readFileSync(file, 'utf8'))).toHaveLength(1);
  });

  it('refuses malformed key lists', () => {
    expect(() => parseEncryptionKeys('k1:short')).toThrow();
    const k = randomBytes(32).toString('base64');
    expect(() => parseEncryptionKeys(`a:${k},a:${k}`)).toThrow(/same id/);
    expect(parseEncryptionKeys('')).toEqual([]);
  });
});
