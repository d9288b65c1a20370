import type { Command } from 'commander';
import { connectRedis } from '@libs/redis';
import { ApiKeysRepository, parseScopes, publishRevocation, type Scope } from '@libs/auth';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt, tierOption } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** "90s", "15m", "1h", "30d" → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^([0-9]{1,9})(s|m|h|d)$/.exec(text.trim());
  if (!m) throw new CliUsageError(`--expires-in takes a duration like 90s, 15m, 1h or 30d, got "${text}"`);
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

/** Scopes from a CLI option ("a,b" or "all"); an unknown or missing one is a usage error. */
export function scopesOption(text: string): Scope[] {
  let scopes: Scope[];
  try {
    scopes = parseScopes(text, /,/);
  } catch (e) {
    throw new CliUsageError((e as Error).message);
  }
  if (!scopes.length) throw new CliUsageError('--scopes needs at least one scope');
  return scopes;
}

/** `key create`, `key revoke`. */
export function registerKeys(program: Command, run: Run, json: () => boolean): void {
  const key = program.command('key').description('API keys');

  key
    .command('create')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--scopes <list>', 'comma-separated scopes, or "all"')
    .option('--tier <tier>', "rate-limit tier (default: the organisation's)")
    .option('--client <id>', 'bind the key to a client: it sees that client only')
    .option('--expires-in <duration>', 'e.g. 90s, 1h, 30d')
    .option('--name <name>', 'a label for the key')
    .action((opts: { org: string; scopes: string; tier?: string; client?: string; expiresIn?: string; name?: string }) =>
      run(async (ctx) => {
        const scopes = scopesOption(opts.scopes);
        const created = await (await ctx.get(ApiKeysRepository)).create({
          organizationId: positiveInt('--org', opts.org)!,
          scopes,
          tier: tierOption(opts.tier),
          clientId: positiveInt('--client', opts.client) ?? null,
          expiresAt: opts.expiresIn ? new Date(Date.now() + parseDuration(opts.expiresIn)) : null,
          name: opts.name ?? null,
        });
        process.stdout.write(
          (json() ? toJson(created) : `key ${created.id}: ${created.key}\n(shown once: store it now; scopes ${created.scopes.join(',')}, tier ${created.tier})`) + '\n',
        );
      }),
    );

  key
    .command('revoke')
    .requiredOption('--id <id>', 'key id')
    .action((opts: { id: string }) =>
      run(async (ctx) => {
        const revoked = await (await ctx.get(ApiKeysRepository)).revoke(positiveInt('--id', opts.id)!);
        if (!revoked) throw new CliUsageError(`key ${opts.id} does not exist`);
        // Every API process forgets the key at once (and within seconds if this message is lost).
        const redis = connectRedis(ctx.config, { maxRetriesPerRequest: 1, lazyConnect: true });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          await publishRevocation(redis, ctx.config.redisPrefix, revoked.keyHash);
        } catch {
          process.stderr.write('warning: Redis unreachable; API processes forget the key within 5 seconds\n');
        } finally {
          redis.disconnect();
        }
        process.stdout.write((json() ? toJson({ id: revoked.id, revokedAt: revoked.revokedAt }) : `key ${revoked.id} revoked at ${revoked.revokedAt}`) + '\n');
      }),
    );
}
