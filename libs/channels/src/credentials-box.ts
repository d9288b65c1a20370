import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { ApiError } from '@libs/http';
import { CHANNELS_CONFIG, type ChannelsConfig } from './channels.config';

const PREFIX = 'chc:v1:';

/** A key's id in the sealed text: the first 8 hex digits of its SHA-256 (which key sealed it, never the key). */
const idOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * Channel credentials at rest: AES-256-GCM under CHANNEL_CREDENTIALS_KEY, a fresh 96-bit nonce per
 * value, stored as `chc:v1:<keyId>:<nonce>:<tag>:<ciphertext>` (base64url). Former keys
 * (CHANNEL_CREDENTIALS_OLD_KEYS) still open. The plain text leaves this class only for a connector.
 */
@Injectable()
export class CredentialsBox {
  private readonly keys: Map<string, Buffer>;
  private readonly sealing: { id: string; key: Buffer } | null;

  constructor(@InjectConfig(CHANNELS_CONFIG) config: Pick<ChannelsConfig, 'credentialKeys' | 'oldCredentialKeys'>) {
    const all = [...config.credentialKeys, ...config.oldCredentialKeys];
    this.keys = new Map(all.map((k) => [idOf(k), k]));
    this.sealing = config.credentialKeys[0] ? { id: idOf(config.credentialKeys[0]), key: config.credentialKeys[0] } : null;
  }

  get canSeal(): boolean {
    return this.sealing !== null;
  }

  seal(plain: string): string {
    if (!this.sealing) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Channel credentials cannot be stored: the operator has not set CHANNEL_CREDENTIALS_KEY');
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, nonce);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.sealing.id}:${[nonce, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join(':')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('channel credentials are not sealed');
    const [id, nonce, tag, data] = sealed.slice(PREFIX.length).split(':');
    const key = this.keys.get(id);
    if (!key) throw new Error(`channel credentials sealed with key ${id}, which neither CHANNEL_CREDENTIALS_KEY nor CHANNEL_CREDENTIALS_OLD_KEYS holds`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
