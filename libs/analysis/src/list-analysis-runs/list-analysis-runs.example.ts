/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const ANALYSIS_RUNS_EXAMPLE = {
  "data": [
    {
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
      "answersNotAsked": 0
    },
    {
      "id": 2,
      "brandId": 1,
      "trigger": "api",
      "status": "completed",
      "queries": [
        "crm pricing"
      ],
      "providers": [
        "chatgpt",
        "claude",
        "gemini"
      ],
      "answersExpected": 4,
      "answersRecorded": 4,
      "answersFailed": 0,
      "createdAt": "2026-11-25T15:34:14.638Z",
      "startedAt": "2026-11-25T15:34:14.750Z",
      "completedAt": "2026-11-25T15:34:14.838Z",
      "reason": null,
      "answersNotAsked": 0
    },
    {
      "id": 3,
      "brandId": 1,
      "trigger": "api",
      "status": "completed",
      "queries": [
        "acme reviews"
      ],
      "providers": [
        "claude"
      ],
      "answersExpected": 1,
      "answersRecorded": 1,
      "answersFailed": 0,
      "createdAt": "2026-11-25T15:34:15.087Z",
      "startedAt": "2026-11-25T15:34:15.203Z",
      "completedAt": "2026-11-25T15:34:15.261Z",
      "reason": null,
      "answersNotAsked": 0
    }
  ],
  "meta": {
    "total": 6,
    "limit": 50,
    "offset": 0,
    "hasMore": false
  }
};
