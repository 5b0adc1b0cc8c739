// Turns Swagger 2.0 schemas into self-contained JSON Schema for tool inputs: $refs inlined,
// vendor extensions dropped, Go integer formats removed (they mean nothing to a JSON client).
import { definitionFor } from './spec-loader';
import type { SwaggerParameter, SwaggerSchema, SwaggerSpec } from './swagger-types';
import type { JsonObject, JsonValue } from './tool-definition';

const DROPPED_FORMATS = new Set(['int64', 'int32', 'uint64', 'uint32', 'uint', 'int', 'double', 'float']);
const KEPT_KEYS = new Set([
  'type',
  'format',
  'description',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'title',
]);

export function inlineSchema(spec: SwaggerSpec, schema: SwaggerSchema, stack: string[] = []): JsonObject {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const { name, schema: target } = definitionFor(spec, ref);
    // A recursive definition cannot be inlined; an open object keeps the schema finite.
    if (stack.includes(name)) return { type: 'object', description: `${name} (recursive, not expanded)` };
    return inlineSchema(spec, target, [...stack, name]);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT_KEYS.has(key) || value === undefined) continue;
    if (key === 'format' && typeof value === 'string' && DROPPED_FORMATS.has(value)) continue;
    if (key === 'type' && value === 'file') {
      out.type = 'string';
      continue;
    }
    if (key === 'properties' && value && typeof value === 'object') {
      const props: JsonObject = {};
      for (const [name, sub] of Object.entries(value as Record<string, SwaggerSchema>))
        props[name] = inlineSchema(spec, sub, stack);
      out.properties = props;
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = inlineSchema(spec, value as SwaggerSchema, stack);
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((sub) => inlineSchema(spec, sub as SwaggerSchema, stack));
    } else {
      out[key] = value as JsonValue;
    }
  }
  // Swagger's x-nullable: Gitea emits null for these fields.
  if (schema['x-nullable'] === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  // Gitea marks some string fields uniqueItems (a Go binding tag); it only means something on arrays.
  if (out.uniqueItems !== undefined && out.type !== 'array') delete out.uniqueItems;
  return out;
}

/** JSON Schema for one path/query/formData parameter. */
export function parameterSchema(spec: SwaggerSpec, p: SwaggerParameter): JsonObject {
  const raw: SwaggerSchema = {};
  for (const key of [
    'type',
    'format',
    'description',
    'enum',
    'default',
    'minimum',
    'maximum',
    'items',
  ] as const) {
    if (p[key] !== undefined) raw[key] = p[key];
  }
  const schema = inlineSchema(spec, raw);
  if (p.type === 'array' && p.collectionFormat === 'multi') {
    schema.description = `${typeof schema.description === 'string' ? schema.description + ' ' : ''}(sent as repeated query parameters)`;
  }
  return schema;
}

export const UPLOAD_SCHEMA_NOTE = 'file content as base64 with its file name';

export function uploadSchema(p: SwaggerParameter, maxBinaryBytes: number): JsonObject {
  return {
    type: 'object',
    description: `${p.description ?? 'file to upload'}: ${UPLOAD_SCHEMA_NOTE} (at most ${maxBinaryBytes} bytes decoded)`,
    properties: {
      content_base64: { type: 'string', description: 'the file content, base64 encoded' },
      filename: { type: 'string', minLength: 1, maxLength: 255, description: 'file name sent to Gitea' },
      content_type: { type: 'string', description: 'MIME type (default application/octet-stream)' },
    },
    required: ['content_base64', 'filename'],
    additionalProperties: false,
  };
}
