import { Body, Controller, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { IgnoresQuery } from '@libs/http';
import { Public } from '../decorators';
import { OAuthClientAuthentication } from './oauth-client-authentication.service';
import { OAuthError, OAuthErrorFilter } from './oauth-errors';
import { ApiOAuthErrors } from './oauth-openapi';
import { readOAuthParams, type OAuthParams } from './oauth-params';
import { GRANT_TYPES, TokenRequestDto, TokenResponseDto, type GrantType } from './oauth.dto';
import { TokensService, type TokenResponse } from './tokens.service';

@ApiTags('OAuth')
@Controller('api/oauth')
@UseFilters(OAuthErrorFilter)
export class TokenController {
  constructor(
    private readonly tokens: TokensService,
    private readonly clientAuth: OAuthClientAuthentication,
  ) {}

  @Post('token')
  @Public()
  @IgnoresQuery() // RFC 6749 §3.2: unrecognised request parameters are ignored
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Issue an access token (client_credentials, authorization_code with PKCE, refresh_token)',
    description:
      'No API key. Client credentials in the JSON body, a form-encoded body or HTTP Basic. Access tokens live 3600 s; refresh tokens 30 days and are ' +
      'rotated on every use (reusing a rotated one revokes its whole family); client_credentials gets no refresh token. Answers 200 with Cache-Control: no-store.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiBasicAuth()
  @ApiOkResponse({
    type: TokenResponseDto,
    headers: { 'Cache-Control': { schema: { type: 'string', example: 'no-store' } }, Pragma: { schema: { type: 'string', example: 'no-cache' } } },
  })
  @ApiOAuthErrors('invalid_request, invalid_grant, unsupported_grant_type, invalid_scope')
  async token(@Req() request: FastifyRequest, @Body() body: Record<string, unknown>): Promise<TokenResponse> {
    const params = readOAuthParams(body);
    const grantType = params.grant_type;
    if (grantType === undefined) throw OAuthError.invalidRequest('grant_type is required');
    if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
      throw new OAuthError(400, 'unsupported_grant_type', `grant_type must be one of: ${GRANT_TYPES.join(', ')}`);
    }
    const client = await this.clientAuth.authenticate(request, params);
    const dto = validated(params);
    switch (grantType as GrantType) {
      case 'client_credentials':
        return this.tokens.clientCredentials(client, dto.scope);
      case 'authorization_code':
        return this.tokens.authorizationCode(client, { code: dto.code!, redirectUri: dto.redirect_uri!, codeVerifier: dto.code_verifier! });
      case 'refresh_token':
        return this.tokens.refresh(client, { refreshToken: dto.refresh_token!, scope: dto.scope });
    }
  }
}

/** The token request's parameters checked against TokenRequestDto; unknown parameters are ignored (RFC 6749 §3.2). */
function validated(params: OAuthParams): TokenRequestDto {
  const dto = plainToInstance(TokenRequestDto, params);
  const errors = validateSync(dto, { forbidUnknownValues: false });
  if (errors.length) {
    const messages = errors.flatMap((e) => Object.values(e.constraints ?? {}));
    throw OAuthError.invalidRequest(messages.join('; '));
  }
  return dto;
}
