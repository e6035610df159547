import { isPlainObject } from '../scoring/pyvalue';

/**
 * BFCL function docs are "not exactly JSON Schema": the top level is `type: "dict"`, and the type names
 * include `float`, `tuple`, `any` and `dict`; params may carry `"optional": true`. This turns one into JSON
 * Schema (draft 2020-12 vocabulary): dict → object, float → number, tuple → array, any → no type constraint;
 * `properties` and `items` recursively; `required` kept when it is a list of names; `optional` dropped
 * (optionality is already expressed by `required`); everything else (description, enum, default, format,
 * maximum, …) kept as it is.
 */
const TYPE_MAP: Record<string, string | null> = {
  dict: 'object',
  float: 'number',
  tuple: 'array',
  any: null,
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
  number: 'number',
  null: 'null',
};

export function bfclTypeToJsonSchema(doc: unknown): Record<string, unknown> {
  if (!isPlainObject(doc)) return {};
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'type') {
      if (typeof value !== 'string') out.type = value;
      else {
        const mapped = Object.hasOwn(TYPE_MAP, value) ? TYPE_MAP[value] : value;
        if (mapped !== null) out.type = mapped;
      }
    } else if (key === 'properties' && isPlainObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bfclTypeToJsonSchema(v)]));
    } else if (key === 'items') {
      out.items = isPlainObject(value) ? bfclTypeToJsonSchema(value) : value;
    } else if (key === 'required') {
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out.required = value;
    } else if (key !== 'optional') {
      out[key] = value;
    }
  }
  return out;
}

/** A BFCL function's parameters as the JSON Schema of a tool's arguments (always `type: "object"`). */
export function bfclParametersToJsonSchema(parameters: unknown): Record<string, unknown> {
  const schema = bfclTypeToJsonSchema(parameters);
  return { ...schema, type: 'object', properties: isPlainObject(schema.properties) ? schema.properties : {} };
}
