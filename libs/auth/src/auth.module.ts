import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { AccessTokensRepository } from './access-tokens.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { Authenticator } from './authenticator.service';
import { CredentialCache } from './credential-cache';
import { AuthorizationCodesRepository, AuthorizeController, OAuthClientAuthentication, OAuthClientsRepository, RevokeController, TokenController, TokensService } from './oauth';
import { ValidateKeyController } from './validate-key.controller';

/** Authentication (API keys, bearer tokens) and the scope guard in front of every route. */
@Module({
  controllers: [ValidateKeyController, TokenController, RevokeController, AuthorizeController],
  providers: [
    ApiKeysRepository,
    AccessTokensRepository,
    CredentialCache,
    Authenticator,
    { provide: APP_GUARD, useClass: AccessGuard },
    OAuthClientsRepository,
    AuthorizationCodesRepository,
    OAuthClientAuthentication,
    TokensService,
  ],
  exports: [ApiKeysRepository, AccessTokensRepository, CredentialCache, Authenticator, OAuthClientsRepository, TokensService],
})
export class AuthModule {}
