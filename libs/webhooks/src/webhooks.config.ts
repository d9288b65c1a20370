import { defineConfigSection, type ConfigOf } from '@libs/config';

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
  }),
);
export type WebhooksConfig = ConfigOf<typeof WEBHOOKS_CONFIG>;
