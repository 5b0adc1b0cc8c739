// Thin Nest glue around the framework-free call path: builds the ToolService from config, the
// undici transport, the policy provider and (when present) the audit sink and secrets scrubber.
import { CpuTurns } from '../../core/executor/cpu-turns';
import { Global, Inject, Injectable, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { configuredSecrets } from '../../config/configured-secrets';
import type { AuditSink, GiteaTransport, PolicyProvider } from '../../core/ports';
import { loadSpec } from '../../infra/gitea/spec-source';
import { encoderWords, MiniLmEncoder } from '../../infra/embeddings/minilm-encoder';
import { buildCatalogue } from '../../core/catalogue/tool-catalogue';
import { createToolService } from '../../core/executor/tool-executor';
import { type ToolService } from '../../core/executor/tool-service';
import { GlobalPolicyProvider } from '../../core/policy/global-policy';
import { OrgPolicyProvider, type OrgPolicySource } from '../../core/policy/org-policy-provider';
import type { QuotaCounter } from '../../core/policy/quota';
import { UndiciGiteaTransport } from '../../infra/gitea/undici-gitea-transport';
import { GiteaHttpModule } from '../../infra/gitea/gitea-http.module';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import {
  AUDIT_SINK,
  CPU_TURNS,
  GITEA_HTTP,
  GITEA_TRANSPORT,
  LOGGER,
  POLICY_PROVIDER,
  POLICY_SOURCE,
  QUOTA_COUNTER,
  SPEC_REPORT,
  TOOL_SERVICE,
} from '../tokens';
import { compareWithBundled, liveSpecFetcher, type SpecReportHolder } from './live-spec';
import { closeScrubWorkers, resolveResultScrubber } from './result-scrubber.provider';

const noopAuditSink: AuditSink = { record: () => undefined };

@Injectable()
class TransportCloser implements OnApplicationShutdown {
  constructor(@Inject(GITEA_TRANSPORT) private readonly transport: GiteaTransport) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.transport instanceof UndiciGiteaTransport) await this.transport.close();
    await closeScrubWorkers();
  }
}

@Global()
@Module({
  imports: [GiteaHttpModule],
  providers: [
    // One queue of turns for the process: /mcp requests and the executor's result work share it.
    { provide: CPU_TURNS, useFactory: () => new CpuTurns((run) => setImmediate(run)) },
    // Filled by the TOOL_SERVICE factory below; read by the admin API's catalogue.
    { provide: SPEC_REPORT, useFactory: (): SpecReportHolder => ({ current: null }) },
    {
      provide: GITEA_TRANSPORT,
      inject: [APP_CONFIG, GITEA_HTTP],
      useFactory: (config: AppConfig, gitea: GiteaHttpClient): GiteaTransport =>
        new UndiciGiteaTransport({
          baseUrl: config.gitea.url,
          client: gitea,
          followOffOrigin: config.gitea.offOriginDownloads !== 'refuse',
        }),
    },
    {
      // Org policies when the policy module is composed (it needs the database), else the global one.
      provide: POLICY_PROVIDER,
      inject: [APP_CONFIG, { token: POLICY_SOURCE, optional: true }],
      useFactory: (config: AppConfig, source?: OrgPolicySource): PolicyProvider =>
        source
          ? new OrgPolicyProvider(
              {
                disabledTools: config.tools.disabledTools,
                toolsets: config.tools.toolsets,
                readOnly: config.tools.readOnly,
                detectionMode: config.secrets.detectionMode,
              },
              source,
            )
          : new GlobalPolicyProvider({
              disabledTools: config.tools.disabledTools,
              detectionMode: config.secrets.detectionMode,
            }),
    },
    {
      provide: TOOL_SERVICE,
      inject: [
        APP_CONFIG,
        GITEA_TRANSPORT,
        POLICY_PROVIDER,
        GITEA_HTTP,
        { token: AUDIT_SINK, optional: true },
        { token: LOGGER, optional: true },
        { token: QUOTA_COUNTER, optional: true },
        SPEC_REPORT,
        CPU_TURNS,
      ],
      useFactory: async (
        config: AppConfig,
        transport: GiteaTransport,
        policy: PolicyProvider,
        gitea: GiteaHttpClient,
        audit: AuditSink | undefined,
        logger: Logger | undefined,
        quotas: QuotaCounter | undefined,
        report: SpecReportHolder,
        turns: CpuTurns,
      ): Promise<ToolService> => {
        const warn = (message: string) =>
          logger ? logger.warn({ component: 'tools' }, message) : console.warn(`[tools] ${message}`);
        const loaded = await loadSpec({
          source: config.tools.specSource,
          giteaUrl: config.gitea.url,
          fetchText: liveSpecFetcher(gitea, config.gitea.token, Math.min(config.gitea.timeoutMs, 15_000)),
          warn,
        });
        logger?.info(
          { component: 'tools', specSource: loaded.source, giteaVersion: loaded.spec.info?.version },
          'tool catalogue loaded',
        );
        // A live document may rename operations: rules written for the bundled names keep holding,
        // and the console lists what it changes against the bundled one.
        const compared = loaded.source === 'live' ? compareWithBundled(loaded.spec) : null;
        report.current = { loaded: loaded.source, differences: compared?.differences ?? null };
        const spec = compared
          ? buildCatalogue(loaded.spec, {
              maxBinaryBytes: config.tools.maxBinaryBytes,
              referenceNames: compared.names,
            })
          : loaded.spec;
        return createToolService(
          spec,
          {
            tools: config.tools,
            secrets: { detectionMode: config.secrets.detectionMode },
            exactSecrets: configuredSecrets(config),
            timeoutMs: config.gitea.timeoutMs,
            // Continuation cursors are signed with a key derived from ENCRYPTION_KEY, so every
            // replica accepts the others' cursors; without one, each process has its own key.
            cursorSecret: config.secrets.encryptionKey,
            hygieneFileContents: config.tools.hygieneFileContents ?? 'flag',
            turns,
          },
          {
            transport,
            policy,
            audit: audit ?? noopAuditSink,
            clock: { now: () => Date.now() },
            scrubber: resolveResultScrubber(config),
            ...(quotas ? { quotas } : {}),
            // Loads nothing until the first gitea_search_tools call (the model is ~100 MB in memory).
            ...(config.tools.discoveryEmbeddings === 'off' ? {} : { sentenceEncoder: new MiniLmEncoder() }),
            // The typo corrector leaves the model's vocabulary alone, with or without the model.
            knownWords: encoderWords,
            warn,
          },
        );
      },
    },
    TransportCloser,
  ],
  exports: [TOOL_SERVICE, GITEA_TRANSPORT, POLICY_PROVIDER, SPEC_REPORT, CPU_TURNS],
})
export class ToolsModule {
  constructor(@Optional() @Inject(LOGGER) private readonly logger?: Logger) {}
}
