import { Injectable } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { Principal } from '@libs/auth';
import { ApiError, DayQuery, MAX_PERIOD_DAYS, OptionalIdQuery, PaginationQuery, page, sortColumn, type Page, type SortFields } from '@libs/http';
import { daysBetween } from '@libs/metrics';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { scopeOf } from './channel-access';
import { CHANNEL_KINDS, type ChannelKind } from './domain';
import { RowReads, type RowFilter, type RowTable } from './read-model/row-reads';

/** The filters of every list of daily channel rows (metrics, campaigns, content, audiences), with pagination. */
export class ChannelRowsQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: CHANNEL_KINDS, description: 'Only rows of channels of this kind' })
  @IsOptional()
  @IsIn(CHANNEL_KINDS, { message: `channel must be one of ${CHANNEL_KINDS.join(', ')}` })
  channel?: ChannelKind;

  @OptionalIdQuery('channelId', 'Only rows of this channel')
  channelId?: number;

  @OptionalIdQuery('clientId', "Only this client's rows (another client's, or an unknown one, is 404)")
  clientId?: number;

  @OptionalIdQuery('brandId', "Only this brand's rows (a brand the caller may not see is 404)")
  brandId?: number;

  @DayQuery('startDate', 'First day (UTC), included')
  startDate?: string;

  @DayQuery('endDate', 'Last day (UTC), included')
  endDate?: string;
}

/**
 * The row filter of a validated query for the caller: 400 for a reversed or over-long period, 404
 * for a client or brand the caller may not see.
 */
export async function rowFilter(p: Principal, q: ChannelRowsQuery, tenancy: TenancyRepository, brands: BrandAccess): Promise<RowFilter> {
  if (q.startDate !== undefined && q.endDate !== undefined) {
    const span = daysBetween(q.startDate, q.endDate) + 1;
    if (span < 1) throw ApiError.validation([{ field: 'endDate', message: 'endDate must not be before startDate' }]);
    if (span > MAX_PERIOD_DAYS) throw ApiError.validation([{ field: 'endDate', message: `the period from startDate to endDate must be at most ${MAX_PERIOD_DAYS} days` }]);
  }
  const scope = scopeOf(p);
  if (q.clientId !== undefined && !(await tenancy.canSeeClient(scope, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
  if (q.brandId !== undefined) await brands.assertVisible(scope, q.brandId);
  return {
    organizationId: p.organizationId,
    boundClientId: p.clientId,
    clientId: q.clientId,
    brandId: q.brandId,
    channel: q.channel,
    channelId: q.channelId,
    startDate: q.startDate,
    endDate: q.endDate,
  };
}

/** A page of one list of daily rows for the caller: its filter (400, 404 as rowFilter says), sort and order. */
@Injectable()
export class ChannelRows {
  constructor(
    private readonly rows: RowReads,
    private readonly tenancy: TenancyRepository,
    private readonly brands: BrandAccess,
  ) {}

  async list<T>(p: Principal, q: ChannelRowsQuery & { sort?: string }, table: RowTable, sorts: SortFields): Promise<Page<T>> {
    const filter = await rowFilter(p, q, this.tenancy, this.brands);
    const { rows, total } = await this.rows.page(table, filter, sortColumn(q.sort, sorts, 'date'), q.order, q.limit, q.offset);
    return page(rows as unknown as T[], total, q);
  }
}
