import type { Command } from 'commander';
import { sectionOf } from '@libs/config';
import { WEBHOOKS_CONFIG, WebhookSecretBox, resealWebhookSecrets } from '@libs/webhooks';
import { toJson, type CliContext } from '../cli-context';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** `webhooks reseal`: the key rotation step (docs/decisions.md, "Webhook secrets at rest"). */
export function registerWebhooks(program: Command, run: Run, json: () => boolean): void {
  const webhooks = program.command('webhooks').description('Webhook subscriptions');
  webhooks
    .command('reseal')
    .description('Seal every webhook secret and header value with the first key of WEBHOOK_ENCRYPTION_KEYS (after adding a key, before removing the old one)')
    .action(() =>
      run(async (ctx) => {
        const box = new WebhookSecretBox(sectionOf(ctx.config, WEBHOOKS_CONFIG));
        const changed = await resealWebhookSecrets(await ctx.dataSource(), box);
        process.stdout.write((json() ? toJson({ resealed: changed }) : `${changed} subscription(s) sealed again with the current key`) + '\n');
      }),
    );
}
