// One MCP tool per Gitea operationId, plus the raw tool. Built once from the loaded spec.
import type { JsonObject, JsonValue, McpToolDefinition } from './tool-definition';
import { routeKey } from '../policy/call-policy';
import { inlineSchema, parameterSchema, uploadSchema } from './schema-convert.util';
import { HTTP_METHODS, type SwaggerParameter, type SwaggerSpec } from './swagger-types';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type OperationParam = {
  name: string;
  in: 'path' | 'query' | 'formData';
  required: boolean;
  type?: string;
  collectionFormat?: string;
  file: boolean;
};

/** Everything the call path needs to know about one Gitea operation. */
export type CatalogueOperation = {
  operationId: string;
  method: HttpMethod;
  /** Route template relative to /api/v1, e.g. /repos/{owner}/{repo}/branches/{branch}. */
  route: string;
  tags: string[];
  summary: string;
  description: string;
  params: OperationParam[];
  /** The request body parameter, exposed to callers as the `body` property. */
  body: { required: boolean; schema: JsonObject; contentType: 'json' | 'text' } | null;
  multipart: boolean;
  produces: string[];
  /** Lower-cased response header names that a 2xx response declares (e.g. the runner registration token). */
  responseHeaders: string[];
  /** True when the 2xx response schema is an array (a list endpoint). */
  listResult: boolean;
  /**
   * The name the reference description (the bundled one) gives this method and route, when this
   * description names the operation differently: policy rules written for that name still apply.
   */
  referenceName?: string;
  /**
   * When the 2xx response is an object that wraps the list (search results, workflow runs, trees,
   * combined status...): the property holding it, read off the response schema (its only array).
   */
  listField: string | null;
  /** The wrapper's own total counter (an integer `total_count` or `count` beside the list). */
  countField: string | null;
  /** The query parameters that page the result (`limit` is `per_page` on a few routes), or null. */
  paging: { page: string | null; limit: string | null } | null;
  tool: McpToolDefinition;
};

export type ToolCatalogue = {
  operations: CatalogueOperation[];
  byName: Map<string, CatalogueOperation>;
  specVersion: string;
};

export const RAW_TOOL_NAME = 'gitea_api_request';

export type CatalogueOptions = {
  maxBinaryBytes: number;
  /** routeKey → operationId of a reference description (see CatalogueOperation.referenceName). */
  referenceNames?: ReadonlyMap<string, string>;
};

/** routeKey ("DELETE /repos/{}/{}") → operationId of every operation of a description. */
export function operationNamesByRoute(spec: Pick<SwaggerSpec, 'paths'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [route, item] of Object.entries(spec.paths ?? {})) {
    for (const lower of HTTP_METHODS) {
      const id = (item?.[lower] as { operationId?: unknown } | undefined)?.operationId;
      if (typeof id === 'string') names.set(routeKey(lower, route), id);
    }
  }
  return names;
}

export function buildCatalogue(spec: SwaggerSpec, options: CatalogueOptions): ToolCatalogue {
  const operations: CatalogueOperation[] = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const lower of HTTP_METHODS) {
      const op = item[lower];
      if (!op) continue;
      const method = lower.toUpperCase() as HttpMethod;
      const parameters = (op.parameters ?? []) as SwaggerParameter[];
      const properties: JsonObject = {};
      const required: string[] = [];
      const params: OperationParam[] = [];
      let body: CatalogueOperation['body'] = null;
      for (const p of parameters) {
        if (p.in === 'header') continue;
        if (p.in === 'body') {
          const schema = p.schema ? inlineSchema(spec, p.schema) : { type: 'object' };
          const consumes = op.consumes ?? spec.consumes ?? ['application/json'];
          body = {
            required: !!p.required,
            schema,
            contentType: consumes[0] === 'text/plain' ? 'text' : 'json',
          };
          properties.body = { ...schema, description: withPrefix('request body', schema.description) };
          if (p.required) required.push('body');
          continue;
        }
        const file = p.in === 'formData' && p.type === 'file';
        params.push({
          name: p.name,
          in: p.in as OperationParam['in'],
          required: p.in === 'path' || !!p.required,
          type: p.type,
          collectionFormat: p.collectionFormat,
          file,
        });
        properties[p.name] = file ? uploadSchema(p, options.maxBinaryBytes) : parameterSchema(spec, p);
        if (p.in === 'path') {
          const s = properties[p.name] as JsonObject;
          if (s.type === 'string') s.minLength = 1;
        }
        if (p.in === 'path' || p.required) required.push(p.name);
      }
      const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2\d\d$/.test(code));
      const responseHeaders = [
        ...new Set(success.flatMap(([, r]) => Object.keys(r.headers ?? {}).map((h) => h.toLowerCase()))),
      ];
      const listResult = success.some(([, r]) => {
        const s = r.schema;
        if (!s) return false;
        if (s.type === 'array') return true;
        if (typeof s.$ref === 'string')
          return (spec.definitions?.[s.$ref.split('/').pop() ?? '']?.type ?? '') === 'array';
        return false;
      });
      const wrapped = listResult ? null : wrappedList(spec, success);
      const queryNames = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
      const pageParam = queryNames.has('page') ? 'page' : null;
      const limitParam = queryNames.has('limit') ? 'limit' : queryNames.has('per_page') ? 'per_page' : null;
      if (BYTE_RANGE_OPERATIONS.has(op.operationId)) properties[BYTE_RANGE_ARG] = byteRangeSchema();
      const inputSchema: JsonObject = { type: 'object', properties, additionalProperties: false };
      if (required.length) inputSchema.required = required;
      const summary = (op.summary ?? '').trim();
      const description = (op.description ?? '').trim();
      const tool: McpToolDefinition = {
        name: op.operationId,
        title: summary || op.operationId,
        description: [
          summary,
          description && description !== summary ? description : '',
          `${method} ${route}`,
        ]
          .filter(Boolean)
          .join('\n'),
        inputSchema,
        annotations: annotationsFor(method),
      };
      const referenceName = options.referenceNames?.get(routeKey(method, route));
      operations.push({
        operationId: op.operationId,
        method,
        route,
        ...(referenceName && referenceName !== op.operationId ? { referenceName } : {}),
        tags: op.tags ?? [],
        summary,
        description,
        params,
        body,
        multipart: params.some((p) => p.in === 'formData'),
        produces: op.produces ?? spec.produces ?? ['application/json'],
        responseHeaders,
        listResult,
        listField: wrapped?.field ?? null,
        countField: wrapped?.counter ?? null,
        paging: pageParam || limitParam ? { page: pageParam, limit: limitParam } : null,
        tool,
      });
    }
  }
  // Inlined $refs give every tool its own deep copy of the same definitions; share one object per
  // distinct sub-schema instead. Done after building because the builder mutates fresh schemas.
  const interner = new SchemaInterner();
  for (const op of operations) {
    op.tool.inputSchema = interner.intern(op.tool.inputSchema) as JsonObject;
    if (op.body) op.body.schema = interner.intern(op.body.schema) as JsonObject;
  }
  return {
    operations,
    byName: new Map(operations.map((o) => [o.operationId, o])),
    specVersion: spec.info?.version ?? 'unknown',
  };
}

const COUNTER_NAMES = ['total_count', 'count'];

/** The schema behind a $ref (definitions only), or the schema itself. */
function resolvedSchema(spec: SwaggerSpec, schema: unknown): Record<string, unknown> | null {
  let s = schema as Record<string, unknown> | undefined;
  for (let i = 0; i < 8 && s && typeof s.$ref === 'string'; i++)
    s = spec.definitions?.[s.$ref.split('/').pop() ?? ''] as Record<string, unknown> | undefined;
  return s && typeof s === 'object' ? s : null;
}

/** An object response with exactly one array property: that property, and its integer counter. */
function wrappedList(
  spec: SwaggerSpec,
  success: Array<[string, { schema?: unknown }]>,
): { field: string; counter: string | null } | null {
  for (const [, response] of success) {
    const schema = resolvedSchema(spec, response.schema);
    const props = schema?.properties as Record<string, unknown> | undefined;
    if (!props || typeof props !== 'object') continue;
    const arrays = Object.keys(props).filter((k) => resolvedSchema(spec, props[k])?.type === 'array');
    if (arrays.length !== 1) continue;
    const counter =
      COUNTER_NAMES.find((k) => {
        const t = resolvedSchema(spec, props[k])?.type;
        return t === 'integer' || t === 'number';
      }) ?? null;
    return { field: arrays[0]!, counter };
  }
  return null;
}

/**
 * Canonical instances of structurally equal sub-trees. A node's key is made of its children's ids
 * (every distinct value, primitive or not, gets a small number), so each node is keyed in time
 * proportional to its own width: stringifying every subtree at every level was most of the build.
 */
class SchemaInterner {
  private readonly nodes = new Map<string, JsonValue>();
  private readonly nodeIds = new Map<JsonValue, number>();
  private readonly strings = new Map<string, number>();
  private last: JsonValue = null;

  intern(value: JsonValue): JsonValue {
    this.visit(value);
    return this.last;
  }

  /** The key of value's canonical instance; leaves the instance in `last`. */
  private visit(value: JsonValue): string {
    if (value === null || typeof value !== 'object') {
      this.last = value;
      if (typeof value !== 'string') return String(value);
      let id = this.strings.get(value);
      if (id === undefined) this.strings.set(value, (id = this.strings.size));
      return `s${id}`;
    }
    let key: string;
    let copy: JsonValue;
    if (Array.isArray(value)) {
      const items: JsonValue[] = [];
      key = '[';
      for (const v of value) {
        key += `${this.visit(v)},`;
        items.push(this.last);
      }
      copy = items;
    } else {
      const obj: JsonObject = {};
      key = '{';
      for (const k in value) {
        key += `${this.visit(k)}:${this.visit(value[k]!)},`;
        obj[k] = this.last;
      }
      copy = obj;
    }
    const found = this.nodes.get(key);
    if (found !== undefined) {
      this.last = found;
      return `o${this.nodeIds.get(found)}`;
    }
    const id = this.nodes.size;
    this.nodes.set(key, copy);
    this.nodeIds.set(copy, id);
    this.last = copy;
    return `o${id}`;
  }
}

function withPrefix(prefix: string, text: unknown): string {
  return typeof text === 'string' && text ? `${prefix}: ${text}` : prefix;
}

export function annotationsFor(method: HttpMethod): NonNullable<McpToolDefinition['annotations']> {
  if (method === 'GET') return { readOnlyHint: true, idempotentHint: true, openWorldHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: method === 'DELETE',
    idempotentHint: method === 'PUT' || method === 'DELETE',
    openWorldHint: true,
  };
}

export function rawToolDefinition(): McpToolDefinition {
  return {
    name: RAW_TOOL_NAME,
    title: 'Call any Gitea API path',
    description:
      'Send a request to any Gitea REST API operation (path relative to /api/v1, e.g. /repos/{owner}/{repo}/issues). ' +
      'The path must be a plain absolute path without %, "." or ".." segments, query string or host; put query parameters in `query`. ' +
      'Values containing "/" for single-segment parameters (such as a release tag rel/1.0) need the generated tool for that operation.',
    inputSchema: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        path: {
          type: 'string',
          minLength: 1,
          maxLength: 2048,
          description: 'absolute path relative to /api/v1',
        },
        query: {
          type: 'object',
          description: 'query parameters; arrays are sent as repeated parameters',
          additionalProperties: {
            anyOf: [
              { type: 'string' },
              { type: 'number' },
              { type: 'boolean' },
              { type: 'array', items: { type: ['string', 'number', 'boolean'] } },
            ],
          },
        },
        body: { description: 'JSON request body' },
      },
      required: ['method', 'path'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  };
}

/**
 * Operations that serve a file or a diff as it is: Gitea answers HTTP Range requests on them, so
 * a body cut at MAX_TEXT_BODY_BYTES can be read on in slices (issue 12). The argument is ours, not
 * the swagger's: it becomes a `Range: bytes=...` header.
 */
export const BYTE_RANGE_OPERATIONS: ReadonlySet<string> = new Set([
  'repoGetRawFile',
  'repoGetRawFileOrLFS',
  'repoDownloadCommitDiffOrPatch',
  'repoDownloadPullDiffOrPatch',
  // Gitea serves a job's log with http.ServeContent, which honours Range.
  'downloadActionsRunJobLogs',
]);
export const BYTE_RANGE_ARG = 'byte_range';

function byteRangeSchema(): JsonObject {
  return {
    type: 'string',
    pattern: '^[0-9]{1,15}-[0-9]{0,15}$',
    examples: ['400000-799999'],
    description:
      'Only these bytes of the file, "start-end" (0-based, end included, "start-" reads to the end), sent as an HTTP Range header. For files larger than the service reads in one call (the result says so in body_cut).',
  };
}
