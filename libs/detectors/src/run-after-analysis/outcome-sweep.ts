import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PeriodicService } from '@libs/queue';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorPass } from '../shared/detector-pass';

/**
 * Outcomes fall due with time, not with runs: every DETECTOR_OUTCOME_POLL_MS the worker finalises
 * the outcomes whose window after resolution has passed (idempotent: a second worker doing the same
 * finds them final).
 */
@Injectable()
export class OutcomeSweep extends PeriodicService {
  constructor(
    private readonly detectors: DetectorPass,
    @InjectConfig(DETECTORS_CONFIG) config: DetectorsConfig,
  ) {
    super({ name: 'outcome sweep', everyMs: config.outcomePollMs, failureLevel: 'error' });
  }

  protected pass(): Promise<unknown> {
    return this.detectors.finalizeDueOutcomes(`outcome-sweep-${Date.now()}`);
  }
}
