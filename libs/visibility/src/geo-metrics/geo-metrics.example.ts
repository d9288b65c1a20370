/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const GEO_METRICS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-24",
    "overall": {
      "visibilityShare": {
        "value": 0.325,
        "n": 4
      },
      "citationRate": {
        "value": 0.6667,
        "n": 3,
        "low": 0.2077,
        "high": 0.9385
      },
      "citationShare": {
        "value": 0.6,
        "n": 5
      }
    },
    "providers": [
      {
        "provider": "chatgpt",
        "visibilityShare": {
          "value": 0.4,
          "n": 2
        },
        "citationRate": {
          "value": 0.5,
          "n": 2,
          "low": 0.0945,
          "high": 0.9055
        },
        "citationShare": {
          "value": 0.3333,
          "n": 3
        }
      },
      {
        "provider": "claude",
        "visibilityShare": {
          "value": 0.25,
          "n": 2
        },
        "citationRate": {
          "value": 1,
          "n": 1,
          "low": 0.2065,
          "high": 1
        },
        "citationShare": {
          "value": 1,
          "n": 2
        }
      }
    ]
  }
};
