import { Injectable, Logger } from '@nestjs/common';
import { helpers, jwkToKeyID, verify } from 'web-bot-auth';
// The package's `./crypto` export, by its file (the project resolves modules the node10 way).
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { InjectConfig } from '@libs/config';
import { AgentEgress } from './agent-egress';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import type { BotEntry } from '../domain/bot-catalogue';
import type { Visit } from '../domain/visit';

type Jwk = Parameters<typeof verifierFromJWK>[0] & { kty?: string; crv?: string; x?: string; kid?: string };

/** What a Web Bot Auth signature says: valid, forged/tampered (`invalid`), or nothing (`unchecked`: no directory, expired, directory unreachable). */
export type SignatureCheck = 'valid' | 'invalid' | 'unchecked';

const DIRECTORY_TTL_MS = 3600_000;

/**
 * Web Bot Auth (RFC 9421 HTTP message signatures, tag `web-bot-auth`, Ed25519): the signature of
 * a visit is verified with the key its `keyid` names (a JWK thumbprint) from the agent's key
 * directory. Only the directories of catalogue agents are fetched (the catalogue's address, or
 * AGENT_KEY_DIRECTORIES), never one a request names, and each is cached for an hour.
 */
@Injectable()
export class WebBotAuth {
  private readonly logger = new Logger('WebBotAuth');
  private readonly directories = new Map<string, { at: number; keys: Promise<Map<string, Jwk>> }>();

  constructor(
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
    private readonly egress: AgentEgress,
  ) {}

  directoryOf(bot: BotEntry): string | null {
    return this.config.keyDirectories.get(bot.id) ?? bot.verification.keyDirectory ?? null;
  }

  async check(bot: BotEntry, visit: Visit): Promise<SignatureCheck> {
    const url = this.directoryOf(bot);
    if (!url || !visit.headers) return 'unchecked';
    const keys = await this.keys(url);
    if (keys.size === 0) return 'unchecked';
    const request = { method: visit.method, url: `https://${visit.host}${visit.path}`, headers: new Headers(visit.headers) };
    try {
      await verify(request, async (data, signature, params) => {
        const jwk = keys.get(params.keyid);
        if (!jwk) throw new Error(`unknown keyid ${params.keyid}`);
        await (await verifierFromJWK(jwk))(data, signature, params);
      });
      return 'valid';
    } catch (error) {
      const message = (error as Error).message;
      // A signature outside its validity window proves nothing either way (logs arrive late).
      if (/expired|in the future/.test(message)) return 'unchecked';
      return 'invalid';
    }
  }

  /** The directory's keys by thumbprint (and by `kid`), cached an hour; an unreachable directory has none (retried after a minute). */
  private keys(url: string): Promise<Map<string, Jwk>> {
    const hit = this.directories.get(url);
    if (hit && Date.now() - hit.at < DIRECTORY_TTL_MS) return hit.keys;
    const keys = this.fetchKeys(url).catch((error: Error) => {
      this.logger.warn(`key directory ${url}: ${error.message}`);
      this.directories.set(url, { at: Date.now() - DIRECTORY_TTL_MS + 60_000, keys: Promise.resolve(new Map()) });
      return new Map<string, Jwk>();
    });
    this.directories.set(url, { at: Date.now(), keys });
    return keys;
  }

  private async fetchKeys(url: string): Promise<Map<string, Jwk>> {
    // Through the egress guard, no redirects (a directory is where the catalogue or configuration says).
    const res = await this.egress.get(url, { maxBytes: 1024 * 1024, timeoutMs: 5000, maxRedirects: 0, accept: 'application/http-message-signatures-directory+json, application/json' });
    if (!res.ok) throw new Error(`${res.kind}: ${res.reason}`);
    if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
    const doc = JSON.parse(res.body.toString('utf8')) as { keys?: unknown };
    const keys = new Map<string, Jwk>();
    for (const k of Array.isArray(doc.keys) ? doc.keys : []) {
      const jwk = k as Jwk;
      if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
      keys.set(await jwkToKeyID(jwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE), jwk);
      if (typeof jwk.kid === 'string') keys.set(jwk.kid, jwk);
    }
    return keys;
  }
}
