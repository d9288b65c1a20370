import { ApiProperty } from '@nestjs/swagger';

export class DeletedWebhookDto {
  @ApiProperty() id!: number;
  @ApiProperty() deleted!: boolean;
}
export class DeletedWebhookResponse {
  @ApiProperty({ type: DeletedWebhookDto }) data!: DeletedWebhookDto;
}
