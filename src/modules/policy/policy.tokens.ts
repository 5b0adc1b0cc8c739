// Injection tokens of the policy module (other modules use ADMIN_AUTH_REGISTRY to add authenticators).
// The adapters' tokens (ORG_POLICY_REPOSITORY, POLICY_SOURCE, QUOTA_COUNTER) live in src/infra/policy.
export const ADMIN_AUTH_REGISTRY = Symbol('ADMIN_AUTH_REGISTRY'); // AdminAuthRegistry
export const ORG_OWNERSHIP = Symbol('ORG_OWNERSHIP'); // OrgOwnership (Owners-team check, cached)
export const ADMIN_POLICY_SERVICE = Symbol('ADMIN_POLICY_SERVICE'); // AdminPolicyService
export const ADMIN_AUDIT_SERVICE = Symbol('ADMIN_AUDIT_SERVICE'); // AdminAuditService
