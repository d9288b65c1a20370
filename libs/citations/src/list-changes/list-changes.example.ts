export const LIST_CHANGES_EXAMPLE = {};
