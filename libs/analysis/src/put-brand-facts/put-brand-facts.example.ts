/** Example answers for the OpenAPI document, recorded from the figures test's fixture (test/visibility, test/analysis) and trimmed; a test checks each against its schema. */
export const PUT_BRAND_FACTS_EXAMPLE = {
  "data": {
    "brandId": 1,
    "facts": {
      "foundedYear": 2012,
      "startingPrice": {
        "amount": 9.5,
        "currency": "EUR"
      },
      "headquarters": "Berlin",
      "productNames": [
        "Acme One"
      ]
    },
    "updatedAt": "2026-11-25T15:34:25.237Z"
  }
};
