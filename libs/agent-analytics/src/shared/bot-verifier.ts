import { Injectable, Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { InjectConfig } from '@libs/config';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import type { BotEntry } from '../domain/bot-catalogue';
import type { Visit } from '../domain/visit';
import { BotRanges } from './bot-ranges';
import { WebBotAuth } from './web-bot-auth';

export type Verification = 'verified' | 'spoofed' | 'unverifiable';
export type VerifiedBy = 'ip-range' | 'fcrdns' | 'web-bot-auth';

export interface VerificationResult {
  verification: Verification;
  verifiedBy: VerifiedBy | null;
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

  constructor(
    private readonly ranges: BotRanges,
    private readonly webBotAuth: WebBotAuth,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {
    if (config.dnsServers === 'off') this.resolver = null;
    else {
      this.resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 1 });
      if (config.dnsServers) this.resolver.setServers(config.dnsServers);
    }
  }

  async verify(bot: BotEntry, visit: Visit): Promise<VerificationResult> {
    if (visit.headers?.['signature'] && visit.headers['signature-input']) {
      const signed = await this.webBotAuth.check(bot, visit);
      if (signed === 'valid') return { verification: 'verified', verifiedBy: 'web-bot-auth' };
      if (signed === 'invalid') return { verification: 'spoofed', verifiedBy: null };
    }
    const { table, bots } = await this.ranges.current();
    const hasRanges = bots.has(bot.id);
    if (hasRanges && table.contains(visit.ip, bot.id)) return { verification: 'verified', verifiedBy: 'ip-range' };
    const suffixes = bot.verification.rdnsSuffixes;
    if (suffixes?.length && this.resolver) {
      const names = await this.confirmedNames(visit.ip);
      if (names.some((n) => suffixes.some((s) => n === s || n.endsWith(`.${s}`)))) return { verification: 'verified', verifiedBy: 'fcrdns' };
      return { verification: 'spoofed', verifiedBy: null };
    }
    if (hasRanges) return { verification: 'spoofed', verifiedBy: null };
    return { verification: 'unverifiable', verifiedBy: null };
  }

  /**
   * Forward-confirmed reverse DNS: the PTR names of the address whose own A/AAAA records lead back
   * to it (lower case, no trailing dot). Cached per address for the process (bounded); a DNS
   * failure confirms nothing.
   */
  confirmedNames(ip: string): Promise<string[]> {
    let hit = this.dnsCache.get(ip);
    if (!hit) {
      if (this.dnsCache.size > 50_000) this.dnsCache.clear();
      hit = this.lookUp(ip);
      this.dnsCache.set(ip, hit);
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
