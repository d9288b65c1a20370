/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const UPDATED_PROMPT_EXAMPLE = {
  "data": {
    "id": 1,
    "brandId": 1,
    "query": "best CRM for agencies",
    "topic": null,
    "tags": [
      "comparison"
    ],
    "providers": [
      "gemini",
      "chatgpt"
    ],
    "country": null,
    "language": null,
    "isActive": false,
    "createdAt": "2026-11-25T15:34:24.773Z",
    "updatedAt": "2026-11-25T15:34:24.880Z"
  }
};
