import type { Detection, DetectorInput, DetectorType } from './answer-facts';
import { competitorGap } from './competitor-gap.detector';
import { droppedFromTop3 } from './dropped-from-top3.detector';
import { hallucinationCluster } from './hallucination-cluster.detector';
import { misinformation } from './misinformation.detector';
import { missingCitation } from './missing-citation.detector';
import { sentimentDrop } from './sentiment-drop.detector';
import { sovDrop } from './sov-drop.detector';
import { stabilityAlert } from './stability-alert.detector';
import type { DetectorDefinition } from './verification';
import type { PageDetectorDefinition } from './page-history';
import { readinessGap } from './readiness-gap.detector';
import { schemaGap } from './schema-gap.detector';

/** Every detector over the answers' read model, in the order they run. */
export const ANSWER_DETECTORS: readonly DetectorDefinition[] = [sovDrop, droppedFromTop3, competitorGap, missingCitation, sentimentDrop, stabilityAlert, misinformation, hallucinationCluster];

/** Every detector over a brand's page-audit history (run when page audits complete). */
export const PAGE_DETECTORS: readonly PageDetectorDefinition[] = [readinessGap, schemaGap];

export function detectorOf(type: string, detectors: readonly DetectorDefinition[] = ANSWER_DETECTORS): DetectorDefinition | null {
  return detectors.find((d) => d.type === type) ?? null;
}

/** Every detector's reports over one brand's figures (pure: the same input gives the same reports). */
export function detectAll(input: DetectorInput, detectors: readonly DetectorDefinition[] = ANSWER_DETECTORS): Detection[] {
  return detectors.flatMap((d) => d.detect(input));
}

export type { DetectorType };
