/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const PROMPT_TRENDS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-7",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-24",
    "prompts": [
      {
        "prompt": {
          "id": null,
          "query": "q-crm"
        },
        "mentionRate": [
          {
            "date": "2026-11-22",
            "value": 0.6667,
            "n": 3,
            "low": 0.2077,
            "high": 0.9385
          },
          {
            "date": "2026-11-23",
            "value": 0,
            "n": 1,
            "low": 0,
            "high": 0.7935
          },
          {
            "date": "2026-11-24",
            "value": 0.6667,
            "n": 3,
            "low": 0.2077,
            "high": 0.9385
          }
        ],
        "averagePosition": [
          {
            "date": "2026-11-22",
            "value": 1.5,
            "n": 2,
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
            "value": 2,
            "n": 2,
            "low": null,
            "high": null
          }
        ],
        "gapRate": [
          {
            "date": "2026-11-22",
            "value": 0.3333,
            "n": 3,
            "low": 0.0615,
            "high": 0.7923
          },
          {
            "date": "2026-11-23",
            "value": 1,
            "n": 1,
            "low": 0.2065,
            "high": 1
          },
          {
            "date": "2026-11-24",
            "value": 0.3333,
            "n": 3,
            "low": 0.0615,
            "high": 0.7923
          }
        ]
      },
      {
        "prompt": {
          "id": null,
          "query": "q-erp"
        },
        "mentionRate": [
          {
            "date": "2026-11-22",
            "value": null,
            "n": 0,
            "low": null,
            "high": null
          },
          {
            "date": "2026-11-23",
            "value": 1,
            "n": 1,
            "low": 0.2065,
            "high": 1
          },
          {
            "date": "2026-11-24",
            "value": 0,
            "n": 1,
            "low": 0,
            "high": 0.7935
          }
        ],
        "averagePosition": [
          {
            "date": "2026-11-22",
            "value": null,
            "n": 0,
            "low": null,
            "high": null
          },
          {
            "date": "2026-11-23",
            "value": 1,
            "n": 1,
            "low": null,
            "high": null
          },
          {
            "date": "2026-11-24",
            "value": null,
            "n": 0,
            "low": null,
            "high": null
          }
        ],
        "gapRate": [
          {
            "date": "2026-11-22",
            "value": null,
            "n": 0,
            "low": null,
            "high": null
          },
          {
            "date": "2026-11-23",
            "value": 0,
            "n": 1,
            "low": 0,
            "high": 0.7935
          },
          {
            "date": "2026-11-24",
            "value": 1,
            "n": 1,
            "low": 0.2065,
            "high": 1
          }
        ]
      }
    ]
  }
};
