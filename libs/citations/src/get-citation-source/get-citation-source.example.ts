/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const GET_CITATION_SOURCE_EXAMPLE = {
  "data": {
    "id": 1,
    "brandId": 7,
    "url": "https://acme.example/pricing",
    "domain": "acme.example",
    "title": "Title of https://acme.example/pricing",
    "owner": {
      "kind": "brand",
      "entity": {
        "id": "brand-7",
        "name": "Acme",
        "kind": "brand"
      }
    },
    "citations": 2,
    "answers": 2,
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
    "prompts": [
      {
        "prompt": {
          "id": null,
          "query": "q-crm"
        },
        "citations": 2,
        "answers": 2,
        "lastSeen": "2026-11-24T08:00:00.000Z"
      }
    ]
  }
};
