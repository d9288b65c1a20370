import type { FastifyReply } from 'fastify';

/**
 * For a handler that already holds its response as JSON text (stored documents assembled without
 * parsing): marks the reply as JSON and returns the text, which Fastify then sends as it is
 * instead of serialising it again as a string. Use with `@Res({ passthrough: true })`.
 */
export function sendJsonText(reply: FastifyReply, json: string): string {
  reply.header('content-type', 'application/json; charset=utf-8');
  return json;
}
