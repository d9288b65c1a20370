import { ConfigError, loadConfig, redact, sectionOf } from './app-config';
import { defineConfigSection } from './config-section';

/** A concern's section, as a library declares one beside it. */
const QUEUE = defineConfigSection('queue', [{ name: 'QUEUE_MODE', default: 'fast', description: 'fast or safe' }], (r) => ({
  mode: r.oneOf('QUEUE_MODE', ['fast', 'safe'] as const),
}));

describe('loadConfig', () => {
  it('gives local defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/ai_visibility',
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'info',
    });
    expect(sectionOf(loadConfig({}, [QUEUE]), QUEUE)).toEqual({ mode: 'fast' });
  });

  it('reports every bad value at once, one line each, naming the variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', REDIS_URL: 'nope', QUEUE_MODE: 'kafka', LOG_LEVEL: 'loud' }, [QUEUE]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['DATABASE_URL', 'QUEUE_MODE', 'PORT', 'REDIS_URL', 'LOG_LEVEL'].sort(),
    );
  });

  it('reads REDIS_CLUSTER_NODES as seed URLs and DATABASE_READ_URL as an optional PostgreSQL URL', () => {
    expect(loadConfig({})).toMatchObject({ redisClusterNodes: null, databaseReadUrl: null });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis://:pw@10.0.0.2:7001', DATABASE_READ_URL: 'postgres://r@10.0.0.3/db' })).toMatchObject({
      redisClusterNodes: ['redis://10.0.0.1:7000', 'redis://:pw@10.0.0.2:7001'],
      databaseReadUrl: 'postgres://r@10.0.0.3/db',
    });
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1', DATABASE_READ_URL: 'mysql://x' })).toThrow(/DATABASE_READ_URL[\s\S]*REDIS_CLUSTER_NODES: "10.0.0.1" is not host:port/);
  });

  it('refuses a section that was not loaded', () => {
    expect(() => sectionOf(loadConfig({}), QUEUE)).toThrow(/section "queue" was not loaded/);
  });

  it('reads TRUST_PROXY as off, on, a number of hops or a list of proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.1.0.0/16' }).trustProxy).toBe('10.0.0.1,10.1.0.0/16');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('never prints a password', () => {
    expect(redact('postgres://u:secret@h:5432/d')).toBe('postgres://u:***@h:5432/d');
    expect(() => loadConfig({ DATABASE_URL: 'http://u:secret@h/d' })).toThrow(/\*\*\*/);
  });
});
