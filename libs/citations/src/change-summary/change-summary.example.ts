export const CHANGE_SUMMARY_EXAMPLE = {};
