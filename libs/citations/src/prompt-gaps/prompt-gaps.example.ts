export const PROMPT_GAPS_EXAMPLE = {};
