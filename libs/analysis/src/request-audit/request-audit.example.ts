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

/** A dry run of three queries to ChatGPT (live, no answers yet: the typical usage) and Claude (no key: the recorded source). */
export const AUDIT_DRY_RUN_EXAMPLE = {
  data: {
    estimate: {
      questions: 6,
      inputTokens: 24000,
      outputTokens: 1800,
      usd: 0.04248,
      byProvider: [
        { provider: 'chatgpt', questions: 3, source: 'live', inputTokens: 24000, outputTokens: 1800, usd: 0.04248 },
        { provider: 'claude', questions: 3, source: 'recorded', inputTokens: 0, outputTokens: 0, usd: 0 },
      ],
    },
  },
};
