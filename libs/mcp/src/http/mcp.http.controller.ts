import { Controller, Delete, Get, Logger, Post, Req, Res, type OnModuleDestroy } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { labelUsage } from '@libs/usage';
import { McpServerFactory, type McpCall } from '../mcp-server.factory';

/** JSON-RPC methods counted under their own name in /usage; any other is `mcp:other`. */
const COUNTED_METHODS = new Set(['initialize', 'notifications/initialized', 'server/discover', 'ping', 'tools/list', 'prompts/list', 'prompts/get', 'resources/list', 'resources/templates/list', 'resources/read']);

const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of the first own property named like a prototype member, at any depth (a parsed JSON body keeps `__proto__` as an own property). */
export function prototypeNameIn(value: unknown, path: string, depth = 0): string | null {
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const key of Object.keys(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    if (!Array.isArray(value) && PROTOTYPE_NAMES.has(key)) return at;
    const inner = prototypeNameIn((value as Record<string, unknown>)[key], at, depth + 1);
    if (inner !== null) return inner;
  }
  return null;
}

interface JsonRpcLike {
  method?: unknown;
  params?: { name?: unknown };
}

/**
 * POST /mcp: the MCP server (DESIGN §16), Streamable HTTP through the SDK's per-request handler,
 * stateless. The request has passed the API's gate (credential, rate limit) like any other; it is
 * counted in /usage under the tool's name (`mcp:<tool>`), and the SDK builds a fresh server for
 * it from the principal. The answer is copied onto Fastify's reply, so the pipeline's headers
 * (request id, rate limits) and hooks (logs, metrics, usage) apply.
 */
@ApiTags('MCP')
@Controller('mcp')
export class McpHttpController implements OnModuleDestroy {
  private readonly logger = new Logger('Mcp');
  private readonly handler: McpHttpHandler;

  constructor(private readonly factory: McpServerFactory) {
    this.handler = createMcpHandler((ctx) => this.factory.build((ctx.authInfo?.extra as { call: McpCall }).call), {
      legacy: 'stateless',
      onerror: (error) => this.logger.debug(`MCP request refused: ${error.message}`),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }

  @Post()
  @RequireScope(null)
  @ApiOperation({
    operationId: 'mcp',
    summary: 'The MCP server (Model Context Protocol, Streamable HTTP, stateless): tools over the figures and the opportunity queue',
    description: 'A JSON-RPC message in, its answer out. Each tool needs the scope of the REST operation it wraps; tools/list shows only those the credential has. See the README, "Use it from an assistant".',
  })
  @ApiOkResponse({ description: 'The JSON-RPC answer (application/json), or an event stream' })
  async post(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = request.body as JsonRpcLike | undefined;
    const method = body !== null && typeof body === 'object' && typeof body.method === 'string' ? body.method : undefined;
    labelUsage(request, this.usageEndpoint(method, body?.params?.name));
    const call: McpCall = { principal, requestId: String(request.id), method, prototypeName: method === 'tools/call' ? prototypeNameIn(body?.params, 'params') : null };
    const response = await this.handler.fetch(await toWebRequest(request.raw, body), {
      parsedBody: body,
      authInfo: { token: principal.subject, clientId: principal.subject, scopes: [...principal.scopes], extra: { call } },
    });
    void reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') void reply.header(name, value);
    });
    if (response.body === null) return void reply.send();
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      return void reply.send(Readable.fromWeb(response.body as unknown as WebReadableStream));
    }
    return void reply.send(await response.text());
  }

  @Get()
  @RequireScope(null)
  @ApiOperation({ operationId: 'mcp_stream', summary: 'Always 405: the MCP server is stateless and opens no stream', description: 'Streamable HTTP clients probe GET for a server-sent event stream; this server has none (Allow: POST).' })
  get(): never {
    throw this.notAllowed();
  }

  @Delete()
  @RequireScope(null)
  @ApiOperation({ operationId: 'mcp_session_end', summary: 'Always 405: the MCP server is stateless and has no session to end', description: 'Streamable HTTP clients end a session with DELETE; this server keeps none (Allow: POST).' })
  delete(): never {
    throw this.notAllowed();
  }

  /** Stateless: no session to stream from or to end (the Streamable HTTP answer for GET and DELETE then). */
  private notAllowed(): ApiError {
    return new ApiError(405, 'METHOD_NOT_ALLOWED', 'This MCP server is stateless: POST one JSON-RPC message per request', undefined, { Allow: 'POST' });
  }

  private usageEndpoint(method: string | undefined, tool: unknown): string {
    if (method === 'tools/call') return this.factory.isTool(tool) ? `mcp:${tool}` : 'mcp:tools/call';
    return method !== undefined && COUNTED_METHODS.has(method) ? `mcp:${method}` : 'mcp:other';
  }
}
