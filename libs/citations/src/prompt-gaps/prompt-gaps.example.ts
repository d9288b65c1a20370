/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const PROMPT_GAPS_EXAMPLE = {
  "data": [
    {
      "prompt": {
        "id": null,
        "query": "q-crm"
      },
      "answers": 7,
      "gapAnswers": 3,
      "gapRate": {
        "value": 0.4286,
        "n": 7,
        "low": 0.1582,
        "high": 0.7495
      },
      "brandMentionRate": {
        "value": 0.5714,
        "n": 7,
        "low": 0.2505,
        "high": 0.8418
      },
      "competitors": [
        {
          "entity": {
            "id": "competitor-3",
            "name": "Globex",
            "kind": "competitor"
          },
          "mentionRate": {
            "value": 1,
            "n": 7,
            "low": 0.6457,
            "high": 1
          },
          "gapAnswers": 3
        },
        {
          "entity": {
            "id": "competitor-4",
            "name": "Initech",
            "kind": "competitor"
          },
          "mentionRate": {
            "value": 0.2857,
            "n": 7,
            "low": 0.0822,
            "high": 0.6411
          },
          "gapAnswers": 1
        }
      ],
      "sources": [
        {
          "domain": "rivalreview.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 3
        },
        {
          "domain": "g2.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 1
        },
        {
          "domain": "globex.example",
          "owner": {
            "kind": "competitor",
            "entity": {
              "id": "competitor-3",
              "name": "Globex",
              "kind": "competitor"
            }
          },
          "citations": 1
        }
      ]
    },
    {
      "prompt": {
        "id": null,
        "query": "q-erp"
      },
      "answers": 2,
      "gapAnswers": 1,
      "gapRate": {
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      },
      "brandMentionRate": {
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      },
      "competitors": [
        {
          "entity": {
            "id": "competitor-3",
            "name": "Globex",
            "kind": "competitor"
          },
          "mentionRate": {
            "value": 0.5,
            "n": 2,
            "low": 0.0945,
            "high": 0.9055
          },
          "gapAnswers": 1
        }
      ],
      "sources": [
        {
          "domain": "rivalreview.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 1
        }
      ]
    }
  ]
};
