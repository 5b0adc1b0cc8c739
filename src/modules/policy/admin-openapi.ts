// The OpenAPI 3.1 document of /api/admin, served at /api/admin/openapi.json: the contract the
// console's client is generated from. Schemas come from admin-api.schemas.ts (the same zod
// definitions that validate requests); test/unit/policy/admin-openapi.test.ts checks that every
// route the controller serves is described here.
import { z } from 'zod';
import * as S from './admin-api.schemas';
import { GRANT_ROUTES } from '../grants/grants.routes';

export type AdminRoute = {
  method: 'get' | 'put' | 'post';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  auth: boolean;
  parameters?: Array<{
    name: string;
    in: 'path' | 'query';
    required: boolean;
    schema: object;
    description: string;
  }>;
  body?: z.ZodType;
  response?: z.ZodType;
  /** A 200 that is not JSON (exports): media type -> schema. */
  produces?: Record<string, object>;
  errors: number[];
};

const q = (name: string, description: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'query' as const,
  required: false,
  schema,
  description,
});

const AUDIT_FILTERS = [
  q('from', 'Records at or after this time (ISO 8601)', { type: 'string', format: 'date-time' }),
  q('to', 'Records before this time (ISO 8601)', { type: 'string', format: 'date-time' }),
  q('login', 'Only this login'),
  q('org', 'Only this org (required for org owners, who see only orgs they own)'),
  q('repo', 'Only this repository name'),
  q('tool', 'Only this tool'),
  q('kind', 'Only this error kind; "ok" selects successful calls'),
  q('order', 'desc (newest first, default) or asc', { type: 'string', enum: ['desc', 'asc'] }),
];

const orgParam = {
  name: 'org',
  in: 'path' as const,
  required: true,
  schema: { type: 'string' },
  description: 'Organization name (case-insensitive)',
};

type Route = AdminRoute;

export const ADMIN_ROUTES: Route[] = [
  {
    method: 'get',
    path: '/api/admin/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    auth: false,
    errors: [],
  },
  {
    method: 'get',
    path: '/api/admin/me',
    operationId: 'getMe',
    summary: 'Who the credential belongs to',
    auth: true,
    response: S.Me,
    errors: [401, 503],
  },
  {
    method: 'get',
    path: '/api/admin/orgs',
    operationId: 'listOrgs',
    summary: 'Organizations the caller may manage',
    description:
      'Site admins: every org with a stored policy and every org Gitea shows them (or the service account, for ADMIN_TOKEN). Org owners: the orgs whose Owners team they are in.',
    auth: true,
    response: S.OrgList,
    errors: [401, 503],
  },
  {
    method: 'get',
    path: '/api/admin/orgs/{org}/policy',
    operationId: 'getOrgPolicy',
    summary: "An org's policy, its effective policy and the global floor",
    auth: true,
    parameters: [orgParam],
    response: S.PolicyView,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'put',
    path: '/api/admin/orgs/{org}/policy',
    operationId: 'putOrgPolicy',
    summary: "Change an org's policy (absent fields keep their value)",
    description:
      'Applies to the next call in every replica within a second. A tool name or glob that matches no operation, and an unknown field, are a 400. Every change is kept in the history and written to the audit trail; a refused attempt (400, 403) is written to the audit trail too.',
    auth: true,
    parameters: [orgParam],
    body: S.PolicyPut,
    response: S.PolicyView,
    errors: [400, 401, 403, 413, 503],
  },
  {
    method: 'get',
    path: '/api/admin/orgs/{org}/policy/history',
    operationId: 'getOrgPolicyHistory',
    summary: "Changes of an org's policy, newest first",
    auth: true,
    parameters: [
      orgParam,
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
        description: 'Changes per page',
      },
      {
        name: 'before',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'next_before of the previous page',
      },
    ],
    response: S.PolicyHistory,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'post',
    path: '/api/admin/policy/simulate',
    operationId: 'simulatePolicy',
    summary: 'What a call would meet, and why, without making it',
    description:
      'Uses the same decision as /mcp (global floor, org rules, quotas as counted now) for a person, an org and a tool.',
    auth: true,
    body: S.SimulateRequest,
    response: S.SimulateResult,
    errors: [400, 401, 403, 413, 503],
  },
  {
    method: 'get',
    path: '/api/admin/settings',
    operationId: 'getSettings',
    summary: 'The global configuration (read-only; secrets never shown)',
    description: 'Site admins only.',
    auth: true,
    response: S.Settings,
    errors: [401, 403],
  },
  {
    method: 'get',
    path: '/api/admin/catalogue',
    operationId: 'getCatalogue',
    summary: 'Every tool with its toolset, read/write, and where it is disabled and why',
    auth: true,
    parameters: [
      {
        name: 'org',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'Only this org in disabled_in (org owners see only orgs they own)',
      },
    ],
    response: S.Catalogue,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/audit',
    operationId: 'queryAudit',
    summary: 'Audit records matching filters, newest first, in cursor pages',
    auth: true,
    parameters: [
      ...AUDIT_FILTERS,
      q('limit', 'Records per page', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
      q('cursor', 'next_cursor of the previous page'),
    ],
    response: S.AuditPage,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/audit/export',
    operationId: 'exportAudit',
    summary: 'Every matching audit record as CSV or JSON Lines (streamed download)',
    auth: true,
    parameters: [
      ...AUDIT_FILTERS,
      q('format', 'jsonl (default) or csv', { type: 'string', enum: ['jsonl', 'csv'] }),
    ],
    produces: {
      'application/x-ndjson': {
        type: 'string',
        description: 'One audit record object (as in queryAudit) per line',
      },
      'text/csv': {
        type: 'string',
        description: 'A header row, then one record per row; formula-like cells are quoted',
      },
    },
    errors: [400, 401, 403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/audit/stats',
    operationId: 'auditStats',
    summary: 'Counts of audit records by outcome, tool, org and day (default: the last 30 days)',
    auth: true,
    parameters: [AUDIT_FILTERS[0]!, AUDIT_FILTERS[1]!, AUDIT_FILTERS[3]!],
    response: S.AuditStats,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/audit/verify',
    operationId: 'verifyAudit',
    summary: 'Checks the audit hash chain (site admins)',
    auth: true,
    response: S.AuditVerify,
    errors: [401, 403, 503],
  },
  // What people granted (the console's Connections page): src/modules/grants.
  ...GRANT_ROUTES,
];

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: unknown field, bad value, or a tool name/glob that matches no operation',
  401: 'No or wrong credentials',
  403: 'The caller may not manage this org (or needs to be a site admin)',
  404: 'No such grant (or not one of yours)',
  413: 'Body too large',
  503: 'Gitea or the database could not answer',
};

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

let built: Record<string, unknown> | null = null;

export function adminOpenApiDocument(): Record<string, unknown> {
  if (built) return built;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ADMIN_ROUTES) {
    const ok = route.produces
      ? Object.fromEntries(Object.entries(route.produces).map(([type, schema]) => [type, { schema }]))
      : { 'application/json': { schema: route.response ? jsonSchema(route.response) : { type: 'object' } } };
    const responses: Record<string, unknown> = { '200': { description: 'OK', content: ok } };
    for (const status of route.errors) {
      responses[String(status)] = {
        description: ERROR_TEXT[status],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.parameters ? { parameters: route.parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body) } },
            },
          }
        : {}),
      responses,
      security: route.auth ? [{ bearer: [] }] : [],
    };
    (paths[route.path] ??= {})[route.method] = operation;
  }
  built = {
    openapi: '3.1.0',
    info: {
      title: 'AegisGitea-MCP admin API',
      version: '1',
      description:
        "Org policies (disabled tools, secret detection mode, read-only, repository allow-list, quotas), their history and simulation, the global settings and the tool catalogue. Authenticate with Authorization: Bearer <ADMIN_TOKEN> (site admin) or a person's access token of this service.",
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(S.ErrorResponse) },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
  return built;
}

/** The response schema of one route (tests validate live answers against it). */
export function responseSchemaOf(
  method: string,
  path: string,
  status: number,
): Record<string, unknown> | null {
  const doc = adminOpenApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };
  const response = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)] as
    { content: { 'application/json': { schema: Record<string, unknown> } } } | undefined;
  const schema = response?.content['application/json'].schema;
  if (!schema) return null;
  return schema.$ref === '#/components/schemas/Error'
    ? (doc.components.schemas.Error as Record<string, unknown>)
    : schema;
}
