/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const PROMPT_INSIGHTS_EXAMPLE = {
  "data": [
    {
      "prompt": {
        "id": null,
        "query": "q-crm"
      },
      "answers": 7,
      "mentionRate": {
        "value": 0.5714,
        "n": 7,
        "low": 0.2505,
        "high": 0.8418
      },
      "averagePosition": {
        "value": 1.75,
        "n": 4
      },
      "sentiment": {
        "positive": 2,
        "neutral": 2,
        "negative": 0,
        "netSentiment": {
          "value": 50,
          "n": 4
        },
        "meanScore": {
          "value": 0.35,
          "n": 4
        },
        "labelledBy": { "judge": 0, "model": 4, "judgeFallbacks": 0 }
      },
      "leadingCompetitor": {
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
        }
      },
      "sources": [
        {
          "domain": "g2.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 4
        },
        {
          "domain": "rivalreview.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 3
        },
        {
          "domain": "acme.example",
          "owner": {
            "kind": "brand",
            "entity": {
              "id": "brand-7",
              "name": "Acme",
              "kind": "brand"
            }
          },
          "citations": 2
        },
        {
          "domain": "only-pplx.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 2
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
      "mentionRate": {
        "value": 0.5,
        "n": 2,
        "low": 0.0945,
        "high": 0.9055
      },
      "averagePosition": {
        "value": 1,
        "n": 1
      },
      "sentiment": {
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
        "labelledBy": { "judge": 0, "model": 1, "judgeFallbacks": 0 }
      },
      "leadingCompetitor": {
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
        }
      },
      "sources": [
        {
          "domain": "g2.example",
          "owner": {
            "kind": "other",
            "entity": null
          },
          "citations": 1
        },
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
  ],
  "meta": {
    "total": 2,
    "limit": 50,
    "offset": 0,
    "hasMore": false
  }
};
