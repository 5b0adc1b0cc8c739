// The meta-tools of discovery mode: a few hundred tokens instead of the whole catalogue.
import type { McpToolDefinition } from './tool-definition';

export const SEARCH_TOOL_NAME = 'gitea_search_tools';
export const DESCRIBE_TOOL_NAME = 'gitea_describe_tool';
export const CALL_TOOL_NAME = 'gitea_call_tool';

// Policy applies per call; with the org an agent will act in, search flags and describe explains
// what that org's policy refuses (issue 14).
const ORG_PROPERTY = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'the organization you will act in: tools its policy disables are flagged',
} as const;

export function discoveryToolDefinitions(): McpToolDefinition[] {
  return [
    {
      name: SEARCH_TOOL_NAME,
      title: 'Search Gitea tools',
      description:
        'Find the Gitea API tools for a task described in plain words (e.g. "list my pull requests", "close an issue", "add a CI variable"). Returns tool names with method and path.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, description: 'the task in your own words' },
          limit: { type: 'integer', minimum: 1, maximum: 25, default: 8 },
          org: ORG_PROPERTY,
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOL_NAME,
      title: 'Describe a Gitea tool',
      description: 'Full description and input JSON schema of one Gitea tool found with gitea_search_tools.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, org: ORG_PROPERTY },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL_NAME,
      title: 'Call a Gitea tool',
      description:
        'Call a Gitea tool by name with arguments matching its input schema (see gitea_describe_tool). Same checks and result as calling the tool directly.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          arguments: { type: 'object', description: 'the tool arguments' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
  ];
}
