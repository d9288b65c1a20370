/** Why the analysis deciders refuse a command (a stream in a state the command cannot follow). */
export type AnalysisRule = 'already_requested' | 'not_requested' | 'not_recorded' | 'not_analysed';

export class AnalysisRuleError extends Error {
  override readonly name = 'AnalysisRuleError';
  constructor(
    readonly rule: AnalysisRule,
    message: string,
  ) {
    super(message);
  }
}
