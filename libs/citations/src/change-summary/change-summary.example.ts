/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const CHANGE_SUMMARY_EXAMPLE = {
  "data": {
    "startDate": "2026-10-27",
    "endDate": "2026-11-25",
    "total": 12,
    "bySeverity": {
      "low": 5,
      "medium": 3,
      "high": 4
    },
    "byType": [
      {
        "changeType": "mention_gained",
        "total": 1,
        "low": 1,
        "medium": 0,
        "high": 0
      },
      {
        "changeType": "mention_lost",
        "total": 2,
        "low": 0,
        "medium": 0,
        "high": 2
      },
      {
        "changeType": "entered_top3",
        "total": 1,
        "low": 1,
        "medium": 0,
        "high": 0
      },
      {
        "changeType": "dropped_from_top3",
        "total": 2,
        "low": 0,
        "medium": 0,
        "high": 2
      },
      {
        "changeType": "rank_changed",
        "total": 1,
        "low": 1,
        "medium": 0,
        "high": 0
      },
      {
        "changeType": "citation_gained",
        "total": 1,
        "low": 1,
        "medium": 0,
        "high": 0
      },
      {
        "changeType": "citation_lost",
        "total": 1,
        "low": 0,
        "medium": 1,
        "high": 0
      },
      {
        "changeType": "sentiment_changed",
        "total": 1,
        "low": 1,
        "medium": 0,
        "high": 0
      },
      {
        "changeType": "competitor_entered",
        "total": 2,
        "low": 0,
        "medium": 2,
        "high": 0
      }
    ]
  }
};
