// Global tool filtering of catalogue operations; the decision itself is core/policy's.
import {
  decideGlobal,
  globToRegExp,
  matchesAny,
  type GlobalRules,
  type PolicySubject,
} from '../policy/call-policy';
import type { CatalogueOperation } from './tool-catalogue';

export { globToRegExp, matchesAny };

export type FilterConfig = GlobalRules;

export type Refusal = { kind: 'tool_disabled' | 'read_only'; message: string };

export function operationSubject(op: CatalogueOperation): PolicySubject {
  return { kind: 'operation', name: op.operationId, method: op.method, tags: op.tags };
}

/** Why the global configuration refuses this operation, or null when it is allowed. */
export function globalRefusal(op: CatalogueOperation, config: FilterConfig): Refusal | null {
  const decision = decideGlobal(operationSubject(op), config);
  return decision.allowed ? null : { kind: decision.kind, message: decision.message };
}
