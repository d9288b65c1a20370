import { defineConfigSection, type ConfigOf } from '@libs/config';

/**
 * Whether `npm start` and the CLI bring their own PostgreSQL and Redis when DATABASE_URL or
 * REDIS_URL is not set (the api and worker processes never do: they use the variables' defaults).
 */
export const LOCAL_SERVICES_CONFIG = defineConfigSection(
  'local-services',
  [
    {
      name: 'LOCAL_SERVICES',
      default: 'auto',
      description:
        '`npm start` and the CLI, for DATABASE_URL or REDIS_URL not set: `auto` uses the server of their own already running, else the one answering at the default address, else starts their own (an embedded PostgreSQL, a redis-server from the PATH); `always` uses or starts their own without looking; `never` uses the default address only',
    },
    { name: 'DATA_DIR', default: '.data', description: 'Where `npm start` and the CLI keep the embedded PostgreSQL (`postgres/`, kept across restarts), its password, logs and the addresses of the servers they started' },
  ],
  (r) => ({
    mode: r.oneOf('LOCAL_SERVICES', ['auto', 'always', 'never'] as const),
    dataDir: r.raw('DATA_DIR'),
  }),
);
export type LocalServicesConfig = ConfigOf<typeof LOCAL_SERVICES_CONFIG>;
