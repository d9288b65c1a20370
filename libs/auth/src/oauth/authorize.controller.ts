import { applyDecorators, Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiFoundResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@libs/http';
import { Authenticator } from '../authenticator.service';
import { Public } from '../decorators';
import type { Scope } from '../domain/scopes';
import { AuthorizationCodesRepository } from './authorization-codes.repository';
import { OAuthClientsRepository, type OAuthClient } from './oauth-clients.repository';
import { NO_STORE_HEADERS, OAuthError, type OAuthErrorCode } from './oauth-errors';
import { readOAuthParams, type OAuthParams } from './oauth-params';
import { AuthorizationRequestDto, OAuthJsonErrorDto } from './oauth.dto';
import { isValidCodeChallenge } from './pkce';
import { withParameters } from './redirect-uris';
import { requestedScopes } from './scopes';

/** A validated authorization request (RFC 6749 §4.1.1 with PKCE). */
interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
}

/** An error to send back to the client through its redirect URI (RFC 6749 §4.1.2.1). */
class RedirectedError {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {}
}

const PARAMETERS = applyDecorators(
  ApiQuery({ name: 'response_type', enum: ['code'], required: true }),
  ApiQuery({ name: 'client_id', required: true }),
  ApiQuery({ name: 'redirect_uri', required: true, description: 'Exactly one of the redirect URIs registered for the client' }),
  ApiQuery({ name: 'scope', required: false, description: "Space-separated; default: all of the client's scopes" }),
  ApiQuery({ name: 'state', required: false, description: 'Returned unchanged with the code (recommended, against CSRF)' }),
  ApiQuery({ name: 'code_challenge', required: true, description: 'PKCE: BASE64URL(SHA256(code_verifier)), 43 characters' }),
  ApiQuery({ name: 'code_challenge_method', enum: ['S256'], required: true }),
);

/**
 * The authorization endpoint of the authorization_code grant, usable without a browser session:
 * GET describes the request (JSON) and POST, with the same parameters and one of the
 * organisation's API keys in X-API-Key, approves it and redirects (302) to the client's
 * redirect URI with `code` and `state`. Errors before the client and redirect URI are known are
 * shown directly (400); later ones are redirected with `error` (RFC 6749 §4.1.2.1).
 */
@ApiTags('OAuth')
@Controller('api/oauth')
export class AuthorizeController {
  constructor(
    private readonly clients: OAuthClientsRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly authenticator: Authenticator,
  ) {}

  @Get('authorize')
  @Public()
  @ApiOperation({
    summary: 'Describe an authorization request (authorization_code grant with PKCE S256)',
    description:
      'No credentials. Validates the request and answers what the resource owner is asked to approve, and how (POST the same parameters with an API key). ' +
      'An unknown client or unregistered redirect_uri is 400 here; other errors redirect (302) to redirect_uri with error, error_description and state.',
  })
  @PARAMETERS
  @ApiOkResponse({ type: AuthorizationRequestDto })
  @ApiFoundResponse({ description: 'Error redirected to redirect_uri (error, error_description, state)' })
  @ApiBadRequestResponse({ type: OAuthJsonErrorDto, description: 'invalid_request: unknown client_id or unregistered redirect_uri' })
  async describe(@Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const resolved = await this.resolve(readOAuthParams(query));
    if (resolved.error) return redirect(reply, resolved.redirectUri, resolved.error, resolved.state);
    const r = resolved.request;
    void reply
      .status(200)
      .headers(NO_STORE_HEADERS)
      .send({
        data: {
          clientId: r.client.clientId,
          clientName: r.client.name,
          redirectUri: r.redirectUri,
          scopes: r.scopes,
          ...(r.state !== undefined ? { state: r.state } : {}),
          approve: { method: 'POST', url: '/api/oauth/authorize', credential: 'X-API-Key' },
        },
      } satisfies AuthorizationRequestDto);
  }

  @Post('authorize')
  @Public()
  @ApiOperation({
    summary: 'Approve an authorization request with an API key and redirect with a code',
    description:
      'The resource owner approves with one of the client organisation\'s API keys in X-API-Key (a key that holds every requested scope). Parameters in the query, ' +
      'a JSON body or a form-encoded body. decision=deny refuses (access_denied). Answers 302 to redirect_uri?code=…&state=…; the code is single-use and lives 10 minutes. ' +
      'A missing or invalid key is 401 and a key of another organisation 403, shown directly so the owner can retry.',
  })
  @PARAMETERS
  @ApiHeader({ name: 'X-API-Key', required: true, description: "One of the client organisation's API keys" })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    required: false,
    schema: { type: 'object', properties: { decision: { type: 'string', enum: ['approve', 'deny'], default: 'approve' } }, additionalProperties: { type: 'string' } },
    description: 'The authorization request parameters may also be sent in the body; plus decision (approve, the default, or deny).',
  })
  @ApiFoundResponse({ description: 'Redirect to redirect_uri with code and state, or with error, error_description and state' })
  @ApiBadRequestResponse({ type: OAuthJsonErrorDto, description: 'invalid_request: unknown client_id or unregistered redirect_uri' })
  @ApiUnauthorizedResponse({ type: OAuthJsonErrorDto, description: 'No valid API key in X-API-Key' })
  @ApiForbiddenResponse({ type: OAuthJsonErrorDto, description: "access_denied: the API key belongs to another organisation than the client's" })
  async approve(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>, @Body() body: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const params = readOAuthParams(query, body);
    const resolved = await this.resolve(params);
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string') throw ApiError.unauthorized("Approve the request with one of the organisation's API keys in X-API-Key");
    const owner = await this.authenticator.authenticate({ 'x-api-key': apiKey }, request.ip);
    if (resolved.error) return redirect(reply, resolved.redirectUri, resolved.error, resolved.state);
    const r = resolved.request;
    if (owner.organizationId !== r.client.organizationId || owner.keyId === null) {
      throw new OAuthError(403, 'access_denied', "The API key does not belong to the client's organisation");
    }
    const decision = params.decision ?? 'approve';
    if (decision === 'deny') return redirect(reply, r.redirectUri, new RedirectedError('access_denied', 'The resource owner denied the request'), r.state);
    if (decision !== 'approve') return redirect(reply, r.redirectUri, new RedirectedError('invalid_request', 'decision must be approve or deny'), r.state);
    const missing = r.scopes.filter((s) => !owner.scopes.includes(s));
    if (missing.length) {
      return redirect(reply, r.redirectUri, new RedirectedError('access_denied', `The approving API key does not hold: ${missing.join(' ')}`), r.state);
    }
    const code = await this.codes.create({
      oauthClientId: r.client.id,
      organizationId: r.client.organizationId,
      approvedByKeyId: owner.keyId,
      redirectUri: r.redirectUri,
      scopes: r.scopes,
      codeChallenge: r.codeChallenge,
    });
    void reply.status(302).headers(NO_STORE_HEADERS).header('Location', withParameters(r.redirectUri, { code, state: r.state })).send();
  }

  /** Validates the request; throws (400, shown directly) until the redirect URI is known to be the client's. */
  private async resolve(
    p: OAuthParams,
  ): Promise<{ error: RedirectedError; redirectUri: string; state: string | undefined; request?: never } | { error?: never; request: AuthorizationRequest }> {
    if (p.client_id === undefined) throw OAuthError.invalidRequest('client_id is required');
    const client = await this.clients.find(p.client_id);
    if (!client) throw OAuthError.invalidRequest('Unknown client_id');
    if (p.redirect_uri === undefined) throw OAuthError.invalidRequest('redirect_uri is required');
    if (!client.redirectUris.includes(p.redirect_uri)) throw OAuthError.invalidRequest('redirect_uri is not registered for this client (it must match exactly)');
    const fail = (code: OAuthErrorCode, description: string) => ({ error: new RedirectedError(code, description), redirectUri: p.redirect_uri!, state: p.state });
    if (p.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (p.code_challenge === undefined) return fail('invalid_request', 'code_challenge is required (PKCE S256)');
    if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    if (!isValidCodeChallenge(p.code_challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    let scopes: Scope[];
    try {
      scopes = requestedScopes(p.scope, client.scopes);
    } catch (e) {
      return fail('invalid_scope', (e as Error).message);
    }
    return { request: { client, redirectUri: p.redirect_uri, scopes, state: p.state, codeChallenge: p.code_challenge } };
  }
}

function redirect(reply: FastifyReply, redirectUri: string, error: RedirectedError, state: string | undefined): void {
  const location = withParameters(redirectUri, { error: error.code, error_description: error.description, state });
  void reply.status(302).headers(NO_STORE_HEADERS).header('Location', location).send();
}
