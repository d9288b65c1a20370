import { Injectable, Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { InjectConfig } from '@libs/config';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import type { BotEntry } from '../domain/bot-catalogue';
import type { Visit } from '../domain/visit';
import { BotRanges, type RangeTable } from './bot-ranges';
import { WebBotAuth } from './web-bot-auth';

export type Verification = 'verified' | 'spoofed' | 'unverifiable';
export type VerifiedBy = 'ip-range' | 'fcrdns' | 'web-bot-auth';

export interface VerificationResult {
  verification: Verification;
  verifiedBy: VerifiedBy | null;
}

/** Whether a visit carries a Web Bot Auth signature to check. */
const signed = (visit: Visit) => Boolean(visit.headers?.['signature'] && visit.headers['signature-input']);

/** Forward-confirmed names of the address: verified when one has a suffix the operator documents, spoofed otherwise. */
function byNames(bot: BotEntry, names: string[]): VerificationResult {
  const suffixes = bot.verification.rdnsSuffixes ?? [];
  if (names.some((n) => suffixes.some((s) => n === s || n.endsWith(`.${s}`)))) return { verification: 'verified', verifiedBy: 'fcrdns' };
  return { verification: 'spoofed', verifiedBy: null };
}

/**
 * Is a visit that claims a catalogue agent really that agent (DESIGN §13.2)? In order: a Web Bot
 * Auth signature (valid: verified; forged or tampered: spoofed), the operator's published ranges,
 * forward-confirmed reverse DNS for operators that document it. A claim that can be checked and
 * fails is `spoofed`; one the operator gives no means to check is `unverifiable`.
 */
@Injectable()
export class BotVerifier {
  private readonly logger = new Logger('BotVerifier');
  private readonly resolver: Resolver | null;
  private readonly dnsCache = new Map<string, Promise<string[]>>();
  /** The answers of dnsCache that have come. */
  private readonly dnsKnown = new Map<string, string[]>();

  constructor(
    readonly ranges: BotRanges,
    private readonly webBotAuth: WebBotAuth,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {
    if (config.dnsServers === 'off') this.resolver = null;
    else {
      this.resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 1 });
      if (config.dnsServers) this.resolver.setServers(config.dnsServers);
    }
  }

  async verify(bot: BotEntry, visit: Visit, ranges?: RangeTable): Promise<VerificationResult> {
    if (signed(visit)) {
      const signature = await this.webBotAuth.check(bot, visit);
      if (signature === 'valid') return { verification: 'verified', verifiedBy: 'web-bot-auth' };
      if (signature === 'invalid') return { verification: 'spoofed', verifiedBy: null };
    }
    return this.byAddress(bot, visit.ip, ranges ?? (await this.ranges.current())) ?? byNames(bot, await this.confirmedNames(visit.ip));
  }

  /**
   * The verdict when it needs nothing looked up: no signature to check, and no reverse DNS or its
   * answer already known for the address; otherwise null (then `verify`). Streaming ingestion
   * judges most visits this way, with no promise per visit.
   */
  verifyNow(bot: BotEntry, visit: Visit, ranges: RangeTable): VerificationResult | null {
    return signed(visit) ? null : this.byAddress(bot, visit.ip, ranges);
  }

  /** By the published ranges, then by reverse DNS where the operator documents it and its answer is known; null when it must be looked up. */
  private byAddress(bot: BotEntry, ip: string, { table, bots }: RangeTable): VerificationResult | null {
    const hasRanges = bots.has(bot.id);
    if (hasRanges && table.contains(ip, bot.id)) return { verification: 'verified', verifiedBy: 'ip-range' };
    if (bot.verification.rdnsSuffixes?.length && this.resolver) {
      const names = this.dnsKnown.get(ip);
      return names ? byNames(bot, names) : null;
    }
    return { verification: hasRanges ? 'spoofed' : 'unverifiable', verifiedBy: null };
  }

  /**
   * Forward-confirmed reverse DNS: the PTR names of the address whose own A/AAAA records lead back
   * to it (lower case, no trailing dot). Cached per address for the process (bounded); a DNS
   * failure confirms nothing.
   */
  confirmedNames(ip: string): Promise<string[]> {
    let hit = this.dnsCache.get(ip);
    if (!hit) {
      if (this.dnsCache.size > 50_000) {
        this.dnsCache.clear();
        this.dnsKnown.clear();
      }
      hit = this.lookUp(ip);
      this.dnsCache.set(ip, hit);
      void hit.then((names) => this.dnsKnown.set(ip, names));
    }
    return hit;
  }

  private async lookUp(ip: string): Promise<string[]> {
    const resolver = this.resolver!;
    let names: string[];
    try {
      names = await resolver.reverse(ip);
    } catch {
      return [];
    }
    const confirmed: string[] = [];
    for (const raw of names.slice(0, 5)) {
      const name = raw.toLowerCase().replace(/\.$/, '');
      try {
        const addresses = ip.includes(':') ? await resolver.resolve6(name) : await resolver.resolve4(name);
        if (addresses.some((a) => a.toLowerCase() === ip.toLowerCase())) confirmed.push(name);
      } catch (error) {
        this.logger.debug(`forward lookup of ${name} failed: ${(error as Error).message}`);
      }
    }
    return confirmed;
  }
}
