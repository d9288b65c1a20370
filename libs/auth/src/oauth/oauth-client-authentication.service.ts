import { Inject, Injectable, Optional } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_FAILURE_LIMITER, type AuthFailureLimiter } from '../authenticator.service';
import { presentedClientCredentials } from './client-authentication';
import { OAuthClientsRepository, type OAuthClient } from './oauth-clients.repository';
import { OAuthError } from './oauth-errors';
import type { OAuthParams } from './oauth-params';

/**
 * Authenticates the OAuth client of a token or revocation request (body or HTTP Basic), with the
 * secret compared in constant time and failures counted per address like failed API keys.
 */
@Injectable()
export class OAuthClientAuthentication {
  constructor(
    private readonly clients: OAuthClientsRepository,
    @Optional() @Inject(AUTH_FAILURE_LIMITER) private readonly failures?: AuthFailureLimiter,
  ) {}

  async authenticate(request: FastifyRequest, params: OAuthParams): Promise<OAuthClient> {
    const presented = presentedClientCredentials(request.headers.authorization, params);
    await this.failures?.assertAllowed(request.ip);
    const client = await this.clients.authenticate(presented.clientId, presented.clientSecret);
    if (!client) {
      await this.failures?.recordFailure(request.ip);
      throw OAuthError.invalidClient(presented.method === 'basic');
    }
    return client;
  }
}
