/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const AUDIT_REQUEST_EXAMPLE = {
  "data": {
    "id": 1,
    "analysisRunId": 1,
    "brandId": 1,
    "queries": [
      "best CRM for agencies",
      "Acme CRM vs Globex"
    ],
    "providers": [
      "chatgpt",
      "perplexity"
    ],
    "country": "DE",
    "language": "de",
    "status": "queued",
    "createdAt": "2026-11-25T15:34:13.871Z"
  }
};
