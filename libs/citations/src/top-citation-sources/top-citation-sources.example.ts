/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const TOP_CITATION_SOURCES_EXAMPLE = {
  "data": {
    "startDate": "2026-11-19",
    "endDate": "2026-11-25",
    "providersAsked": 3,
    "totalDomains": 5,
    "domains": [
      {
        "domain": "g2.example",
        "consensusScore": 100,
        "citations": 5,
        "providerCoverage": 0.6667,
        "providers": [
          {
            "provider": "chatgpt",
            "citations": 4
          },
          {
            "provider": "perplexity",
            "citations": 1
          }
        ],
        "firstSeen": "2026-11-22T08:00:00.000Z",
        "lastSeen": "2026-11-24T08:00:00.000Z",
        "owner": {
          "kind": "other",
          "entity": null
        },
        "exampleUrls": [
          "https://g2.example/crm",
          "https://g2.example/erp"
        ]
      },
      {
        "domain": "rivalreview.example",
        "consensusScore": 85.8094,
        "citations": 4,
        "providerCoverage": 0.6667,
        "providers": [
          {
            "provider": "claude",
            "citations": 3
          },
          {
            "provider": "chatgpt",
            "citations": 1
          }
        ],
        "firstSeen": "2026-11-22T08:00:00.000Z",
        "lastSeen": "2026-11-24T08:00:00.000Z",
        "owner": {
          "kind": "other",
          "entity": null
        },
        "exampleUrls": [
          "https://rivalreview.example/top",
          "https://rivalreview.example/erp",
          "https://rivalreview.example/other"
        ]
      },
      {
        "domain": "acme.example",
        "consensusScore": 40.887,
        "citations": 2,
        "providerCoverage": 0.6667,
        "providers": [
          {
            "provider": "chatgpt",
            "citations": 1
          },
          {
            "provider": "perplexity",
            "citations": 1
          }
        ],
        "firstSeen": "2026-11-22T08:00:00.000Z",
        "lastSeen": "2026-11-24T08:00:00.000Z",
        "owner": {
          "kind": "brand",
          "entity": {
            "id": "brand-7",
            "name": "Acme",
            "kind": "brand"
          }
        },
        "exampleUrls": [
          "https://acme.example/pricing"
        ]
      },
      {
        "domain": "only-pplx.example",
        "consensusScore": 20.4435,
        "citations": 2,
        "providerCoverage": 0.3333,
        "providers": [
          {
            "provider": "perplexity",
            "citations": 2
          }
        ],
        "firstSeen": "2026-11-22T08:00:00.000Z",
        "lastSeen": "2026-11-24T08:00:00.000Z",
        "owner": {
          "kind": "other",
          "entity": null
        },
        "exampleUrls": [
          "https://only-pplx.example/a"
        ]
      },
      {
        "domain": "globex.example",
        "consensusScore": 9.2129,
        "citations": 1,
        "providerCoverage": 0.3333,
        "providers": [
          {
            "provider": "claude",
            "citations": 1
          }
        ],
        "firstSeen": "2026-11-22T08:00:00.000Z",
        "lastSeen": "2026-11-22T08:00:00.000Z",
        "owner": {
          "kind": "competitor",
          "entity": {
            "id": "competitor-3",
            "name": "Globex",
            "kind": "competitor"
          }
        },
        "exampleUrls": [
          "https://globex.example/"
        ]
      }
    ]
  }
};
