import { ApiProperty } from '@nestjs/swagger';

class QueuedTestDto {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty() webhookId!: number;
  @ApiProperty({ example: 'webhook.test' }) eventType!: string;
  @ApiProperty({ example: 'pending' }) status!: string;
}
export class QueuedTestResponse {
  @ApiProperty({ type: QueuedTestDto }) data!: QueuedTestDto;
}
