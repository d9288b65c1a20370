/** An example answer for the OpenAPI document, recorded from the citations test's fixture (test/citations); a test checks it against its schema. */
export const PROMPT_DISCOVERIES_EXAMPLE = {
  "data": [
    {
      "question": "How much does Acme cost?",
      "occurrences": 2,
      "answers": 2,
      "foundIn": [
        {
          "origin": "follow_up",
          "occurrences": 1
        },
        {
          "origin": "answer_text",
          "occurrences": 1
        }
      ],
      "providers": [
        "chatgpt"
      ],
      "prompts": [
        "q-crm"
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-24T08:00:00.000Z"
    },
    {
      "question": "Which CRM integrates with Gmail?",
      "occurrences": 2,
      "answers": 2,
      "foundIn": [
        {
          "origin": "follow_up",
          "occurrences": 1
        },
        {
          "origin": "answer_text",
          "occurrences": 1
        }
      ],
      "providers": [
        "chatgpt",
        "perplexity"
      ],
      "prompts": [
        "q-crm"
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-22T08:00:00.000Z"
    },
    {
      "question": "What is the best CRM for startups?",
      "occurrences": 2,
      "answers": 1,
      "foundIn": [
        {
          "origin": "follow_up",
          "occurrences": 1
        },
        {
          "origin": "answer_text",
          "occurrences": 1
        }
      ],
      "providers": [
        "perplexity"
      ],
      "prompts": [
        "q-crm"
      ],
      "firstSeen": "2026-11-22T08:00:00.000Z",
      "lastSeen": "2026-11-22T08:00:00.000Z"
    },
    {
      "question": "What about support?",
      "occurrences": 1,
      "answers": 1,
      "foundIn": [
        {
          "origin": "answer_text",
          "occurrences": 1
        }
      ],
      "providers": [
        "chatgpt"
      ],
      "prompts": [
        "q-crm"
      ],
      "firstSeen": "2026-11-24T08:00:00.000Z",
      "lastSeen": "2026-11-24T08:00:00.000Z"
    }
  ]
};
