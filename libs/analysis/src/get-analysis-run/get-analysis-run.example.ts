/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const ANALYSIS_RUN_EXAMPLE = {
  "data": {
    "id": 1,
    "brandId": 1,
    "trigger": "api",
    "status": "completed",
    "queries": [
      "best CRM for agencies",
      "Acme CRM vs Globex"
    ],
    "providers": [
      "chatgpt",
      "perplexity"
    ],
    "answersExpected": 4,
    "answersRecorded": 4,
    "answersFailed": 0,
    "createdAt": "2026-11-25T15:34:13.871Z",
    "startedAt": "2026-11-25T15:34:13.971Z",
    "completedAt": "2026-11-25T15:34:14.292Z",
    "reason": null,
    "answersNotAsked": 0,
    "cost": {
      "inputTokens": 2620,
      "cachedInputTokens": 0,
      "outputTokens": 1480,
      "usd": 0.026244,
      "unpricedAnswers": 0,
      "judge": { "inputTokens": 0, "cachedInputTokens": 0, "outputTokens": 0, "usd": 0, "unpricedAnswers": 0 },
      "byProvider": [
        { "provider": "chatgpt", "inputTokens": 1620, "cachedInputTokens": 0, "outputTokens": 780, "usd": 0.021896, "unpricedAnswers": 0, "judge": { "inputTokens": 0, "cachedInputTokens": 0, "outputTokens": 0, "usd": 0, "unpricedAnswers": 0 } },
        { "provider": "perplexity", "inputTokens": 1000, "cachedInputTokens": 0, "outputTokens": 700, "usd": 0.0117, "unpricedAnswers": 0, "judge": { "inputTokens": 0, "cachedInputTokens": 0, "outputTokens": 0, "usd": 0, "unpricedAnswers": 0 } }
      ]
    }
  }
};
