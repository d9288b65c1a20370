/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const PROMPTS_EXAMPLE = {
  "data": [
    {
      "id": 5,
      "brandId": 1,
      "query": "Acme pricing",
      "topic": null,
      "tags": [],
      "providers": [
        "chatgpt",
        "claude",
        "gemini"
      ],
      "country": null,
      "language": null,
      "isActive": true,
      "createdAt": "2026-11-25T15:34:24.979Z",
      "updatedAt": "2026-11-25T15:34:24.979Z"
    },
    {
      "id": 4,
      "brandId": 1,
      "query": "Is Acme worth it?",
      "topic": null,
      "tags": [],
      "providers": [
        "chatgpt",
        "claude",
        "gemini"
      ],
      "country": null,
      "language": null,
      "isActive": true,
      "createdAt": "2026-11-25T15:34:24.963Z",
      "updatedAt": "2026-11-25T15:34:24.963Z"
    },
    {
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
      "country": null,
      "language": null,
      "isActive": true,
      "createdAt": "2026-11-25T15:34:24.948Z",
      "updatedAt": "2026-11-25T15:34:24.948Z"
    }
  ],
  "meta": {
    "total": 4,
    "limit": 50,
    "offset": 0,
    "hasMore": false
  }
};
