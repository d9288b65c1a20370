/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const CITATION_SOURCE_ABSENCES_EXAMPLE = {
  "data": {
    "startDate": "2026-11-19",
    "endDate": "2026-11-25",
    "minScore": 0,
    "domains": [
      {
        "domain": "rivalreview.example",
        "absenceScore": 100,
        "consensusScore": 85.8094,
        "competitorDensity": 1,
        "answersCiting": 3,
        "competitorOnlyAnswers": 3,
        "citations": 4,
        "owner": {
          "kind": "other",
          "entity": null
        },
        "competitors": [
          {
            "entity": {
              "id": "competitor-3",
              "name": "Globex",
              "kind": "competitor"
            },
            "answers": 3
          },
          {
            "entity": {
              "id": "competitor-4",
              "name": "Initech",
              "kind": "competitor"
            },
            "answers": 1
          }
        ],
        "prompts": [
          {
            "prompt": {
              "id": null,
              "query": "q-crm"
            },
            "answers": 2
          },
          {
            "prompt": {
              "id": null,
              "query": "q-erp"
            },
            "answers": 1
          }
        ]
      },
      {
        "domain": "g2.example",
        "absenceScore": 23.3075,
        "consensusScore": 100,
        "competitorDensity": 0.2,
        "answersCiting": 5,
        "competitorOnlyAnswers": 1,
        "citations": 5,
        "owner": {
          "kind": "other",
          "entity": null
        },
        "competitors": [
          {
            "entity": {
              "id": "competitor-3",
              "name": "Globex",
              "kind": "competitor"
            },
            "answers": 1
          }
        ],
        "prompts": [
          {
            "prompt": {
              "id": null,
              "query": "q-crm"
            },
            "answers": 1
          }
        ]
      },
      {
        "domain": "globex.example",
        "absenceScore": 10.7364,
        "consensusScore": 9.2129,
        "competitorDensity": 1,
        "answersCiting": 1,
        "competitorOnlyAnswers": 1,
        "citations": 1,
        "owner": {
          "kind": "competitor",
          "entity": {
            "id": "competitor-3",
            "name": "Globex",
            "kind": "competitor"
          }
        },
        "competitors": [
          {
            "entity": {
              "id": "competitor-3",
              "name": "Globex",
              "kind": "competitor"
            },
            "answers": 1
          },
          {
            "entity": {
              "id": "competitor-4",
              "name": "Initech",
              "kind": "competitor"
            },
            "answers": 1
          }
        ],
        "prompts": [
          {
            "prompt": {
              "id": null,
              "query": "q-crm"
            },
            "answers": 1
          }
        ]
      }
    ]
  }
};
