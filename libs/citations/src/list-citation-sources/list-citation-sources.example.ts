/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const LIST_CITATION_SOURCES_EXAMPLE = {
  "data": [
    {
      "id": 2,
      "url": "https://g2.example/crm",
      "domain": "g2.example",
      "title": "Title of https://g2.example/crm",
      "owner": {
        "kind": "other",
        "entity": null
      },
      "citations": 4,
      "answers": 4,
      "providers": [
        {
          "provider": "chatgpt",
          "citations": 3
        },
        {
          "provider": "perplexity",
          "citations": 1
        }
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-24T08:00:00.000Z"
    },
    {
      "id": 5,
      "url": "https://only-pplx.example/a",
      "domain": "only-pplx.example",
      "title": "Title of https://only-pplx.example/a",
      "owner": {
        "kind": "other",
        "entity": null
      },
      "citations": 2,
      "answers": 2,
      "providers": [
        {
          "provider": "perplexity",
          "citations": 2
        }
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-24T08:00:00.000Z"
    },
    {
      "id": 3,
      "url": "https://rivalreview.example/top",
      "domain": "rivalreview.example",
      "title": "Title of https://rivalreview.example/top",
      "owner": {
        "kind": "other",
        "entity": null
      },
      "citations": 2,
      "answers": 2,
      "providers": [
        {
          "provider": "claude",
          "citations": 2
        }
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-24T08:00:00.000Z"
    }
  ],
  "meta": {
    "total": 8,
    "limit": 3,
    "offset": 0,
    "hasMore": true
  }
};
