// Nest injection tokens shared between modules, so that no module imports another's internals.
export const TOOL_SERVICE = Symbol('TOOL_SERVICE'); // core ToolService (src/core/executor)
export const POLICY_PROVIDER = Symbol('POLICY_PROVIDER'); // core PolicyProvider
export const AUDIT_SINK = Symbol('AUDIT_SINK'); // core AuditSink (src/modules/audit)
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY'); // prom-client Registry (src/modules/metrics)
// Adapters own their tokens (infra never imports modules); re-exported here for the modules.
export { LOGGER } from '../infra/logging/logging.tokens'; // pino Logger
export { PRISMA } from '../infra/database/database.tokens'; // connected PrismaClient
export { JOB_QUEUE } from '../infra/queue/queue.tokens'; // JobQueue: BullMQ or in-process
export { GITEA_HTTP, GITEA_TRANSPORT } from '../infra/gitea/gitea.tokens'; // the Gitea HTTP client; the tool transport
export { POLICY_SOURCE, QUOTA_COUNTER } from '../infra/policy/policy.tokens'; // PolicyCache; QuotaCounter (Redis or memory)
export { REDIS_CONNECTIONS } from '../infra/redis/redis.tokens'; // RedisConnections, or null without REDIS_URL
export const GITEA_SIGN_IN = Symbol('GITEA_SIGN_IN'); // core/oauth/gitea-seam GiteaSignIn (src/modules/gitea-oauth)
export const GITEA_GRANT_STORE = Symbol('GITEA_GRANT_STORE'); // core/oauth/gitea-seam GiteaGrantStore (src/modules/gitea-oauth)
export const MCP_GRANT_REVOKER = Symbol('MCP_GRANT_REVOKER'); // core/oauth/gitea-seam McpGrantRevoker (the MCP authorization server)
export const OAUTH_RESOLVER = Symbol('OAUTH_RESOLVER'); // OAuthIdentityResolver, or null when mode oauth is off
export const CPU_TURNS = Symbol('CPU_TURNS'); // core/executor CpuTurns: one turn per loop iteration for the heavy part of a call, shared by /mcp and the executor
export const SPEC_REPORT = Symbol('SPEC_REPORT'); // tools/live-spec SpecReportHolder: the description in use and its differences
