// Policy from the global configuration alone; org policies stored in the database add to it later.
import type { SecretDetectionMode } from '../secrets/detection-mode';
import type { EffectivePolicy, PolicyProvider } from '../ports';

export class GlobalPolicyProvider implements PolicyProvider {
  constructor(private readonly config: { disabledTools: string[]; detectionMode: SecretDetectionMode }) {}

  forOrg(org: string | null): Promise<EffectivePolicy> {
    return Promise.resolve({
      org,
      disabledTools: [...this.config.disabledTools],
      detectionMode: this.config.detectionMode,
    });
  }
}

/** The org of a call: its `owner` or `org` path parameter (user-owned repos get the global policy). */
export function orgOfCall(pathParams: Record<string, unknown>, route: string): string | null {
  for (const name of ['org', 'owner']) {
    const value = pathParams[name];
    if (route.includes(`{${name}}`) && typeof value === 'string' && value) return value;
  }
  return null;
}
