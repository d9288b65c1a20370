/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const REMOVED_PROMPT_EXAMPLE = {
  "data": {
    "id": 1,
    "deleted": true
  }
};
