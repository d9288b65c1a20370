import type { Command } from 'commander';
import { connectRedis } from '@libs/redis';
import { OAuthClientInputError, OAuthClientsRepository, publishRevocation } from '@libs/auth';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt, tierOption } from './tenancy.command';
import { scopesOption } from './keys.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `oauth-client create`, `oauth-client revoke` (docs/oauth.md). */
export function registerOAuth(program: Command, run: Run, json: () => boolean): void {
  const client = program.command('oauth-client').description('OAuth 2.0 clients');

  client
    .command('create')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--scopes <list>', 'comma-separated scopes the client may obtain, or "all"')
    .option('--redirect-uri <uri>', 'a redirect URI for the authorization_code grant (repeatable; matched exactly)', collect, [])
    .option('--tier <tier>', "rate-limit tier of its tokens (default: the organisation's)")
    .option('--name <name>', 'a label shown on the authorization request')
    .action((opts: { org: string; scopes: string; redirectUri: string[]; tier?: string; name?: string }) =>
      run(async (ctx) => {
        const scopes = scopesOption(opts.scopes);
        let created;
        try {
          created = await (await ctx.get(OAuthClientsRepository)).create({
            organizationId: positiveInt('--org', opts.org)!,
            scopes,
            redirectUris: opts.redirectUri,
            tier: tierOption(opts.tier),
            name: opts.name ?? null,
          });
        } catch (e) {
          if (e instanceof OAuthClientInputError) throw new CliUsageError(e.message);
          throw e;
        }
        const out = { clientId: created.clientId, clientSecret: created.clientSecret, scopes: created.scopes, redirectUris: created.redirectUris };
        process.stdout.write(
          (json()
            ? toJson(out)
            : `client_id:     ${out.clientId}\nclient_secret: ${out.clientSecret}\n(the secret is shown once: store it now; scopes ${out.scopes.join(',')}, tier ${created.tier})`) + '\n',
        );
      }),
    );

  client
    .command('revoke')
    .requiredOption('--client-id <id>', 'the public client_id')
    .action((opts: { clientId: string }) =>
      run(async (ctx) => {
        const revoked = await (await ctx.get(OAuthClientsRepository)).revoke(opts.clientId);
        if (!revoked) throw new CliUsageError(`OAuth client ${opts.clientId} does not exist`);
        // Every API process forgets the client's access tokens at once (and within seconds if this message is lost).
        const redis = connectRedis(ctx.config, { maxRetriesPerRequest: 1, lazyConnect: true });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          for (const hash of revoked.accessTokenHashes) await publishRevocation(redis, ctx.config.redisPrefix, hash);
        } catch {
          process.stderr.write('warning: Redis unreachable; API processes forget the tokens within 5 seconds\n');
        } finally {
          redis.disconnect();
        }
        const out = { clientId: opts.clientId, revokedAt: revoked.revokedAt, revokedAccessTokens: revoked.accessTokenHashes.length };
        process.stdout.write((json() ? toJson(out) : `OAuth client ${out.clientId} revoked at ${out.revokedAt} (${out.revokedAccessTokens} access tokens)`) + '\n');
      }),
    );
}
