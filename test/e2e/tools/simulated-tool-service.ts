// What the ToolService e2e suites share: the tools configuration they start from (full
// catalogue, nothing disabled, a small MAX_BINARY_BYTES so the binary limit is easy to cross),
// one Gitea simulator with the real undici transport per suite, and a service built over them.
import type { AppConfig } from '../../../src/config/app-config';
import type { ToolCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import { createToolService } from '../../../src/core/executor/tool-executor';
import { GlobalPolicyProvider } from '../../../src/core/policy/global-policy';
import type { AuditEntry, CallIdentity, GiteaTransport } from '../../../src/core/ports';
import type { SecretDetectionMode } from '../../../src/core/secrets/detection-mode';
import { UndiciGiteaTransport } from '../../../src/infra/gitea/undici-gitea-transport';
import { resolveResultScrubber } from '../../../src/modules/tools/result-scrubber.provider';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';
import { testToolSettings } from '../../../src/core/testing/tool-service-fixture';

export const E2E_TOOLS_CONFIG: AppConfig['tools'] = testToolSettings({
  maxResponseItems: 100,
  maxResponseChars: 200_000,
  maxBinaryBytes: 4096,
});

export type SimulatedGitea = {
  sim: GiteaSimulator;
  transport: UndiciGiteaTransport;
  /** The simulator's alice, calling with her own Gitea token. */
  alice: CallIdentity;
};

/**
 * Starts the simulator and the transport before the suite's tests and closes both after them.
 * The returned object is filled in by `beforeAll`, so read its fields inside tests and hooks.
 */
export function useSimulatedGitea(): SimulatedGitea {
  const gitea = {} as SimulatedGitea;
  beforeAll(async () => {
    gitea.sim = await startGiteaSimulator({ host: '127.0.0.1', port: 0 });
    gitea.transport = new UndiciGiteaTransport({ baseUrl: gitea.sim.url });
    gitea.alice = {
      login: 'alice',
      mode: 'oauth',
      sudo: null,
      token: gitea.sim.tokens.alice,
      isSiteAdmin: false,
      subject: 'oauth:alice',
    };
  });
  afterAll(async () => {
    await gitea.transport?.close();
    await gitea.sim?.close();
  });
  return gitea;
}

export type SimulatedServiceOptions = {
  catalogue: ToolCatalogue;
  transport: GiteaTransport;
  audits: AuditEntry[];
  tools?: Partial<AppConfig['tools']>;
  mode?: SecretDetectionMode;
  exactSecrets?: string[];
  /** Extra scrubber settings (encryption keys for the masking of known values). */
  secrets?: Partial<AppConfig['secrets']>;
  timeoutMs?: number;
  cursorSecret?: string;
};

/** A ToolService over the simulator, with the real result scrubber and a recording audit sink. */
export function simulatedToolService(options: SimulatedServiceOptions) {
  const mode = options.mode ?? 'mask';
  const tools = { ...E2E_TOOLS_CONFIG, ...options.tools };
  return createToolService(
    options.catalogue,
    {
      tools,
      secrets: { detectionMode: mode },
      exactSecrets: options.exactSecrets ?? [],
      timeoutMs: options.timeoutMs ?? 5000,
      ...(options.cursorSecret !== undefined ? { cursorSecret: options.cursorSecret } : {}),
    },
    {
      transport: options.transport,
      policy: new GlobalPolicyProvider({ disabledTools: tools.disabledTools, detectionMode: mode }),
      audit: { record: (entry) => options.audits.push(entry) },
      clock: { now: () => Date.now() },
      scrubber: resolveResultScrubber(
        options.secrets !== undefined
          ? {
              secrets: {
                detectionMode: mode,
                encryptionKey: null,
                previousEncryptionKeys: [],
                ...options.secrets,
              },
            }
          : undefined,
      ),
    },
  );
}
