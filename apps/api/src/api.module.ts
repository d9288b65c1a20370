import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '../../../libs/config/src';
import { DatabaseModule } from '../../../libs/database/src';
import { EventStoreModule } from '../../../libs/event-store/src';
import { ObservabilityModule } from '../../../libs/observability/src';
import { RedisModule } from '../../../libs/redis/src';
import { AuthModule } from '../../../libs/auth/src';
import { ErrorFilter, createValidationPipe } from '../../../libs/http/src';
import { TenancyModule } from '../../../libs/tenancy/src';
import { OpportunitiesModule } from '../../../libs/opportunities/src';
import { RateLimitModule } from '../../../libs/rate-limit/src';
import { UsageModule } from '../../../libs/usage/src';
import { WebhooksModule } from '../../../libs/webhooks/src';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';

/** The HTTP API: composes the modules; each module owns its controllers. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, extra: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        DatabaseModule,
        RedisModule,
        EventStoreModule,
        AuthModule,
        // Provides AUTH_FAILURE_LIMITER to AuthModule's Authenticator (global module).
        RateLimitModule,
        UsageModule,
        TenancyModule,
        OpportunitiesModule,
        WebhooksModule,
        ...extra,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
