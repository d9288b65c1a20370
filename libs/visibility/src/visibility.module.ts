import { Module } from '@nestjs/common';
import { AnalysisModule } from '@libs/analysis';
import { TenancyModule } from '@libs/tenancy';
import { AeoMetricsController } from './aeo-metrics/aeo-metrics.http.controller';
import { BrandIndexController } from './brand-index/brand-index.http.controller';
import { GeoMetricsController } from './geo-metrics/geo-metrics.http.controller';
import { LatestShareOfVoiceController } from './latest-share-of-voice/latest-share-of-voice.http.controller';
import { RollupReads } from './read-model/rollup-reads';
import { SentimentSummaryController } from './sentiment-summary/sentiment-summary.http.controller';
import { SentimentTrendsController } from './sentiment-trends/sentiment-trends.http.controller';
import { ShareOfVoiceController } from './share-of-voice/share-of-voice.http.controller';
import { VisibilityScope } from './visibility-scope';
import { BrandIndexWeightsRepository } from './brand-index-weights.repository';
import { VisibilityReport } from './visibility-report/visibility-report';
import { VisibilityTrendsController } from './visibility-trends/visibility-trends.http.controller';

/** Visibility, AEO, GEO, brand index and sentiment figures (DESIGN §14) from the daily rollups of analysed answers. */
@Module({
  imports: [TenancyModule, AnalysisModule],
  controllers: [
    VisibilityTrendsController,
    ShareOfVoiceController,
    LatestShareOfVoiceController,
    AeoMetricsController,
    GeoMetricsController,
    BrandIndexController,
    SentimentSummaryController,
    SentimentTrendsController,
  ],
  providers: [VisibilityScope, RollupReads, BrandIndexWeightsRepository, VisibilityReport],
  exports: [RollupReads, BrandIndexWeightsRepository, VisibilityReport],
})
export class VisibilityModule {}
