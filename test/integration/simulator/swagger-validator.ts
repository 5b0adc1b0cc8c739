// Validates simulator responses against the response schemas of Gitea's swagger with ajv.
// go-swagger's spec has no `x-nullable`, yet Gitea's JSON encoder writes nil pointers, nil
// slices and nil maps as null: object, array and $ref properties (and *time.Time fields) are
// therefore allowed to be null. Everything else is checked as the swagger declares it.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { loadSwagger, type Swagger } from '../../simulator/router';

type Schema = Record<string, any>;

/** Go pointer fields (*string, *int64) that the swagger types as plain scalars; Gitea writes null for nil. */
const POINTER_FIELDS: Record<string, string[]> = {
  ContentsResponse: [
    'encoding',
    'content',
    'target',
    'download_url',
    'submodule_git_url',
    'lfs_oid',
    'lfs_size',
  ],
  PullRequest: ['merge_commit_sha'],
};

function nullable(p: Schema): Schema {
  if (p.$ref) return { anyOf: [{ $ref: p.$ref }, { type: 'null' }] };
  if (p.type === 'object' || p.type === 'array' || (p.type === 'string' && p.format === 'date-time'))
    return { ...p, type: [p.type, 'null'] };
  return p;
}

function transform(node: any): any {
  if (Array.isArray(node)) return node.map(transform);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/definitions/', 'gitea#/definitions/');
    else if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v as Schema).map(([name, p]) => [name, nullable(transform(p))]),
      );
    } else out[k] = transform(v);
  }
  return out;
}

export class SwaggerValidator {
  readonly swagger: Swagger = loadSwagger();
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    for (const f of ['int64', 'int32', 'uint64', 'float', 'double', 'binary', 'byte'])
      this.ajv.addFormat(f, true);
    const defs = transform(this.swagger.definitions) as Record<string, Schema>;
    for (const [def, fields] of Object.entries(POINTER_FIELDS)) {
      for (const f of fields) {
        const prop = defs[def]?.properties?.[f];
        if (prop?.type && !Array.isArray(prop.type)) prop.type = [prop.type, 'null'];
      }
    }
    this.ajv.addSchema({ $id: 'gitea', definitions: defs });
  }

  operation(operationId: string): { method: string; path: string; op: any } {
    for (const [path, ops] of Object.entries(this.swagger.paths))
      for (const [method, op] of Object.entries(ops))
        if ((op as any).operationId === operationId) return { method, path, op };
    throw new Error(`unknown operation ${operationId}`);
  }

  /** The declared response for a status: {schema?, headers?}, or undefined if not declared. */
  declared(operationId: string, status: number): { schema?: Schema; headers?: Schema } | undefined {
    const { op } = this.operation(operationId);
    const r = op.responses[String(status)] ?? op.responses.default;
    if (!r) return undefined;
    if (r.$ref) return this.swagger.responses[r.$ref.split('/').pop()!] as any;
    return r;
  }

  /** Returns a list of error strings (empty when the body matches the schema). */
  validate(schema: Schema, body: unknown): string[] {
    const key = JSON.stringify(schema);
    let fn = this.cache.get(key);
    if (!fn) {
      fn = this.ajv.compile(transform(schema));
      this.cache.set(key, fn);
    }
    return fn(body)
      ? []
      : (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
