import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { QueueModule } from '@libs/queue';
import { TenancyModule } from '@libs/tenancy';
import { ChannelAccess } from './channel-access';
import { ChannelRows } from './channel-rows.query';
import { ChannelsRepository } from './channels.repository';
import { CredentialsBox } from './credentials-box';
import { ChannelCreator } from './create-channel/channel-creator';
import { CreateChannelController } from './create-channel/create-channel.http.controller';
import { DeleteChannelController } from './delete-channel/delete-channel.http.controller';
import { GetChannelController } from './get-channel/get-channel.http.controller';
import { installImportBodyParsers } from './import-metrics/import-bodies';
import { ImportMetricsController } from './import-metrics/import-metrics.http.controller';
import { MAX_IMPORT_BYTES, MetricsImporter } from './import-metrics/metrics-importer';
import { ListAudienceController } from './list-audiences/list-audiences.http.controller';
import { ListCampaignController } from './list-campaigns/list-campaigns.http.controller';
import { ListChannelSyncsController } from './list-channel-syncs/list-channel-syncs.http.controller';
import { ListChannelsController } from './list-channels/list-channels.http.controller';
import { ListContentController } from './list-content/list-content.http.controller';
import { ListMetricsController } from './list-metrics/list-metrics.http.controller';
import { RowReads } from './read-model/row-reads';
import { ChannelSyncProcessor } from './run-channel-syncs/channel-sync.processor';
import { ChannelSyncer } from './run-channel-syncs/channel-syncer';
import { SyncScheduler } from './run-channel-syncs/sync-scheduler';
import { ChannelSources } from './shared/channel-sources';
import { SyncQueue } from './shared/sync-queue';
import { SyncChannelController } from './sync-channel/sync-channel.http.controller';
import { UpdateChannelController } from './update-channel/update-channel.http.controller';
import { ListMetrics } from './list-metrics/list-metrics.query';
import { ListContent } from './list-content/list-content.query';
import { ListCampaigns } from './list-campaigns/list-campaigns.query';
import { ListAudiences } from './list-audiences/list-audiences.query';

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [ListMetrics, ListContent, ListCampaigns, ListAudiences];

/** Channels, their daily metrics, campaigns, content and audiences (DESIGN §13.3): the API side. */
@Module({
  imports: [TenancyModule, QueueModule],
  controllers: [
    ListChannelsController,
    CreateChannelController,
    GetChannelController,
    UpdateChannelController,
    DeleteChannelController,
    SyncChannelController,
    ListChannelSyncsController,
    ImportMetricsController,
    ListMetricsController,
    ListCampaignController,
    ListContentController,
    ListAudienceController,
  ],
  providers: [...READS, ChannelsRepository, ChannelAccess, CredentialsBox, SyncQueue, MetricsImporter, RowReads, ChannelRows, ChannelCreator],
  exports: [...READS, ChannelsRepository, MetricsImporter],
})
export class ChannelsModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (fastify && typeof fastify.addContentTypeParser === 'function') installImportBodyParsers(fastify, MAX_IMPORT_BYTES);
  }
}

/** The worker side: the sync queue's processor, the daily schedule, the connectors. */
@Module({
  imports: [TenancyModule, QueueModule],
  providers: [ChannelsRepository, CredentialsBox, SyncQueue, ChannelSources, ChannelSyncer, ChannelSyncProcessor, SyncScheduler],
  exports: [ChannelSyncer, SyncScheduler],
})
export class ChannelsWorkerModule {}
