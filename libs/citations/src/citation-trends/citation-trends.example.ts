export const CITATION_TRENDS_EXAMPLE = {};
