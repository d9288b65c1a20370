import { configVariables, loadConfig, type AppConfig, type ConfigSection } from '@libs/config';
import { EVENT_STORE_CONFIG } from '@libs/event-store';
import { PROJECTION_CONFIG } from '@libs/projection-engine';
import { QUEUE_CONFIG } from '@libs/queue';
import { RATE_LIMIT_CONFIG } from '@libs/rate-limit';
import { USAGE_CONFIG } from '@libs/usage';
import { WEBHOOKS_CONFIG } from '@libs/webhooks';
import { ANALYSIS_CONFIG } from '@libs/analysis';
import { DETECTORS_CONFIG } from '@libs/detectors';
import { CHANNELS_CONFIG } from '@libs/channels';
import { AGENT_ANALYTICS_CONFIG } from '@libs/agent-analytics';
import { PAGE_AUDITS_CONFIG } from '@libs/page-audits';
import { LOCAL_SERVICES_CONFIG } from '@libs/local-services';

/** Every configuration section the service's processes load, in the order the README's table lists them (after the core). */
export const SERVICE_CONFIG_SECTIONS: readonly ConfigSection<unknown>[] = [
  LOCAL_SERVICES_CONFIG,
  EVENT_STORE_CONFIG,
  PROJECTION_CONFIG,
  QUEUE_CONFIG,
  WEBHOOKS_CONFIG,
  RATE_LIMIT_CONFIG,
  USAGE_CONFIG,
  ANALYSIS_CONFIG,
  DETECTORS_CONFIG,
  CHANNELS_CONFIG,
  AGENT_ANALYTICS_CONFIG,
  PAGE_AUDITS_CONFIG,
];

/** Every variable the service reads (the core's and every section's). */
export const SERVICE_CONFIG_VARIABLES = configVariables(SERVICE_CONFIG_SECTIONS);

/** The whole configuration, validated in one pass (every bad value reported at once). */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return loadConfig(env, SERVICE_CONFIG_SECTIONS);
}
