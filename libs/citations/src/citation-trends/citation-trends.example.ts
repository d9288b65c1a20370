/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const CITATION_TRENDS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-7",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-25",
    "citationRate": [
      {
        "date": "2026-11-22",
        "value": 0.3333,
        "n": 3,
        "low": 0.0615,
        "high": 0.7923
      },
      {
        "date": "2026-11-23",
        "value": 0,
        "n": 2,
        "low": 0,
        "high": 0.6576
      },
      {
        "date": "2026-11-24",
        "value": 0.25,
        "n": 4,
        "low": 0.0456,
        "high": 0.6994
      },
      {
        "date": "2026-11-25",
        "value": null,
        "n": 0,
        "low": null,
        "high": null
      }
    ],
    "counts": [
      {
        "date": "2026-11-22",
        "answers": 3,
        "brand": 1,
        "competitor": 1,
        "other": 4,
        "total": 6
      },
      {
        "date": "2026-11-23",
        "answers": 2,
        "brand": 0,
        "competitor": 0,
        "other": 2,
        "total": 2
      },
      {
        "date": "2026-11-24",
        "answers": 4,
        "brand": 1,
        "competitor": 0,
        "other": 5,
        "total": 6
      },
      {
        "date": "2026-11-25",
        "answers": 0,
        "brand": null,
        "competitor": null,
        "other": null,
        "total": null
      }
    ]
  }
};
