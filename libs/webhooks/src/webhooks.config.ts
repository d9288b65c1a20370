import { defineConfigSection, type ConfigOf, type ConfigReader } from '@libs/config';
import { parseEncryptionKeys } from './domain/encryption-keys';

/** Webhooks: which URLs a subscription may use, and how deliveries are made, retried and given up. */
export const WEBHOOKS_CONFIG = defineConfigSection(
  'webhooks',
  [
    { name: 'WEBHOOK_ALLOW_PRIVATE_URLS', default: 'false', description: 'Allow webhook URLs on loopback/private addresses (local development and tests only)' },
    { name: 'WEBHOOK_RETRY_SCHEDULE_MS', default: '5000,300000,1800000,7200000,18000000,36000000,36000000', description: 'Delays (ms, comma list) before each webhook retry' },
    { name: 'WEBHOOK_TIMEOUT_MS', default: '15000', description: 'Timeout of one webhook delivery attempt' },
    { name: 'WEBHOOK_CONCURRENCY', default: '50', description: 'Webhook deliveries in flight per worker process' },
    { name: 'WEBHOOK_RELAY_POLL_MS', default: '1000', description: 'How often the outbox relay looks for due deliveries when not woken' },
    { name: 'WEBHOOK_RECONCILE_MS', default: '30000', description: 'How often the reconciler re-enqueues due deliveries Redis lost' },
    { name: 'WEBHOOK_DISABLE_AFTER_MS', default: '432000000', description: 'A subscription with only failures for this long (5 days) is deactivated' },
    { name: 'WEBHOOK_MAX_SUBSCRIPTIONS', default: '100', description: 'Webhook subscriptions an organisation may have (409 beyond)' },
    {
      name: 'WEBHOOK_ENCRYPTION_KEYS',
      default: '(none)',
      description: 'Keys sealing webhook secrets and header values (AES-256-GCM): comma list of <id>:<32 bytes base64>, the first seals; empty: the key file',
    },
    { name: 'WEBHOOK_ENCRYPTION_KEY_FILE', default: '.secrets/webhook-encryption.key', description: 'Key file used when WEBHOOK_ENCRYPTION_KEYS is empty; generated on first start (local set-ups)' },
  ],
  (r) => ({
    /** Allow URLs on loopback, private, link-local or metadata addresses (local development and tests only). */
    allowPrivateUrls: r.bool('WEBHOOK_ALLOW_PRIVATE_URLS'),
    /** Retry delays after each failed attempt (its length + 1 = attempts in all). */
    retryScheduleMs: r.msList('WEBHOOK_RETRY_SCHEDULE_MS'),
    timeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 100, 600_000),
    concurrency: r.int('WEBHOOK_CONCURRENCY', 1, 1000),
    relayPollMs: r.int('WEBHOOK_RELAY_POLL_MS', 10, 600_000),
    reconcileMs: r.int('WEBHOOK_RECONCILE_MS', 50, 86_400_000),
    /** A subscription with nothing but failures for this long is deactivated. */
    disableAfterMs: r.int('WEBHOOK_DISABLE_AFTER_MS', 1000, 31_536_000_000),
    maxSubscriptions: r.int('WEBHOOK_MAX_SUBSCRIPTIONS', 1, 1_000_000),
    encryptionKeys: encryptionKeys(r),
    encryptionKeyFile: r.raw('WEBHOOK_ENCRYPTION_KEY_FILE'),
  }),
);
export type WebhooksConfig = ConfigOf<typeof WEBHOOKS_CONFIG>;

/** WEBHOOK_ENCRYPTION_KEYS, checked for form (never echoed: the values are keys). */
function encryptionKeys(r: ConfigReader): string {
  const text = r.optional('WEBHOOK_ENCRYPTION_KEYS') ?? '';
  try {
    parseEncryptionKeys(text);
  } catch (error) {
    r.problem('WEBHOOK_ENCRYPTION_KEYS', (error as Error).message);
  }
  return text;
}
