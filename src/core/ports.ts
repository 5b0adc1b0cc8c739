// Contracts between the framework-free core and the world around it. The core never imports
// NestJS, Prisma, BullMQ, undici or process.env: adapters in src/infra implement these ports
// and NestJS modules in src/modules wire them together.
import type { SecretDetectionMode } from './secrets/detection-mode';

export type IdentityMode = 'oauth' | 'token';

/** Who a tool call runs as. `token` is the Gitea credential used for the call; never echoed. */
export type CallIdentity = {
  login: string;
  mode: IdentityMode;
  /** The user this call acts as through Gitea's Sudo header, or null. */
  sudo: string | null;
  token: string;
  isSiteAdmin: boolean;
  /** Stable key for rate limits and audit (e.g. "token:svc" or "oauth:<grant id>"). */
  subject: string;
  client?: { name: string; version: string };
  /** OAuth mode: the scopes of the access token (gitea:read, gitea:write); absent in token mode. */
  scopes?: string[];
  /** OAuth mode: the person's Gitea grant is gone; calls answer auth_required with this message. */
  authRequired?: string;
  /** OAuth mode: the MCP client the person authorized (as registered here, not self-reported). */
  oauthClient?: { id: string; name: string };
};

/** One HTTP request to Gitea, fully built: path is relative to /api/v1 and already encoded. */
export type GiteaRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?:
    | { kind: 'json'; value: unknown }
    | {
        kind: 'multipart';
        fields: Array<[string, string]>;
        files: Array<{ field: string; filename: string; contentType: string; data: Uint8Array }>;
      }
    | { kind: 'text'; value: string; contentType: string };
};

export type GiteaResponse = {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Uint8Array;
  /**
   * Set when the transport stopped reading a text or JSON body at `maxTextBytes`: `body` holds the
   * first `receivedBytes`, `totalBytes` is the declared length (Content-Length) when Gitea sent one.
   */
  cut?: { receivedBytes: number; totalBytes: number | null };
  /**
   * Gitea redirected off its own origin (a signed download link, ADR 0019): where to (origin only,
   * never the signed link), and whether the transport fetched it (without credentials) or why not.
   */
  offOrigin?: { origin: string; followed: true } | { origin: string; followed: false; reason: string };
};

export type TransportErrorKind = 'timeout' | 'network_error' | 'payload_too_large';

/** Thrown by a GiteaTransport for failures that are not an HTTP answer from Gitea. */
export class TransportError extends Error {
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Sends a request to Gitea as the identity (Authorization, and Sudo when identity.sudo is set). */
export interface GiteaTransport {
  send(
    request: GiteaRequest,
    identity: CallIdentity,
    /** `signal`: the call was abandoned (deadline); the request is cancelled with a timeout error. */
    options: {
      timeoutMs: number;
      maxBodyBytes: number;
      signal?: AbortSignal;
      /** Text and JSON bodies: stop reading here and return what came, with `cut` set. */
      maxTextBytes?: number;
    },
  ): Promise<GiteaResponse>;
}

/** The effective policy for one call's organisation (global floor already merged in). */
export type EffectivePolicy = {
  org: string | null;
  disabledTools: string[];
  detectionMode: SecretDetectionMode;
  /** Org policies (src/core/policy/org-policy.ts) fill these; older providers leave them out. */
  detectionModeSource?: 'global' | 'org';
  readOnly?: boolean;
  allowedRepos?: string[] | null;
  quotas?: { toolCallsPerMinute: number | null; writeCallsPerHour: number | null };
  /** The org's own part of disabledTools (the rest is the global floor). */
  orgDisabledTools?: string[];
  version?: number;
};

export interface PolicyProvider {
  forOrg(org: string | null): Promise<EffectivePolicy>;
}

/** One audit record as the call path produces it (see docs/adr on audit). */
export type AuditEntry = {
  /** Unique per call (UUID), so a record retried through the queue is written once. */
  eventId: string;
  time: Date;
  login: string | null;
  mode: IdentityMode | null;
  sudo: string | null;
  clientName: string | null;
  clientVersion: string | null;
  tool: string;
  operationId: string | null;
  org: string | null;
  repo: string | null;
  method: string | null;
  path: string | null;
  status: number | null;
  kind: string | null; // error kind, null on success
  durationMs: number;
  resultBytes: number;
  redactions: number;
  masks: number;
  blocked: boolean;
  /** Arguments with secrets redacted (exact values and body secret fields). */
  arguments: unknown;
};

/** Must not block the call path: enqueue and return. */
export interface AuditSink {
  record(entry: AuditEntry): void;
}

export interface Clock {
  now(): number;
}
