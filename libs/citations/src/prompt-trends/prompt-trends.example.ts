export const PROMPT_TRENDS_EXAMPLE = {};
