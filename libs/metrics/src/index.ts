/**
 * Every metric of DESIGN §14, once. Pure: no I/O, no framework. Read models keep numerators and
 * denominators; these functions turn them into the figures responses carry, with n and a 95 %
 * Wilson interval, and null (never 0) where there is no data.
 */
export { Z95, rate, sumCounts, wilsonInterval, type Counts, type Rate } from './rate';
export { normalCdf, erfc } from './normal';
export { twoProportionTest, type TwoProportionTest } from './two-proportion';
export { addDays, dayStart, daysBetween, eachDay, isDayKey, utcDay, type DayKey } from './utc-days';
export { dailyRateSeries, dailySeries, type SeriesPoint } from './daily-series';
export { averagePosition, mean, mentionRate, netSentiment, netSentimentOn100, shareOfVoice, top3Rate, type Mean, type SentimentCounts } from './visibility';
export {
  brandIndex,
  DEFAULT_BRAND_INDEX_WEIGHTS,
  type BrandIndex,
  type BrandIndexComponent,
  type BrandIndexComponentName,
  type BrandIndexInput,
  type BrandIndexWeights,
} from './brand-index';
export { absenceScores, CONSENSUS_HALF_LIFE_DAYS, consensusScores, recencyWeight, type ConsensusScore, type DomainAbsence, type DomainCitations } from './consensus';
