import type { FastifyInstance, FastifyRequest } from 'fastify';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';

/** The origin the caller reached (behind a proxy, its forwarded protocol and host when TRUST_PROXY says so). */
export function publicOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const isMcp = (url: string) => url === MCP_PATH || url.startsWith(`${MCP_PATH}?`) || url.startsWith(`${MCP_PATH}/`);

/**
 * What the API's gate answers on /mcp, in MCP's terms: a 401 names the protected-resource
 * metadata in `WWW-Authenticate` (RFC 9728 §5.1, where MCP clients start OAuth discovery), and
 * the gate's two refusals of the credential, 401 and 429, are JSON-RPC error responses (id null:
 * the message was not read) carrying the API's error object in `error.data`. The status and
 * headers (Retry-After, rate limits) stay as they are; other HTTP errors (400 for a query string,
 * 405, 413, 415) keep the API's error object, as on every route.
 */
export function installMcpAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!isMcp(request.url) || (reply.statusCode !== 401 && reply.statusCode !== 429)) return payload;
    if (reply.statusCode === 401) {
      void reply.header('www-authenticate', `Bearer realm="api", resource_metadata="${publicOrigin(request)}${PROTECTED_RESOURCE_PATH}", ApiKey header="X-API-Key"`);
    }
    if (typeof payload !== 'string') return payload;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return payload;
    }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if ((parsed as { jsonrpc?: unknown }).jsonrpc !== undefined || typeof error?.code !== 'string' || typeof error.message !== 'string') return payload;
    void reply.header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `${error.code}: ${error.message}`, data: parsed } });
  });
}
