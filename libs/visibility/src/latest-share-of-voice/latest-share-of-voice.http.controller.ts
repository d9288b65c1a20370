import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandQuery } from '@libs/http';
import { LATEST_SHARE_OF_VOICE_EXAMPLE } from './latest-share-of-voice.example';
import { LatestShareOfVoice } from './latest-share-of-voice.query';
import { LatestSovResponse } from './latest-share-of-voice.response.dto';

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class LatestShareOfVoiceController {
  constructor(private readonly sov: LatestShareOfVoice) {}

  @Get('sov/latest')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_sov_latest', summary: "Share of voice per provider on the day of the brand's most recent complete run, which it names (every answer of that UTC day counts)" })
  @ApiOkResponse({ type: LatestSovResponse, example: LATEST_SHARE_OF_VOICE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  latest(@CurrentPrincipal() p: Principal, @Query() q: BrandQuery): Promise<LatestSovResponse> {
    return this.sov.read(p, q);
  }
}
