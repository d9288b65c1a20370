/**
 * Turns the schemas @nestjs/swagger writes (OpenAPI 3.0: `nullable: true`) into OpenAPI 3.1's
 * JSON Schema 2020-12: a nullable typed schema gets `null` among its types (and its enum), a
 * nullable reference or composition becomes `anyOf: [it, {type: 'null'}]`. The document is
 * changed in place; it is 3.1 because the `webhooks` section is.
 */
export function toOpenApi31<T extends { openapi: string }>(document: T): T {
  document.openapi = '3.1.0';
  convert(document);
  return document;
}

type Json = Record<string, unknown>;

function convert(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) convert(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  for (const value of Object.values(schema)) convert(value);
  if (schema.nullable !== true) {
    if (schema.nullable === false) delete schema.nullable;
    return;
  }
  delete schema.nullable;
  const composed = '$ref' in schema || 'allOf' in schema || 'oneOf' in schema || 'anyOf' in schema;
  if (typeof schema.type === 'string' && !composed) {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return;
  }
  // A reference or a composition: the schema as it is, or null.
  const inner: Json = {};
  if (composed && schema.type === 'object') delete schema.type; // the composition says what it is
  for (const key of Object.keys(schema)) {
    if (key === 'description' || key === 'example' || key === 'title') continue;
    inner[key] = schema[key];
    delete schema[key];
  }
  const single = Array.isArray(inner.allOf) && inner.allOf.length === 1 && Object.keys(inner).length === 1 ? (inner.allOf[0] as Json) : inner;
  schema.anyOf = [single, { type: 'null' }];
}
