// Contract: for every generated tool, arguments generated from its inputSchema produce a request
// that validates against the operation's own definition in Gitea's swagger (not our conversion).
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import { isWildcard } from '../../../src/core/request/path-encoding';
import { buildRequest } from '../../../src/core/request/request-builder';
import { ArgumentValidator } from '../../../src/core/validation/argument-validator';
import { HTTP_METHODS, type SwaggerParameter } from '../../../src/core/catalogue/swagger-types';

const spec = loadBundledSpec();
const catalogue = buildCatalogue(spec, { maxBinaryBytes: 1 << 20 });

/** A sample value satisfying a JSON schema (every property filled, so bodies are exercised fully). */
function sample(schema: any, name = '', depth = 0): unknown {
  if (schema.enum) return schema.enum[0];
  if (Array.isArray(schema.examples)) return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return '2026-01-02T03:04:05Z';
      if (schema.format === 'date') return '2026-01-02';
      if (schema.format === 'email') return 'a@example.com';
      return name === 'content_base64' ? 'aGVsbG8=' : 'v';
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [sample(schema.items ?? { type: 'string' }, name, depth + 1)];
    case 'object':
    case undefined: {
      if (!schema.properties || depth > 6) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties)) out[k] = sample(v, k, depth + 1);
      return out;
    }
    default:
      return 'v';
  }
}

const PATH_SAMPLE = 'seg/with slash';

function swaggerAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ['int64', 'int32', 'uint64'])
    ajv.addFormat(f, { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addSchema({ $id: 'swagger', definitions: spec.definitions }, 'swagger');
  return ajv;
}

function rewriteRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/definitions\//g, '"swagger#/definitions/'));
}

describe('every tool produces a request valid against its swagger operation', () => {
  const ajv = swaggerAjv();
  const validator = new ArgumentValidator();
  const ops: Array<[string, string, string]> = [];
  for (const [route, item] of Object.entries(spec.paths))
    for (const m of HTTP_METHODS) if (item[m]) ops.push([item[m]!.operationId, m, route]);

  it('covers all 485 operations', () => expect(ops).toHaveLength(485));

  it.each(ops)('%s', (operationId, method, route) => {
    const op = catalogue.byName.get(operationId)!;
    const params = spec.paths[route]![method as 'get']!.parameters as SwaggerParameter[];
    const args = sample(op.tool.inputSchema) as Record<string, unknown>;
    for (const p of params) if (p.in === 'path' && p.type === 'string' && !p.enum) args[p.name] = PATH_SAMPLE;
    expect(validator.validate(operationId, op.tool.inputSchema, args)).toEqual({ ok: true });

    const req = buildRequest(op, args, { maxBinaryBytes: 1 << 20 });
    expect(req.method).toBe(method.toUpperCase());

    // Path: the template with each parameter's encoded value; decoding gives the argument back.
    const names: string[] = [];
    const pattern = route.replace(/[.]/g, '\\.').replace(/\{([^}]+)\}/g, (_, n: string) => {
      names.push(n);
      return isWildcard(route, n) ? '([^?#]+?)' : '([^/?#]+)';
    });
    const m = new RegExp(`^${pattern}$`).exec(req.path);
    expect(m).not.toBeNull();
    names.forEach((n, i) => {
      const raw = m![i + 1]!;
      const decoded = isWildcard(route, n)
        ? raw.split('/').map(decodeURIComponent).join('/')
        : decodeURIComponent(raw);
      expect(decoded).toBe(String(args[n]));
      if (!isWildcard(route, n)) expect(raw).not.toContain('/');
    });

    // Query: only declared parameters, with values of the declared type.
    for (const [key, value] of req.query) {
      const p = params.find((x) => x.in === 'query' && x.name === key);
      expect(p).toBeDefined();
      const type = p!.type === 'array' ? p!.items?.type : p!.type;
      const allowed = p!.type === 'array' ? (p!.items?.enum as unknown[] | undefined) : p!.enum;
      if (type === 'integer') expect(value).toMatch(/^-?\d+$/);
      if (type === 'boolean') expect(['true', 'false']).toContain(value);
      if (allowed) expect(allowed.map(String)).toContain(value);
    }
    for (const p of params.filter((x) => x.in === 'query' && x.required))
      expect(req.query.map(([k]) => k)).toContain(p.name);

    // Body: validated against the swagger's own schema with its definitions.
    const bodyParam = params.find((p) => p.in === 'body');
    if (bodyParam?.schema) {
      const body = req.body!;
      const value = body.kind === 'json' ? body.value : body.kind === 'text' ? body.value : undefined;
      const validate = ajv.compile(rewriteRefs(bodyParam.schema) as object);
      const ok = validate(value);
      if (!ok) throw new Error(`${operationId} body invalid: ${ajv.errorsText(validate.errors)}`);
    } else if (params.some((p) => p.in === 'formData')) {
      expect(req.body?.kind).toBe('multipart');
      const files = (req.body as { files: Array<{ field: string }> }).files.map((f) => f.field);
      expect(files).toEqual(params.filter((p) => p.type === 'file').map((p) => p.name));
    } else {
      expect(req.body).toBeUndefined();
    }
  });
});
