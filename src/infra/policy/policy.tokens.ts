// Injection tokens of the policy adapters (src/infra/policy).
export const ORG_POLICY_REPOSITORY = Symbol('ORG_POLICY_REPOSITORY'); // OrgPolicyRepository: stored org policies
export const POLICY_SOURCE = Symbol('POLICY_SOURCE'); // PolicyCache over stored org policies
export const QUOTA_COUNTER = Symbol('QUOTA_COUNTER'); // core QuotaCounter: RedisQuotaCounter, or memory without Redis
