import { Body, Controller, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { IgnoresQuery } from '@libs/http';
import { Public } from '../decorators';
import { OAuthClientAuthentication } from './oauth-client-authentication.service';
import { OAuthError, OAuthErrorFilter } from './oauth-errors';
import { ApiOAuthErrors } from './oauth-openapi';
import { readOAuthParams } from './oauth-params';
import { RevokeRequestDto } from './oauth.dto';
import { TokensService } from './tokens.service';

@ApiTags('OAuth')
@Controller('api/oauth')
@UseFilters(OAuthErrorFilter)
export class RevokeController {
  constructor(
    private readonly tokens: TokensService,
    private readonly clientAuth: OAuthClientAuthentication,
  ) {}

  @Post('revoke')
  @Public()
  @IgnoresQuery() // RFC 6749 §3.2: unrecognised request parameters are ignored
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Revoke an access or refresh token (RFC 7009)',
    description:
      'No API key. Client credentials in the JSON body, a form-encoded body or HTTP Basic. Revoking a refresh token revokes its whole family ' +
      '(every access and refresh token issued from the same grant). A revoked access token stops working on every API process within seconds. ' +
      "Answers 200 with {} also for an unknown token or another client's token (which is left alone).",
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: RevokeRequestDto })
  @ApiBasicAuth()
  @ApiOkResponse({ description: 'Revoked (or nothing to revoke)', schema: { type: 'object', example: {} } })
  @ApiOAuthErrors('invalid_request')
  async revoke(@Req() request: FastifyRequest, @Body() body: Record<string, unknown>): Promise<Record<string, never>> {
    const params = readOAuthParams(body);
    const client = await this.clientAuth.authenticate(request, params);
    if (params.token === undefined) throw OAuthError.invalidRequest('token is required');
    await this.tokens.revoke(client, params.token);
    return {};
  }
}
