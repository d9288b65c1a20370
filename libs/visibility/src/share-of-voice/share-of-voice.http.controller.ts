import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandPeriodPageQuery } from '@libs/http';
import { SHARE_OF_VOICE_EXAMPLE } from './share-of-voice.example';
import { ShareOfVoice } from './share-of-voice.query';
import { SovPage } from './share-of-voice.response.dto';

@ApiTags('Visibility')
@Controller('api/v1/visibility')
export class ShareOfVoiceController {
  constructor(private readonly shareOfVoice: ShareOfVoice) {}

  @Get('sov')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'visibility_sov', summary: 'Share of voice by provider and query over the period (paginated by provider, then query)' })
  @ApiOkResponse({ type: SovPage, example: SHARE_OF_VOICE_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  sov(@CurrentPrincipal() p: Principal, @Query() q: BrandPeriodPageQuery): Promise<SovPage> {
    return this.shareOfVoice.read(p, q);
  }
}
