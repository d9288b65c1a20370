import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { queryInteger } from '@libs/http';

const message = 'clientId must be a positive integer';

export class ListChannelsQuery {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The client whose channels to list (required)', example: 3 })
  @Transform(queryInteger)
  @IsInt({ message })
  @Min(1, { message })
  @Max(Number.MAX_SAFE_INTEGER, { message })
  clientId!: number;
}
