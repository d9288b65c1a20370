/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const ANALYSIS_RESULTS_EXAMPLE = {
  "data": [
    {
      "id": "1-3",
      "runId": 1,
      "brandId": 1,
      "promptId": null,
      "query": "Acme CRM vs Globex",
      "provider": "perplexity",
      "country": null,
      "language": null,
      "model": "recorded-perplexity",
      "source": "recorded",
      "status": "answered",
      "answer": "Here are the options most people consider for \"Acme CRM vs Globex\":\n\n1. **Acme CRM** – Acme CRM covers the basics.\n2. **Umbrella** – Umbrella integrates with the usual tools.\n3. **Initech** – Initech is available in most regions.\n\nOveral...",
      "citations": [
        {
          "url": "https://wirecutter.com/acme-crm-vs-globex",
          "owner": "other",
          "title": "wirecutter.com",
          "domain": "wirecutter.com",
          "entityId": null,
          "position": 1
        },
        {
          "url": "https://techradar.com/acme-crm-vs-globex",
          "owner": "other",
          "title": "techradar.com",
          "domain": "techradar.com",
          "entityId": null,
          "position": 2
        },
        {
          "url": "https://initech.com/acme-crm-vs-globex",
          "owner": "competitor",
          "title": "initech.com",
          "domain": "initech.com",
          "entityId": "competitor-2",
          "position": 3
        }
      ],
      "entities": [
        {
          "kind": "brand",
          "name": "Acme CRM",
          "rank": 1,
          "entityId": "brand-1",
          "mentions": 4,
          "mentioned": true,
          "sentiment": "positive",
          "sentimentScore": 0.612,
          "visibilityShare": 0.5275,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Globex",
          "rank": 4,
          "entityId": "competitor-1",
          "mentions": 1,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.2092,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Initech",
          "rank": 3,
          "entityId": "competitor-2",
          "mentions": 2,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.1153,
          "labeller": "model:2.0.0"
        }
      ],
      "claims": [],
      "engineVersion": "2.0.0",
      "error": null,
      "askedAt": "2026-11-25T15:34:14.158Z",
      "latencyMs": 0
    },
    {
      "id": "1-0",
      "runId": 1,
      "brandId": 1,
      "promptId": null,
      "query": "best CRM for agencies",
      "provider": "chatgpt",
      "country": null,
      "language": null,
      "model": "recorded-chatgpt",
      "source": "recorded",
      "status": "answered",
      "answer": "Here are the options most people consider for \"best CRM for agencies\":\n\n1. **Acme CRM** – Acme CRM is a solid choice for most teams.\n2. **Umbrella** – Umbrella offers great value for the price.\n3. **Initech** – Initech integrates with th...",
      "citations": [
        {
          "url": "https://wirecutter.com/best-crm-for-agencies",
          "owner": "other",
          "title": "wirecutter.com",
          "domain": "wirecutter.com",
          "entityId": null,
          "position": 1
        },
        {
          "url": "https://techradar.com/best-crm-for-agencies",
          "owner": "other",
          "title": "techradar.com",
          "domain": "techradar.com",
          "entityId": null,
          "position": 2
        },
        {
          "url": "https://g2.com/best-crm-for-agencies",
          "owner": "other",
          "title": "g2.com",
          "domain": "g2.com",
          "entityId": null,
          "position": 3
        }
      ],
      "entities": [
        {
          "kind": "brand",
          "name": "Acme CRM",
          "rank": 1,
          "entityId": "brand-1",
          "mentions": 3,
          "mentioned": true,
          "sentiment": "positive",
          "sentimentScore": 0.84,
          "visibilityShare": 0.351,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Globex",
          "rank": 4,
          "entityId": "competitor-1",
          "mentions": 2,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.0622,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Initech",
          "rank": 3,
          "entityId": "competitor-2",
          "mentions": 2,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.1063,
          "labeller": "model:2.0.0"
        }
      ],
      "claims": [],
      "engineVersion": "2.0.0",
      "error": null,
      "askedAt": "2026-11-25T15:34:14.035Z",
      "latencyMs": 1
    },
    {
      "id": "1-1",
      "runId": 1,
      "brandId": 1,
      "promptId": null,
      "query": "best CRM for agencies",
      "provider": "perplexity",
      "country": null,
      "language": null,
      "model": "recorded-perplexity",
      "source": "recorded",
      "status": "answered",
      "answer": "Here are the options most people consider for \"best CRM for agencies\":\n\n1. **Acme CRM** – Acme CRM is available in most regions.\n2. **Globex** – Globex integrates with the usual tools.\n3. **Initech** – Initech has a plan for small teams....",
      "citations": [
        {
          "url": "https://acme-crm.com/best-crm-for-agencies",
          "owner": "brand",
          "title": "acme-crm.com",
          "domain": "acme-crm.com",
          "entityId": "brand-1",
          "position": 1
        },
        {
          "url": "https://pcmag.com/best-crm-for-agencies",
          "owner": "other",
          "title": "pcmag.com",
          "domain": "pcmag.com",
          "entityId": null,
          "position": 2
        },
        {
          "url": "https://umbrella.com/best-crm-for-agencies",
          "owner": "competitor",
          "title": "umbrella.com",
          "domain": "umbrella.com",
          "entityId": "competitor-3",
          "position": 3
        }
      ],
      "entities": [
        {
          "kind": "brand",
          "name": "Acme CRM",
          "rank": 1,
          "entityId": "brand-1",
          "mentions": 3,
          "mentioned": true,
          "sentiment": "positive",
          "sentimentScore": 0.612,
          "visibilityShare": 0.3132,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Globex",
          "rank": 2,
          "entityId": "competitor-1",
          "mentions": 2,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.133,
          "labeller": "model:2.0.0"
        },
        {
          "kind": "competitor",
          "name": "Initech",
          "rank": 3,
          "entityId": "competitor-2",
          "mentions": 2,
          "mentioned": true,
          "sentiment": "neutral",
          "sentimentScore": 0,
          "visibilityShare": 0.1245,
          "labeller": "model:2.0.0"
        }
      ],
      "claims": [],
      "engineVersion": "2.0.0",
      "error": null,
      "askedAt": "2026-11-25T15:34:13.987Z",
      "latencyMs": 0
    }
  ],
  "meta": {
    "total": 4,
    "limit": 50,
    "offset": 0,
    "hasMore": false
  }
};
