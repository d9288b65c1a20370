import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { parseEncryptionKeys } from './domain/encryption-keys';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** What a sealed value starts with; a stored value without it is plain text from before encryption. */
const SEALED = 'enc:v1:';
/**
 * Webhook signing secrets and custom header values at rest: AES-256-GCM, a fresh 96-bit nonce per
 * value, the key id in the stored text (`enc:v1:<keyId>:<nonce>:<tag>:<ciphertext>`, base64url).
 * Keys come from WEBHOOK_ENCRYPTION_KEYS (the first seals, all open, so keys rotate: put the new
 * key first, run `npm run cli -- webhooks reseal`, then drop the old key), or, when that is empty,
 * from WEBHOOK_ENCRYPTION_KEY_FILE, generated on first use (mode 0600) for a local set-up.
 */
@Injectable()
export class WebhookSecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly sealingId: string;

  constructor(@InjectConfig(WEBHOOKS_CONFIG) config: Pick<WebhooksConfig, 'encryptionKeys' | 'encryptionKeyFile'>) {
    const keys = config.encryptionKeys ? parseEncryptionKeys(config.encryptionKeys) : [localKey(config.encryptionKeyFile)];
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
    this.sealingId = keys[0].id;
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.sealingId)!, nonce);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${this.sealingId}:${[nonce, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join(':')}`;
  }

  /** The plain text of a stored value (a value stored before encryption is returned as it is). */
  open(stored: string): string {
    if (!stored.startsWith(SEALED)) return stored;
    const [id, nonce, tag, data] = stored.slice(SEALED.length).split(':');
    const key = this.keys.get(id);
    if (!key) throw new Error(`webhook secret sealed with key "${id}", which WEBHOOK_ENCRYPTION_KEYS no longer holds`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a stored value is plain text or sealed with a key other than the sealing one. */
  needsResealing(stored: string): boolean {
    return !stored.startsWith(`${SEALED}${this.sealingId}:`);
  }

  sealHeaders(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.seal(value)]));
  }

  openHeaders(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.open(value)]));
  }
}

/** The local key file's key, created (exclusively, so processes starting together agree) when missing. */
function localKey(file: string): { id: string; key: Buffer } {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `local:${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    const [key] = parseEncryptionKeys(readFileSync(file, 'utf8'));
    if (!key) throw new Error('the file holds no key');
    return key;
  } catch (error) {
    throw new Error(`WEBHOOK_ENCRYPTION_KEY_FILE ${file}: ${(error as Error).message}`, { cause: error });
  }
}
