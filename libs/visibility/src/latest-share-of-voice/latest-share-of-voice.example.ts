/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const LATEST_SHARE_OF_VOICE_EXAMPLE = {
  "data": {
    "date": "2026-11-24",
    "providers": [
      {
        "provider": "chatgpt",
        "answers": 1,
        "entries": [
          {
            "provider": "chatgpt",
            "entity": {
              "id": "brand-1",
              "name": "Acme",
              "kind": "brand"
            },
            "mentions": 1,
            "shareOfVoice": 0.25,
            "mentionRate": {
              "value": 1,
              "n": 1,
              "low": 0.2065,
              "high": 1
            }
          },
          {
            "provider": "chatgpt",
            "entity": {
              "id": "competitor-1",
              "name": "Globex",
              "kind": "competitor"
            },
            "mentions": 1,
            "shareOfVoice": 0.25,
            "mentionRate": {
              "value": 1,
              "n": 1,
              "low": 0.2065,
              "high": 1
            }
          },
          {
            "provider": "chatgpt",
            "entity": {
              "id": "competitor-2",
              "name": "Initech",
              "kind": "competitor"
            },
            "mentions": 2,
            "shareOfVoice": 0.5,
            "mentionRate": {
              "value": 1,
              "n": 1,
              "low": 0.2065,
              "high": 1
            }
          }
        ]
      },
      {
        "provider": "claude",
        "answers": 1,
        "entries": [
          {
            "provider": "claude",
            "entity": {
              "id": "brand-1",
              "name": "Acme",
              "kind": "brand"
            },
            "mentions": 1,
            "shareOfVoice": 0.5,
            "mentionRate": {
              "value": 1,
              "n": 1,
              "low": 0.2065,
              "high": 1
            }
          },
          {
            "provider": "claude",
            "entity": {
              "id": "competitor-1",
              "name": "Globex",
              "kind": "competitor"
            },
            "mentions": 1,
            "shareOfVoice": 0.5,
            "mentionRate": {
              "value": 1,
              "n": 1,
              "low": 0.2065,
              "high": 1
            }
          },
          {
            "provider": "claude",
            "entity": {
              "id": "competitor-2",
              "name": "Initech",
              "kind": "competitor"
            },
            "mentions": 0,
            "shareOfVoice": 0,
            "mentionRate": {
              "value": 0,
              "n": 1,
              "low": 0,
              "high": 0.7935
            }
          }
        ]
      }
    ]
  }
};
