/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const BRAND_INDEX_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "date": "2026-11-24",
    "startDate": "2026-10-26",
    "endDate": "2026-11-24",
    "value": 54.9167,
    "components": [
      {
        "name": "mentionRate",
        "value": 75,
        "weight": 30,
        "effectiveWeight": 30,
        "contribution": 22.5,
        "n": 4
      },
      {
        "name": "shareOfVoice",
        "value": 33.3333,
        "weight": 25,
        "effectiveWeight": 25,
        "contribution": 8.3333,
        "n": 12
      },
      {
        "name": "netSentiment",
        "value": 50,
        "weight": 15,
        "effectiveWeight": 15,
        "contribution": 7.5,
        "n": 3
      }
    ]
  }
};
