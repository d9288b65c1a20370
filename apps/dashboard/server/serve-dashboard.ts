import type { FastifyInstance, FastifyReply } from 'fastify';
import { etagOf, loadDashboard, type DashboardAssets } from './dashboard-assets';

export const DASHBOARD_PATH = '/app';

let assets: Promise<DashboardAssets> | null = null;

/**
 * The dashboard's files, built once per process on first use (they depend on the code only).
 * `npm start` asks before it prints its banner, so the first page opens at once.
 */
export function dashboardAssets(): Promise<DashboardAssets> {
  return (assets ??= loadDashboard());
}

/**
 * The page's Content-Security-Policy: scripts and styles from this server only (no inline script,
 * no inline style, no eval), data only from this origin's API, nothing framed or framing.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/**
 * Serves the dashboard (DESIGN §15) at /app: the page for every path under /app (the app routes
 * in the browser, so a shared URL reloads the same view) and its hashed assets, cached for good.
 * Plain routes, open to all: the files hold no data; every figure comes from /api/v1 with the
 * user's key. (@fastify/static is left out for the reason the /docs assets give: its ESM-only
 * dependency cannot be loaded by Jest, which runs the API in-process.) The bundle is built on the
 * first request (a few hundred milliseconds, once per process) unless `dashboardAssets()` was
 * called before, so a process whose dashboard is never opened (a test's API) never runs the bundler.
 */
export function serveDashboard(fastify: FastifyInstance): void {
  const ready = dashboardAssets;
  const sendPage = async (reply: FastifyReply) => {
    const { html } = await ready();
    return secure(reply).header('cache-control', 'no-cache').header('etag', etagOf(html)).type('text/html; charset=utf-8').send(html);
  };
  fastify.get(DASHBOARD_PATH, (_request, reply) => sendPage(reply));
  fastify.get(`${DASHBOARD_PATH}/assets/:name`, async (request, reply) => {
    const { name } = request.params as { name: string };
    const content = (await ready()).files.get(name);
    if (!content) return secure(reply).code(404).type('text/plain; charset=utf-8').send('Not found');
    return secure(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream')
      .send(content);
  });
  fastify.get(`${DASHBOARD_PATH}/*`, (_request, reply) => sendPage(reply));
}
