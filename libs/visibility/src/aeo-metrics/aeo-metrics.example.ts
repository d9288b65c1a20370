/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const AEO_METRICS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-24",
    "overall": {
      "mentionRate": {
        "value": 0.75,
        "n": 4,
        "low": 0.3006,
        "high": 0.9544
      },
      "averagePosition": {
        "value": 2,
        "n": 3
      },
      "top3Rate": {
        "value": 1,
        "n": 3,
        "low": 0.4385,
        "high": 1
      },
      "accuracy": {
        "value": null,
        "n": 0,
        "low": null,
        "high": null
      }
    },
    "providers": [
      {
        "provider": "chatgpt",
        "mentionRate": {
          "value": 1,
          "n": 2,
          "low": 0.3424,
          "high": 1
        },
        "averagePosition": {
          "value": 2,
          "n": 2
        },
        "top3Rate": {
          "value": 1,
          "n": 2,
          "low": 0.3424,
          "high": 1
        },
        "accuracy": {
          "value": null,
          "n": 0,
          "low": null,
          "high": null
        }
      },
      {
        "provider": "claude",
        "mentionRate": {
          "value": 0.5,
          "n": 2,
          "low": 0.0945,
          "high": 0.9055
        },
        "averagePosition": {
          "value": 2,
          "n": 1
        },
        "top3Rate": {
          "value": 1,
          "n": 1,
          "low": 0.2065,
          "high": 1
        },
        "accuracy": {
          "value": null,
          "n": 0,
          "low": null,
          "high": null
        }
      }
    ]
  }
};
