import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { CREATABLE_KINDS, type CreatableKind } from '../domain';
import { ChannelSettings } from '../channel-settings.dto';

const id = (field: string) => `${field} must be a positive integer`;

export class CreateChannelRequest extends ChannelSettings {
  @ApiProperty({ type: 'integer', minimum: 1, example: 3, description: 'The client the channel belongs to' })
  @IsInt({ message: id('clientId') })
  @Min(1, { message: id('clientId') })
  @Max(Number.MAX_SAFE_INTEGER, { message: id('clientId') })
  clientId!: number;

  @ApiProperty({ enum: CREATABLE_KINDS, example: 'ga4', description: '`ai_referrals` is built in and cannot be created' })
  @IsIn(CREATABLE_KINDS, { message: `kind must be one of ${CREATABLE_KINDS.join(', ')}` })
  kind!: CreatableKind;
}
