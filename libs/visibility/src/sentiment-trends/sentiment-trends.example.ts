/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const SENTIMENT_TRENDS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-24",
    "netSentiment": [
      {
        "date": "2026-11-22",
        "value": 100,
        "n": 1,
        "low": null,
        "high": null
      },
      {
        "date": "2026-11-23",
        "value": null,
        "n": 0,
        "low": null,
        "high": null
      },
      {
        "date": "2026-11-24",
        "value": -50,
        "n": 2,
        "low": null,
        "high": null
      }
    ],
    "positiveRate": [
      {
        "date": "2026-11-22",
        "value": 1,
        "n": 1,
        "low": 0.2065,
        "high": 1
      },
      {
        "date": "2026-11-23",
        "value": null,
        "n": 0,
        "low": null,
        "high": null
      },
      {
        "date": "2026-11-24",
        "value": 0,
        "n": 2,
        "low": 0,
        "high": 0.6576
      }
    ],
    "negativeRate": [
      {
        "date": "2026-11-22",
        "value": 0,
        "n": 1,
        "low": 0,
        "high": 0.7935
      },
      {
        "date": "2026-11-23",
        "value": null,
        "n": 0,
        "low": null,
        "high": null
      },
      {
        "date": "2026-11-24",
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      }
    ],
    "labelledBy": { "judge": 0, "model": 3, "judgeFallbacks": 0 }
  }
};
