/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const VISIBILITY_TRENDS_EXAMPLE = {
  "data": {
    "brand": {
      "id": "brand-1",
      "name": "Acme",
      "kind": "brand"
    },
    "startDate": "2026-11-22",
    "endDate": "2026-11-25",
    "overall": {
      "mentionRate": [
        {
          "date": "2026-11-22",
          "value": 0.5,
          "n": 2,
          "low": 0.0945,
          "high": 0.9055
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
          "value": 1,
          "n": 2,
          "low": 0.3424,
          "high": 1
        }
      ],
      "shareOfVoice": [
        {
          "date": "2026-11-22",
          "value": 0.3333,
          "n": 6,
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
          "value": 0.3333,
          "n": 6,
          "low": null,
          "high": null
        }
      ],
      "averagePosition": [
        {
          "date": "2026-11-22",
          "value": 1,
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
          "value": 2.5,
          "n": 2,
          "low": null,
          "high": null
        }
      ]
    },
    "providers": [
      {
        "provider": "chatgpt",
        "mentionRate": [
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
            "value": 1,
            "n": 1,
            "low": 0.2065,
            "high": 1
          }
        ],
        "shareOfVoice": [
          {
            "date": "2026-11-22",
            "value": 0.6667,
            "n": 3,
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
            "value": 0.25,
            "n": 4,
            "low": null,
            "high": null
          }
        ],
        "averagePosition": [
          {
            "date": "2026-11-22",
            "value": 1,
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
            "value": 3,
            "n": 1,
            "low": null,
            "high": null
          }
        ]
      },
      {
        "provider": "claude",
        "mentionRate": [
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
            "value": 1,
            "n": 1,
            "low": 0.2065,
            "high": 1
          }
        ],
        "shareOfVoice": [
          {
            "date": "2026-11-22",
            "value": 0,
            "n": 3,
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
            "value": 0.5,
            "n": 2,
            "low": null,
            "high": null
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
            "value": null,
            "n": 0,
            "low": null,
            "high": null
          },
          {
            "date": "2026-11-24",
            "value": 2,
            "n": 1,
            "low": null,
            "high": null
          }
        ]
      },
      {
        "provider": "gemini",
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
            "value": null,
            "n": 0,
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
        "shareOfVoice": [
          {
            "date": "2026-11-22",
            "value": null,
            "n": 0,
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
            "value": null,
            "n": 0,
            "low": null,
            "high": null
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
            "value": null,
            "n": 0,
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
        ]
      }
    ],
    "shareOfVoiceByEntity": [
      {
        "entity": { "id": "brand-1", "name": "Acme", "kind": "brand" },
        "shareOfVoice": [
          { "date": "2026-11-22", "value": 0.3333, "n": 6, "low": 0.0968, "high": 0.7000 },
          { "date": "2026-11-23", "value": null, "n": 0, "low": null, "high": null },
          { "date": "2026-11-24", "value": 0.3333, "n": 6, "low": 0.0968, "high": 0.7000 }
        ]
      },
      {
        "entity": { "id": "competitor-1", "name": "Globex", "kind": "competitor" },
        "shareOfVoice": [
          { "date": "2026-11-22", "value": 0.5, "n": 6, "low": 0.1876, "high": 0.8124 },
          { "date": "2026-11-23", "value": null, "n": 0, "low": null, "high": null },
          { "date": "2026-11-24", "value": 0.3333, "n": 6, "low": 0.0968, "high": 0.7000 }
        ]
      }
    ]
  }
};
