import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@libs/config';
import { DatabaseModule } from '@libs/database';
import { EventStoreModule } from '@libs/event-store';
import { ObservabilityModule } from '@libs/observability';
import { RedisModule } from '@libs/redis';
import { AuthModule } from '@libs/auth';
import { ErrorFilter, createValidationPipe } from '@libs/http';
import { TenancyModule } from '@libs/tenancy';
import { OpportunitiesModule } from '@libs/opportunities';
import { RateLimitModule } from '@libs/rate-limit';
import { UsageModule } from '@libs/usage';
import { WebhooksModule } from '@libs/webhooks';
import { AnalysisModule } from '@libs/analysis';
import { VisibilityModule } from '@libs/visibility';
import { ChannelsModule } from '@libs/channels';
import { AgentAnalyticsModule } from '@libs/agent-analytics';
import { PageAuditsModule } from '@libs/page-audits';
import { CitationsModule } from '@libs/citations';
import { McpModule } from '@libs/mcp';
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
        AnalysisModule,
        VisibilityModule,
        ChannelsModule,
        AgentAnalyticsModule,
        PageAuditsModule,
        CitationsModule,
        McpModule,
        ...extra,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
