/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const LIST_CHANGES_EXAMPLE = {
  "data": [
    {
      "id": "901-8:dropped_from_top3:brand-7",
      "brandId": 7,
      "changeType": "dropped_from_top3",
      "severity": "high",
      "provider": "chatgpt",
      "prompt": {
        "id": null,
        "query": "q-erp"
      },
      "entity": {
        "id": "brand-7",
        "name": "Acme",
        "kind": "brand"
      },
      "domain": null,
      "before": {
        "rank": 1,
        "mentioned": true,
        "sentiment": "neutral"
      },
      "after": {
        "rank": null,
        "mentioned": false,
        "sentiment": null
      },
      "previousAnswer": {
        "id": "901-7",
        "askedAt": "2026-11-23T08:00:00.000Z"
      },
      "answer": {
        "id": "901-8",
        "askedAt": "2026-11-24T08:00:00.000Z"
      },
      "detectedAt": "2026-11-24T08:00:00.000Z"
    },
    {
      "id": "901-9:dropped_from_top3:brand-7",
      "brandId": 7,
      "changeType": "dropped_from_top3",
      "severity": "high",
      "provider": "chatgpt",
      "prompt": {
        "id": null,
        "query": "q-crm"
      },
      "entity": {
        "id": "brand-7",
        "name": "Acme",
        "kind": "brand"
      },
      "domain": null,
      "before": {
        "rank": 1,
        "mentioned": true,
        "sentiment": "positive"
      },
      "after": {
        "rank": null,
        "mentioned": false,
        "sentiment": null
      },
      "previousAnswer": {
        "id": "901-1",
        "askedAt": "2026-11-22T08:00:00.000Z"
      },
      "answer": {
        "id": "901-9",
        "askedAt": "2026-11-23T08:00:00.000Z"
      },
      "detectedAt": "2026-11-23T08:00:00.000Z"
    }
  ],
  "meta": {
    "total": 3,
    "limit": 2,
    "offset": 0,
    "hasMore": true
  }
};
