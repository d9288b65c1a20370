import { loadConfig, sectionOf } from '@libs/config';
import { EVENT_STORE_CONFIG } from './event-store.config';

describe('EVENT_STORE_CONFIG', () => {
  const load = (env: NodeJS.ProcessEnv) => sectionOf(loadConfig(env, [EVENT_STORE_CONFIG]), EVENT_STORE_CONFIG);

  it('defaults to the PostgreSQL store', () => {
    expect(load({})).toEqual({ eventStore: 'postgres', eventStoreUrl: null, subscriptionPollMs: 500 });
  });

  it('reads the feed subscriptions’ poll interval (PROJECTION_POLL_MS) within its bounds', () => {
    expect(load({ PROJECTION_POLL_MS: '50' }).subscriptionPollMs).toBe(50);
    expect(() => load({ PROJECTION_POLL_MS: '5' })).toThrow(/PROJECTION_POLL_MS/);
  });

  it('requires EVENTSTORE_URL when EVENT_STORE=eventstoredb', () => {
    expect(() => load({ EVENT_STORE: 'eventstoredb' })).toThrow(/EVENTSTORE_URL: required/);
    expect(load({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false' }).eventStoreUrl).toContain('esdb://');
  });

  it('names an unknown store', () => {
    expect(() => load({ EVENT_STORE: 'kafka' })).toThrow(/EVENT_STORE: "kafka" is not one of postgres, eventstoredb/);
  });
});
