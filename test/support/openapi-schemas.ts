import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** Every object schema that lists its properties but says nothing of others is closed: a payload with a field the document does not name fails. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, closed(s)])) : closed(v);
  if (out.properties && out.additionalProperties === undefined && !out.allOf && !out.anyOf && !out.oneOf) out.additionalProperties = false;
  return out;
}

/**
 * Validates values against the schemas of a served OpenAPI 3.1 document (JSON Schema 2020-12,
 * formats checked, objects closed). Returns the problems, empty when the value conforms.
 */
export function openApiValidator(doc: Json): (schema: Json, value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: closed(doc.components) });
  return (schema, value) => {
    const ref = typeof schema.$ref === 'string' ? { $ref: `openapi${schema.$ref}` } : closed(schema);
    const validate = ajv.compile(ref as Json);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
