/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const SENTIMENT_SUMMARY_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-24",
    "labelled": 3,
    "positive": 1,
    "neutral": 1,
    "negative": 1,
    "netSentiment": {
      "value": 0,
      "n": 3
    },
    "meanScore": {
      "value": 0.0333,
      "n": 3
    },
    "positiveRate": {
      "value": 0.3333,
      "n": 3,
      "low": 0.0615,
      "high": 0.7923
    },
    "negativeRate": {
      "value": 0.3333,
      "n": 3,
      "low": 0.0615,
      "high": 0.7923
    },
    "labelledBy": { "judge": 0, "model": 3, "judgeFallbacks": 0 }
  }
};
export const SENTIMENT_BY_PROVIDER_EXAMPLE = {
  "data": [
    {
      "provider": "chatgpt",
      "labelled": 2,
      "positive": 1,
      "neutral": 0,
      "negative": 1,
      "netSentiment": {
        "value": 0,
        "n": 2
      },
      "meanScore": {
        "value": 0.05,
        "n": 2
      },
      "positiveRate": {
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      },
      "negativeRate": {
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      },
      "labelledBy": { "judge": 0, "model": 2, "judgeFallbacks": 0 }
    },
    {
      "provider": "claude",
      "labelled": 1,
      "positive": 0,
      "neutral": 1,
      "negative": 0,
      "netSentiment": {
        "value": 0,
        "n": 1
      },
      "meanScore": {
        "value": 0,
        "n": 1
      },
      "positiveRate": {
        "value": 0,
        "n": 1,
        "low": 0,
        "high": 0.7935
      },
      "negativeRate": {
        "value": 0,
        "n": 1,
        "low": 0,
        "high": 0.7935
      },
      "labelledBy": { "judge": 0, "model": 1, "judgeFallbacks": 0 }
    }
  ]
};
