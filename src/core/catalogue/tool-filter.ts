// Global tool filtering of catalogue operations; the decision itself is core/policy's.
import {
  decideGlobal,
  globToRegExp,
  matchesAny,
  matchSubject,
  type GlobalRules,
  type PolicySubject,
} from '../policy/call-policy';
import type { CatalogueOperation } from './tool-catalogue';

export { globToRegExp, matchesAny };

/** Whether a DISABLED_TOOLS / disabled_tools pattern names at least one of these operations. */
export function patternReachesAny(pattern: string, operations: readonly CatalogueOperation[]): boolean {
  return operations.some((op) => matchSubject(operationSubject(op), [pattern]) !== null);
}

export type FilterConfig = GlobalRules;

export type Refusal = { kind: 'tool_disabled' | 'read_only'; message: string };

export function operationSubject(op: CatalogueOperation): PolicySubject {
  return {
    kind: 'operation',
    name: op.operationId,
    method: op.method,
    route: op.route,
    tags: op.tags,
    ...(op.referenceName ? { referenceName: op.referenceName } : {}),
  };
}

/** Why the global configuration refuses this operation, or null when it is allowed. */
export function globalRefusal(op: CatalogueOperation, config: FilterConfig): Refusal | null {
  const decision = decideGlobal(operationSubject(op), config);
  return decision.allowed ? null : { kind: decision.kind, message: decision.message };
}
