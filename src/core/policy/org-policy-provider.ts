// PolicyProvider over stored org policies: the floor from the environment merged with the org's
// row, read through a source that caches and propagates changes (src/infra/policy).
import type { EffectivePolicy, PolicyProvider } from '../ports';
import { normalizeOrg, resolveEffectivePolicy, type GlobalFloor, type OrgPolicy } from './org-policy';

export interface OrgPolicySource {
  /** The stored policy of `org` (lower-cased), or null when the org never set one. */
  get(org: string): Promise<OrgPolicy | null>;
}

export class OrgPolicyProvider implements PolicyProvider {
  constructor(
    private readonly floor: GlobalFloor,
    private readonly source: OrgPolicySource,
  ) {}

  async forOrg(org: string | null): Promise<EffectivePolicy> {
    if (org === null) return resolveEffectivePolicy(this.floor, null, null);
    const key = normalizeOrg(org);
    return resolveEffectivePolicy(this.floor, org, await this.source.get(key));
  }
}
