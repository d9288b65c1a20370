import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { WebhookSender, newWebhookSecret } from '@libs/webhooks';
import { until } from '../support/processes';
import { startTestApi, type TestApi } from '../support/test-api';
import { Receiver } from './support/receiver';

/**
 * The SSRF guard on (WEBHOOK_ALLOW_PRIVATE_URLS=false, the default): non-public targets are refused
 * at creation and at connect time. The only thing listening is a receiver on 127.0.0.1, and it
 * must never see a connection: every other address here is refused before any socket opens.
 */
let api: TestApi;
let org: { id: number; key: string; keyId: number };
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RELAY_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE_MS: '60000' }, [WorkerPartModule.forRoot()]);
  org = await api.organization();
});
afterAll(async () => {
  await api?.close();
  await receiver.stop();
});

describe('SSRF guard', () => {
  it('refuses loopback, private, link-local, metadata, unique-local, unspecified and multicast targets at creation (400 on url)', async () => {
    const urls = [
      receiver.url('/hook'),
      `http://localhost:${receiver.port}/hook`,
      'http://10.0.0.1/hook',
      'http://192.168.1.10/hook',
      'http://172.16.0.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      `http://[::1]:${receiver.port}/hook`,
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::7f00:1]/hook',
      'http://[::a9fe:a9fe]/latest/meta-data/',
      'http://0.0.0.0/hook',
      'http://224.0.0.1/hook',
      'http://2130706433/hook', // 127.0.0.1 as one integer
    ];
    for (const url of urls) {
      const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url, events: ['opportunity.opened'] } });
      expect({ url, status: r.status, code: r.body.error?.code }).toEqual({ url, status: 400, code: 'VALIDATION_ERROR' });
      expect(r.body.error.details.fields[0].field).toBe('url');
    }
    const patchTarget = await api.dataSource.query(
      `INSERT INTO webhooks (organization_id, url, events, secret) VALUES ($1, 'https://hooks.example.com/x', '{opportunity.opened}', $2) RETURNING id`,
      [org.id, newWebhookSecret()],
    );
    const r = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${patchTarget[0].id}`, key: org.key, body: { url: 'http://169.254.169.254/' } });
    expect(r.status).toBe(400);
    expect(receiver.connections).toBe(0);
  });

  it('refuses at connect time too: a name resolving to loopback (DNS rebinding after creation) and IP literals, without connecting', async () => {
    const sender = new WebhookSender({ timeoutMs: 2000, allowPrivate: false });
    try {
      for (const url of [`http://localhost:${receiver.port}/hook`, receiver.url('/hook'), `http://[::1]:${receiver.port}/`, 'http://169.254.169.254/x', 'http://10.0.0.1/x']) {
        const r = await sender.send({ url, secret: newWebhookSecret(), id: 'msg_1', body: '{}', headers: {} });
        expect({ url, status: r.statusCode, error: r.error }).toEqual({ url, status: null, error: expect.stringMatching(/^address not allowed/) });
      }
    } finally {
      sender.close();
    }
    expect(receiver.connections).toBe(0);
  });

  it('the delivery worker records a refused attempt for a subscription whose host now resolves to loopback, and never connects', async () => {
    // As if the name resolved to a public address at creation and was re-pointed since.
    const [{ id }] = await api.dataSource.query(
      `INSERT INTO webhooks (organization_id, url, events, secret) VALUES ($1, $2, '{webhook.test}', $3) RETURNING id`,
      [org.id, `http://localhost:${receiver.port}/rebound`, newWebhookSecret()],
    );
    const t = await api.request({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, key: org.key });
    expect(t.status).toBe(200);
    let delivery: { attemptCount: number; error: string | null; statusCode: number | null } | undefined;
    await until(async () => {
      delivery = (await api.request({ url: `/api/v1/webhooks/${id}/deliveries`, key: org.key })).body.data[0];
      return (delivery?.attemptCount ?? 0) >= 1;
    }, 10_000, 'the refused attempt');
    // Refused, and said without what our resolver answered (the subscriber reads this error).
    expect(delivery).toMatchObject({ statusCode: null, error: expect.stringMatching(/^address not allowed/) });
    expect(delivery!.error).not.toMatch(/127\.0\.0\.1|::1|localhost/);
    expect(receiver.connections).toBe(0);
  });
});
