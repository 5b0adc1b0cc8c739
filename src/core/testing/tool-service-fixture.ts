// What the executor's unit specs share: the catalogue of the bundled swagger (built once per
// binary limit), the real secrets module as a scrubber, tool settings with nothing disabled, a
// scripted Gitea transport that records what was sent, and a ToolService built over them that
// records its audit entries. Test code (src/core/testing is never built into dist/): it reads the
// swagger file itself, which the core's own sources never do (src/infra/gitea/spec-source.ts does).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../catalogue/spec-loader';
import { buildCatalogue, type ToolCatalogue } from '../catalogue/tool-catalogue';
import { passThroughScrubber } from '../executor/pass-through-scrubber';
import { createToolService } from '../executor/tool-executor';
import type { ResultScrubber, ToolServiceDeps, ToolServiceOptions } from '../executor/tool-service';
import type { ToolSettings } from '../executor/tool-settings';
import { GlobalPolicyProvider } from '../policy/global-policy';
import { NO_COUNTS, type ToolCallOutcome } from '../call/tool-call-outcome';
import { UnknownToolError } from '../executor/tool-service';
import type { AuditEntry, CallIdentity, GiteaRequest, GiteaResponse, GiteaTransport } from '../ports';
import * as secrets from '../secrets';

const loadBundledSpec = () =>
  parseSpec(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8'), 'bundled spec');

const catalogues = new Map<number, ToolCatalogue>();
/** The bundled catalogue for a MAX_BINARY_BYTES, built once per process and value. */
export function bundledCatalogue(maxBinaryBytes = 1000): ToolCatalogue {
  let catalogue = catalogues.get(maxBinaryBytes);
  if (!catalogue) {
    catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes });
    catalogues.set(maxBinaryBytes, catalogue);
  }
  return catalogue;
}

/** The real secrets module behind the executor's scrubber seam (what the Nest provider wires). */
export const secretsScrubber: ResultScrubber = {
  collectBodySecrets: (body, op) => secrets.collectBodySecrets(body, op),
  scrubResult: (value, ctx) => secrets.scrubResult(value, ctx),
  findMaskMarker: (body, op) => secrets.findMaskMarker(body, op),
  CREDENTIAL_ISSUING_OPERATIONS: secrets.CREDENTIAL_ISSUING_OPERATIONS,
};
export { passThroughScrubber };

/** A caller in service-token mode: alice, not a site admin, subject `token:svc`, with any field changed. */
export function tokenCaller(overrides: Partial<CallIdentity> = {}): CallIdentity {
  return {
    login: 'alice',
    mode: 'token',
    sudo: null,
    token: 'f'.repeat(40),
    isSiteAdmin: false,
    subject: 'token:svc',
    ...overrides,
  };
}

/**
 * A finished call as the executor hands it to the exit, for the specs of what comes after it (the
 * exit, the endpoint, the protocol): `known: false` makes it an unknown-tool refusal; any field
 * can be changed.
 */
export function testOutcome(
  identity: CallIdentity,
  tool: string,
  { known = true, ...over }: Partial<ToolCallOutcome> & { known?: boolean } = {},
): ToolCallOutcome {
  return {
    identity,
    tool,
    knownTool: known ? tool : null,
    operationId: null,
    org: null,
    repo: null,
    method: null,
    path: null,
    status: null,
    kind: known ? 'ok' : 'unknown_tool',
    text: '{}',
    isError: false,
    reply: known ? { as: 'result' } : { as: 'unknown_tool', message: new UnknownToolError(tool).message },
    startedAt: 0,
    durationMs: 0,
    counts: NO_COUNTS,
    arguments: {},
    ...over,
  };
}

/** Tool settings for a unit spec: the full bundled catalogue, nothing disabled, no sudo. */
export function testToolSettings(overrides: Partial<ToolSettings> = {}): ToolSettings {
  return {
    specSource: 'bundled',
    toolsets: [],
    mode: 'full',
    readOnly: false,
    disabledTools: [],
    allowSudo: false,
    maxResponseItems: 50,
    maxResponseChars: 20_000,
    maxBinaryBytes: 1000,
    ...overrides,
  };
}

/** What a scripted Gitea answers: JSON (`json`), text (`text`) or raw bytes (`body`), plus headers. */
export type ScriptedReply = Partial<GiteaResponse> & { json?: unknown; text?: string };

/** A transport that records every request in `sent` and answers it with `reply`. */
export function scriptedTransport(
  reply: (req: GiteaRequest) => ScriptedReply | Promise<ScriptedReply>,
  sent: GiteaRequest[] = [],
  textType = 'text/plain',
): GiteaTransport {
  return {
    async send(req) {
      sent.push(req);
      const { json, text, status, headers, body, ...rest } = await reply(req);
      return {
        ...rest,
        status: status ?? 200,
        headers: { 'content-type': text !== undefined ? textType : 'application/json', ...(headers ?? {}) },
        body: body ?? Buffer.from(text ?? JSON.stringify(json ?? null)),
      };
    },
  };
}

export type TestServiceOptions = {
  catalogue?: ToolCatalogue;
  tools?: Partial<ToolSettings>;
  /** The rest of the service options (detection mode, exact secrets, cursor key, ...). */
  options?: Partial<Omit<ToolServiceOptions, 'tools'>>;
  /** How Gitea answers; ignored when `transport` is given. Default: `{"ok": true}`. */
  reply?: (req: GiteaRequest) => ScriptedReply | Promise<ScriptedReply>;
  /** The content type of `text` replies. */
  textType?: string;
  /** The other dependencies; default: the global policy in mask mode, a clock at 1000, no scrubbing. */
  deps?: Partial<Omit<ToolServiceDeps, 'audit'>>;
};

/** A ToolService over a scripted Gitea, recording what it sent and every audit entry. */
export function testToolService(opts: TestServiceOptions = {}) {
  const sent: GiteaRequest[] = [];
  const audits: AuditEntry[] = [];
  const tools = testToolSettings(opts.tools);
  const global = new GlobalPolicyProvider({ disabledTools: [], detectionMode: 'mask' });
  const service = createToolService(
    opts.catalogue ?? bundledCatalogue(tools.maxBinaryBytes),
    {
      tools,
      secrets: { detectionMode: 'mask' },
      exactSecrets: [],
      timeoutMs: 1000,
      ...opts.options,
    },
    {
      transport: scriptedTransport(opts.reply ?? (() => ({ json: { ok: true } })), sent, opts.textType),
      policy: global,
      clock: { now: () => 1000 },
      scrubber: passThroughScrubber,
      ...opts.deps,
      audit: { record: (e) => audits.push(e) },
    },
  );
  /** Calls a tool and parses the envelope of its one text block. */
  const callAs = async (who: CallIdentity, name: string, args: unknown) => {
    const result = await service.callTool(name, args, who);
    return { ...result, json: JSON.parse(result.content[0]!.text) as any };
  };
  return { service, sent, audits, callAs };
}
