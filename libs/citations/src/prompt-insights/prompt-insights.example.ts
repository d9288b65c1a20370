export const PROMPT_INSIGHTS_EXAMPLE = {};
