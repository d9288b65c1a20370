import { PickType } from '@nestjs/swagger';
import { PaginationQuery } from '@libs/http';

/** Deliveries take `limit` only (newest first), with the list's bounds. */
export class DeliveriesQuery extends PickType(PaginationQuery, ['limit'] as const) {}
