import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './api-error';

/**
 * Fastify's `frameworkErrors`: a URL the router cannot take (malformed percent-encoding, a path
 * parameter over 100 characters) is answered with the error object (400 VALIDATION_ERROR), not
 * Fastify's own body.
 */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is longer than 100 characters'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The URL is not valid (malformed percent-encoding)'
        : 'The URL is not valid';
  void reply
    .status(400)
    .header('x-request-id', request.id)
    .send({ error: { code: 'VALIDATION_ERROR', message } } satisfies ErrorBody);
}

/**
 * Fastify's `clientErrorHandler`: requests that never became requests (headers over Node's limit,
 * too slow to arrive, not HTTP) get a status and the error object before the socket is closed.
 */
export function clientErrorReply(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: { code: 'VALIDATION_ERROR', message } } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
