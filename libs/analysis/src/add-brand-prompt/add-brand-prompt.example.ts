/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const ADDED_PROMPT_EXAMPLE = {
  "data": {
    "id": 3,
    "brandId": 1,
    "query": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...",
    "topic": null,
    "tags": [],
    "providers": [
      "chatgpt",
      "claude",
      "gemini"
    ],
    "country": "DE",
    "language": "de",
    "isActive": true,
    "createdAt": "2026-11-25T15:34:24.948Z",
    "updatedAt": "2026-11-25T15:34:24.948Z"
  }
};
