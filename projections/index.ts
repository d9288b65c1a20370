/**
 * Every read model the worker builds, grouped by concern (`projections/<concern>/`, each with its
 * projectors and the migrations of their tables beside them). The composition root
 * (apps/composition/migrations.ts) orders the migrations; the worker runs `ALL_PROJECTORS`.
 */
import type { AnyTableShape, Projector } from '@libs/projection-engine';
import { OPERATIONS_PROJECTORS, OPERATIONS_TABLES } from './operations';
import { OPPORTUNITY_PROJECTORS, OPPORTUNITY_TABLES } from './opportunities';
import { WEBHOOK_PROJECTORS, WEBHOOK_TABLES } from './webhooks';
import { ANALYSIS_PROJECTORS, ANALYSIS_TABLES } from './analysis';
import { VISIBILITY_PROJECTORS, VISIBILITY_TABLES } from './visibility';
import { CITATION_PROJECTORS, CITATION_TABLES } from './citations';
import { DETECTOR_PROJECTORS, DETECTOR_TABLES } from './detectors';

export * from './operations';
export * from './opportunities';
export * from './webhooks';
export * from './analysis';
export * from './visibility';
export * from './citations';
export * from './detectors';

/** Every projector the worker runs, by concern. */
export const PROJECTOR_GROUPS: Readonly<Record<string, readonly Projector[]>> = {
  operations: OPERATIONS_PROJECTORS,
  opportunities: OPPORTUNITY_PROJECTORS,
  webhooks: WEBHOOK_PROJECTORS,
  // The detectors' facts come from the same events as the answers' read models: one feed read, one transaction.
  analysis: [...ANALYSIS_PROJECTORS, ...DETECTOR_PROJECTORS],
  visibility: VISIBILITY_PROJECTORS,
  citations: CITATION_PROJECTORS,
};

/** Every projector the worker runs. */
export const ALL_PROJECTORS: Projector[] = Object.values(PROJECTOR_GROUPS).flat();

/**
 * The shape of every table the projectors write, declared once: the projector writes with it, its
 * readers take their column lists and row mappings from it (a library that reads a table row by
 * row declares the shape itself, beside its reader), and test/read-models.unit.spec.ts compares
 * each with the table the migrations make.
 */
export const ALL_TABLES: readonly AnyTableShape[] = [...OPERATIONS_TABLES, ...OPPORTUNITY_TABLES, ...WEBHOOK_TABLES, ...ANALYSIS_TABLES, ...VISIBILITY_TABLES, ...CITATION_TABLES, ...DETECTOR_TABLES];
