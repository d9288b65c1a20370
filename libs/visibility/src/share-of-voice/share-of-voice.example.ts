/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const SHARE_OF_VOICE_EXAMPLE = {
  "data": [
    {
      "provider": "chatgpt",
      "query": "q1",
      "brand": {
        "id": "brand-1",
        "name": "Acme",
        "kind": "brand"
      },
      "answers": 2,
      "entries": [
        {
          "provider": "chatgpt",
          "entity": {
            "id": "brand-1",
            "name": "Acme",
            "kind": "brand"
          },
          "mentions": 3,
          "shareOfVoice": 0.4286,
          "mentionRate": {
            "value": 1,
            "n": 2,
            "low": 0.3424,
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
          "mentions": 2,
          "shareOfVoice": 0.2857,
          "mentionRate": {
            "value": 1,
            "n": 2,
            "low": 0.3424,
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
          "shareOfVoice": 0.2857,
          "mentionRate": {
            "value": 0.5,
            "n": 2,
            "low": 0.0945,
            "high": 0.9055
          }
        }
      ]
    },
    {
      "provider": "claude",
      "query": "q0",
      "brand": {
        "id": "brand-1",
        "name": "Acme",
        "kind": "brand"
      },
      "answers": 2,
      "entries": [
        {
          "provider": "claude",
          "entity": {
            "id": "brand-1",
            "name": "Acme",
            "kind": "brand"
          },
          "mentions": 1,
          "shareOfVoice": 0.2,
          "mentionRate": {
            "value": 0.5,
            "n": 2,
            "low": 0.0945,
            "high": 0.9055
          }
        },
        {
          "provider": "claude",
          "entity": {
            "id": "competitor-1",
            "name": "Globex",
            "kind": "competitor"
          },
          "mentions": 3,
          "shareOfVoice": 0.6,
          "mentionRate": {
            "value": 1,
            "n": 2,
            "low": 0.3424,
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
          "mentions": 1,
          "shareOfVoice": 0.2,
          "mentionRate": {
            "value": 0.5,
            "n": 2,
            "low": 0.0945,
            "high": 0.9055
          }
        }
      ]
    }
  ],
  "meta": {
    "total": 2,
    "limit": 50,
    "offset": 0,
    "hasMore": false
  }
};
