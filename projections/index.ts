/**
 * Every read model the worker builds, grouped by concern (`projections/<concern>/`, each with its
 * projectors and the migrations of their tables beside them). The composition root
 * (apps/composition/migrations.ts) orders the migrations; the worker runs `ALL_PROJECTORS`.
 */
import type { Projector } from '@libs/projection-engine';
import { OPERATIONS_PROJECTORS } from './operations';
import { OPPORTUNITY_PROJECTORS } from './opportunities';
import { WEBHOOK_PROJECTORS } from './webhooks';
import { ANALYSIS_PROJECTORS } from './analysis';
import { VISIBILITY_PROJECTORS } from './visibility';
import { CITATION_PROJECTORS } from './citations';

export * from './operations';
export * from './opportunities';
export * from './webhooks';
export * from './analysis';
export * from './visibility';
export * from './citations';

/** Every projector the worker runs, by concern. */
export const PROJECTOR_GROUPS: Readonly<Record<string, readonly Projector[]>> = {
  operations: OPERATIONS_PROJECTORS,
  opportunities: OPPORTUNITY_PROJECTORS,
  webhooks: WEBHOOK_PROJECTORS,
  analysis: ANALYSIS_PROJECTORS,
  visibility: VISIBILITY_PROJECTORS,
  citations: CITATION_PROJECTORS,
};

/** Every projector the worker runs. */
export const ALL_PROJECTORS: Projector[] = Object.values(PROJECTOR_GROUPS).flat();
