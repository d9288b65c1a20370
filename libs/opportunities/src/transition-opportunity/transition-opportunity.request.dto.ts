import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Omittable } from '@libs/http';
import { STATUSES, type Status } from '../domain';

export class TransitionOpportunityRequest {
  @ApiProperty({ enum: STATUSES, description: 'The state to move to (DESIGN §3 lists the allowed moves)' })
  @IsIn(STATUSES, { message: `toStatus must be one of: ${STATUSES.join(', ')}` })
  toStatus!: Status;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Why; kept in the history' })
  @Omittable()
  @IsString({ message: 'reason must be a string' })
  @MaxLength(2000, { message: 'reason must be at most 2000 characters' })
  reason?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Who owns the work (required to move to assigned unless already set)' })
  @Omittable()
  @IsString({ message: 'owner must be a string' })
  @MinLength(1, { message: 'owner must not be empty' })
  @MaxLength(200, { message: 'owner must be at most 200 characters' })
  owner?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: "The opportunity's `version` the move was decided on (optimistic concurrency): when it has changed since, 409 CONFLICT with `details.version` and nothing moves. Without it, the move applies to the current state.",
  })
  @Omittable()
  @IsInt({ message: 'expectedVersion must be an integer of at least 0' })
  @Min(0, { message: 'expectedVersion must be an integer of at least 0' })
  @Max(2_147_483_647, { message: 'expectedVersion must be at most 2147483647' })
  expectedVersion?: number;
}
