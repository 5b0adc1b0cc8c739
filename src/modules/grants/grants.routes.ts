// The grants routes of /api/admin as the OpenAPI document describes them (admin-openapi.ts adds
// them to ADMIN_ROUTES; test/unit/policy/admin-openapi.test.ts checks them against the controller).
import type { AdminRoute } from '../policy/admin-openapi';
import * as G from './grants.schemas';

const idParam = {
  name: 'id',
  in: 'path' as const,
  required: true,
  schema: { type: 'string' },
  description: 'A connection id as listed (gitea:<id> or mcp:<id>), URL-encoded',
};

export const GRANT_ROUTES: AdminRoute[] = [
  {
    method: 'get',
    path: '/api/admin/connections',
    operationId: 'listMyConnections',
    summary: "The caller's own connections: their Gitea grant and the MCP clients they authorised",
    auth: true,
    response: G.ConnectionList,
    errors: [401, 503],
  },
  {
    method: 'post',
    path: '/api/admin/connections/{id}/revoke',
    operationId: 'revokeMyConnection',
    summary: "Revoke one of the caller's own connections",
    description:
      "Revoking the Gitea grant also revokes every MCP client grant that rests on it and ends the person's console sessions. Another person's id answers 404.",
    auth: true,
    parameters: [idParam],
    body: G.RevokeRequest,
    response: G.RevokeResult,
    errors: [400, 401, 403, 404, 503],
  },
  {
    method: 'post',
    path: '/api/admin/connections/revoke-all',
    operationId: 'revokeAllMyConnections',
    summary: 'Revoke every connection of the caller (and so sign them out)',
    auth: true,
    body: G.RevokeRequest,
    response: G.RevokeResult,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/grants',
    operationId: 'listGrants',
    summary: 'Every grant (site admins), with filters',
    auth: true,
    parameters: [
      {
        name: 'login',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: 'Only this login',
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['active', 'revoked', 'all'], default: 'active' },
        description: 'Active (default), revoked, or all',
      },
      {
        name: 'kind',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['gitea', 'mcp_client'] },
        description: 'Only this kind',
      },
    ],
    response: G.GrantList,
    errors: [400, 401, 403, 503],
  },
  {
    method: 'post',
    path: '/api/admin/grants/{id}/revoke',
    operationId: 'revokeGrant',
    summary: "Revoke anyone's grant (site admins)",
    auth: true,
    parameters: [idParam],
    body: G.RevokeRequest,
    response: G.RevokeResult,
    errors: [400, 401, 403, 404, 503],
  },
];
