import { Module } from '@nestjs/common';
import { AnalysisModule } from '@libs/analysis';
import { TenancyModule } from '@libs/tenancy';
import { AeoMetricsController } from './aeo-metrics/aeo-metrics.http.controller';
import { BrandIndexController } from './brand-index/brand-index.http.controller';
import { GeoMetricsController } from './geo-metrics/geo-metrics.http.controller';
import { LatestShareOfVoiceController } from './latest-share-of-voice/latest-share-of-voice.http.controller';
import { RollupReads } from './read-model/rollup-reads';
import { PeriodFigures } from './read-model/period-figures';
import { SentimentSummaryController } from './sentiment-summary/sentiment-summary.http.controller';
import { SentimentTrendsController } from './sentiment-trends/sentiment-trends.http.controller';
import { ShareOfVoiceController } from './share-of-voice/share-of-voice.http.controller';
import { BrandIndexWeightsRepository } from './brand-index-weights.repository';
import { VisibilityReport } from './visibility-report/visibility-report';
import { VisibilityTrendsController } from './visibility-trends/visibility-trends.http.controller';
import { AeoMetrics } from './aeo-metrics/aeo-metrics.query';
import { BrandIndex } from './brand-index/brand-index.query';
import { GeoMetrics } from './geo-metrics/geo-metrics.query';
import { LatestShareOfVoice } from './latest-share-of-voice/latest-share-of-voice.query';
import { SentimentByProvider, SentimentSummary } from './sentiment-summary/sentiment-summary.query';
import { SentimentTrends } from './sentiment-trends/sentiment-trends.query';
import { ShareOfVoice } from './share-of-voice/share-of-voice.query';
import { VisibilityTrends } from './visibility-trends/visibility-trends.query';

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [VisibilityTrends, ShareOfVoice, LatestShareOfVoice, AeoMetrics, GeoMetrics, BrandIndex, SentimentSummary, SentimentByProvider, SentimentTrends];

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
  providers: [...READS, RollupReads, PeriodFigures, BrandIndexWeightsRepository, VisibilityReport],
  exports: [...READS, RollupReads, BrandIndexWeightsRepository, VisibilityReport],
})
export class VisibilityModule {}
