import { ApiProperty } from '@nestjs/swagger';

export class RemovedPromptDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() deleted!: boolean;
}
export class RemovedPromptResponse {
  @ApiProperty({ type: RemovedPromptDto }) data!: RemovedPromptDto;
}
