// The admin API's shapes for what people granted (issue 15's Connections page): a person's own
// connections and, for site admins, every grant. Two kinds: the Gitea grant this service holds
// for the person (sign-in through Gitea; their encrypted Gitea tokens) and, once the MCP
// authorization server is on, each MCP client the person authorised. Tokens are never part of it.
import { z } from 'zod';

/** `<kind>:<id>`: one id space over both kinds, safe in a path segment once URL-encoded. */
export const ConnectionId = z
  .string()
  .regex(/^(gitea|mcp):[A-Za-z0-9_-]{1,100}$/, 'a connection id as listed (gitea:... or mcp:...)');

export const Connection = z.strictObject({
  id: z.string().describe('gitea:<grant id> or mcp:<grant id>; use it to revoke'),
  kind: z
    .enum(['gitea', 'mcp_client'])
    .describe("gitea: this service's Gitea grant for the person; mcp_client: an MCP client they authorised"),
  client_name: z.string().describe('Who holds the access (the MCP client, or this service for Gitea)'),
  scope: z.array(z.string()).describe('Gitea scopes, or the MCP scopes granted to the client'),
  access: z.enum(['read', 'write']).nullable(),
  status: z.enum(['active', 'revoked']),
  created_at: z.string().describe('When it was granted'),
  first_used_at: z
    .string()
    .nullable()
    .describe('When a call first used it (set once, never overwritten); null: never used'),
  last_used_at: z.string().nullable().describe('When a call last used it (recorded at most once a minute)'),
  revoked_at: z.string().nullable(),
  revoked_reason: z.string().nullable(),
});

export const ConnectionList = z.strictObject({
  login: z.string().describe('Whose connections these are'),
  connections: z.array(Connection),
  notes: z.array(z.string()).describe('What is not listed, and why'),
});

export const GrantEntry = Connection.extend({ login: z.string() });

export const GrantList = z.strictObject({
  grants: z.array(GrantEntry),
  notes: z.array(z.string()),
});

export const RevokeRequest = z.strictObject({}).describe('No fields: the id is in the path');

export const RevokeResult = z.strictObject({
  revoked: z.number().int().describe('How many grants this ended (0: it was already revoked)'),
  signed_out: z
    .boolean()
    .describe("true when the Gitea grant ended, which also ends the person's console sessions"),
});

export const GrantFilters = z.strictObject({
  login: z.string().min(1).max(100).optional(),
  status: z.enum(['active', 'revoked', 'all']).optional(),
  kind: z.enum(['gitea', 'mcp_client']).optional(),
});
