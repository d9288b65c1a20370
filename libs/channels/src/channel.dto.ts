import { ApiProperty } from '@nestjs/swagger';
import { CHANNEL_KINDS } from './domain';
import type { Channel, ChannelSync } from './channels.repository';

/** A channel as the API shows it: never its credentials, only whether it has some. */
export class ChannelDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) clientId!: number;
  @ApiProperty({ enum: CHANNEL_KINDS }) kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The brand rows belong to when they name none (GA4: the property's brand)" }) brandId!: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'GA4 property id (ga4)' }) propertyId!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Search Console property: `https://host/` or `sc-domain:host` (search_console)' }) siteUrl!: string | null;
  @ApiProperty({ type: 'integer', description: 'Days fetched on the first sync' }) backfillDays!: number;
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ description: 'Whether credentials are stored (they are never returned)' }) hasCredentials!: boolean;
  @ApiProperty({ type: 'string', format: 'date', nullable: true, description: 'Last day fully synced; the next sync starts after it' }) cursorDate!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) nextSyncAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastSyncAt!: string | null;
  @ApiProperty({ type: 'string', nullable: true, enum: ['succeeded', 'failed'] }) lastSyncStatus!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) updatedAt!: string;
}

export class ChannelResponse {
  @ApiProperty({ type: ChannelDto }) data!: ChannelDto;
}

export function channelDto(c: Channel): ChannelDto {
  const { organizationId: _org, ...rest } = c;
  return rest;
}

export class ChannelSyncDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) channelId!: number;
  @ApiProperty({ enum: ['schedule', 'manual', 'import'] }) trigger!: string;
  @ApiProperty({ enum: ['queued', 'running', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ type: 'string', format: 'date', nullable: true, description: 'First day of the window synced' }) startDate!: string | null;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) endDate!: string | null;
  @ApiProperty({ type: 'integer', description: 'Rows written' }) rows!: number;
  @ApiProperty({ type: 'integer', description: 'Requests made for the windows, retries included' }) attempts!: number;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) queuedAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) durationMs!: number | null;
}

export const syncDto = (s: ChannelSync): ChannelSyncDto => s;
