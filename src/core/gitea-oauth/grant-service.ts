// The person's Gitea grant through its life: saved at sign-in (tokens encrypted), handed out for
// calls (refreshed shortly before expiry, one refresh at a time across replicas), refreshed again
// when Gitea answers 401, revoked when Gitea refuses the refresh or reports the account disabled,
// and reconciled periodically because Gitea has no webhook for suspended or deleted users.
// Framework-free: storage and the Gitea endpoints are ports implemented in src/infra/gitea-oauth.
import { GiteaAuthRequiredError, type AuthRequiredReason } from './errors';
import { GrantCipher, GrantDecryptionError } from './grant-cipher';
import type { GiteaAccess } from './gitea-scopes';

export type PersonRecord = { id: string; giteaUserId: number; login: string; isSiteAdmin: boolean };

export type GrantStatus = 'active' | 'revoked';

export type GrantRecord = {
  id: string;
  personId: string;
  access: GiteaAccess;
  scopes: string[];
  status: GrantStatus;
  keyId: string | null;
  accessTokenEnc: string | null;
  refreshTokenEnc: string | null;
  accessExpiresAt: Date | null;
  updatedAt: Date;
  refreshLeaseUntil: Date | null;
  revokedReason: string | null;
  checkedAt: Date | null;
  lastUsedAt: Date | null;
  firstUsedAt: Date | null;
  createdAt: Date;
};

export type SealedTokens = {
  keyId: string;
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessExpiresAt: Date;
};

export type GiteaTokenSet = { accessToken: string; refreshToken: string; expiresInSeconds: number };

export type GiteaAccount = { id: number; login: string; isSiteAdmin: boolean };

export type RevocationReason =
  'revoked_by_person' | 'revoked_by_admin' | 'refresh_failed' | 'account_disabled' | 'account_deleted';

/** Storage of people and their grants (Prisma in production; PGlite or PostgreSQL). */
export interface GiteaGrantRepository {
  /** Creates or updates the person (by Gitea user id) and replaces their grant with an active one. */
  saveSignIn(input: {
    account: GiteaAccount;
    newPersonId: string;
    newGrantId: string;
    access: GiteaAccess;
    scopes: string[];
    /** Seals the tokens once the grant id (part of the ciphertext binding) is known. */
    seal: (grantId: string) => SealedTokens;
    now: Date;
  }): Promise<{ person: PersonRecord; grant: GrantRecord }>;
  findPerson(personId: string): Promise<PersonRecord | null>;
  findPersonByGiteaUserId(giteaUserId: number): Promise<PersonRecord | null>;
  findGrant(personId: string): Promise<GrantRecord | null>;
  findGrantById(grantId: string): Promise<GrantRecord | null>;
  /** Takes the refresh lease if it is free or lapsed; false when another holder has it. */
  acquireRefreshLease(grantId: string, now: Date, until: Date): Promise<boolean>;
  releaseRefreshLease(grantId: string): Promise<void>;
  /** Stores refreshed tokens and releases the lease (only while the grant is active). */
  storeTokens(grantId: string, sealed: SealedTokens, now: Date): Promise<boolean>;
  /** Re-encrypted tokens: written only if the row still holds `expectedKeyId` (rotation job). */
  replaceCiphertexts(
    grantId: string,
    expectedKeyId: string,
    sealed: Omit<SealedTokens, 'accessExpiresAt'>,
  ): Promise<boolean>;
  /** Marks the grant revoked and wipes its ciphertexts; true when it was active. */
  revoke(personId: string, reason: RevocationReason, now: Date): Promise<boolean>;
  markChecked(grantId: string, now: Date, account: GiteaAccount): Promise<void>;
  touch(grantId: string, now: Date): Promise<void>;
  /** Active grants in id order after `afterId` (paging), optionally only those expiring before a time. */
  listActive(options: {
    afterId: string | null;
    limit: number;
    expiringBefore?: Date;
  }): Promise<GrantRecord[]>;
  /** Active grants whose ciphertexts were made with a key other than `currentKeyId`. */
  listWithStaleKey(currentKeyId: string, limit: number): Promise<GrantRecord[]>;
}

export type RefreshOutcome =
  | { ok: true; tokens: GiteaTokenSet }
  /** permanent: Gitea refused the refresh token (400 invalid_grant / unauthorized_client ...). */
  | { ok: false; permanent: boolean; message: string };

export type AccountOutcome =
  { ok: true; account: GiteaAccount } | { ok: false; status: number | null; message: string };

/** Gitea's OAuth token endpoint and /api/v1/user, always with the token as Bearer. */
export interface GiteaOAuthEndpoint {
  refresh(refreshToken: string): Promise<RefreshOutcome>;
  currentUser(accessToken: string): Promise<AccountOutcome>;
}

/** What a call gets: the Gitea access token to send as `Authorization: Bearer`. Never echoed. */
export type GiteaCredential = {
  token: string;
  personId: string;
  grantId: string;
  giteaUserId: number;
  login: string;
  isSiteAdmin: boolean;
  access: GiteaAccess;
};

/** Gitea is unreachable or failing (not a refusal): the grant is kept, the call fails for now. */
export class GiteaUnavailableError extends Error {
  readonly kind = 'upstream_error' as const;
  constructor(message: string) {
    super(message);
    this.name = 'GiteaUnavailableError';
  }
}

export type GrantServiceOptions = {
  repository: GiteaGrantRepository;
  endpoint: GiteaOAuthEndpoint;
  cipher: GrantCipher;
  now: () => number;
  newId: () => string;
  /** Where a person signs in again; shown in auth_required messages. */
  reconnectUrl: string | null;
  /** A token handed to a call has at least this long left (default 60 s). */
  minRemainingMs?: number;
  /** The refresh job renews tokens expiring within this window (default 10 min). */
  refreshAheadMs?: number;
  /** How long one replica may hold a refresh lease (default 30 s). */
  leaseMs?: number;
  /** How long another caller waits for a lease holder before giving up (default 10 s). */
  leaseWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onError?: (message: string, error: unknown) => void;
};

/** Gitea's answer for a signed request of a user who may not sign in (api.go verifyAuthWithOptions). */
const PROHIBITED = /prohibited from signing in|account is (?:not activated|suspended|disabled)/i;

export type ReconcileSummary = { checked: number; revoked: number; refreshed: number; failed: number };

export class GiteaGrantService {
  private readonly inflight = new Map<string, Promise<GiteaCredential>>();
  private readonly listeners: Array<(personId: string, reason: RevocationReason) => void> = [];
  private readonly minRemainingMs: number;
  private readonly refreshAheadMs: number;
  private readonly leaseMs: number;
  private readonly leaseWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: GrantServiceOptions) {
    this.minRemainingMs = options.minRemainingMs ?? 60_000;
    this.refreshAheadMs = options.refreshAheadMs ?? 10 * 60_000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.leaseWaitMs = options.leaseWaitMs ?? 10_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private get repo(): GiteaGrantRepository {
    return this.options.repository;
  }

  /** Called in the replica that revoked a grant (lifecycle, 401, person, admin). */
  onRevoked(listener: (personId: string, reason: RevocationReason) => void): void {
    this.listeners.push(listener);
  }

  /** Stores the outcome of a sign-in: the person (by Gitea user id) and their fresh tokens. */
  async saveSignIn(input: {
    account: GiteaAccount;
    tokens: GiteaTokenSet;
    access: GiteaAccess;
    scopes: string[];
  }): Promise<{ person: PersonRecord; grant: GrantRecord }> {
    const now = new Date(this.options.now());
    return this.repo.saveSignIn({
      account: input.account,
      newPersonId: this.options.newId(),
      newGrantId: this.options.newId(),
      access: input.access,
      scopes: input.scopes,
      seal: (grantId) => this.seal(grantId, input.tokens, now),
      now,
    });
  }

  /** A usable Gitea token for the person, refreshed first when it is about to expire. */
  async credentialFor(personId: string): Promise<GiteaCredential> {
    const grant = await this.repo.findGrant(personId);
    const active = this.requireActive(grant);
    const remaining = (active.accessExpiresAt?.getTime() ?? 0) - this.options.now();
    if (remaining > this.minRemainingMs) {
      const credential = await this.credentialOf(active);
      void this.repo.touch(active.id, new Date(this.options.now())).catch(() => undefined);
      return credential;
    }
    return this.refresh(personId, false);
  }

  /** credentialFor by Gitea grant id (the MCP authorization server keys its grants by it). */
  async credentialForGrant(grantId: string): Promise<GiteaCredential> {
    const grant = await this.repo.findGrantById(grantId);
    if (!grant) throw this.authRequired('no_grant');
    return this.credentialFor(grant.personId);
  }

  /** upstreamRefused by Gitea grant id. */
  async upstreamRefusedForGrant(
    grantId: string,
    status: number,
    message = '',
  ): Promise<GiteaCredential | null> {
    const grant = await this.repo.findGrantById(grantId);
    if (!grant) throw this.authRequired('no_grant');
    return this.upstreamRefused(grant.personId, status, message);
  }

  /**
   * Gitea refused a call made with the person's token. 401: refresh once (the token may have
   * been revoked on Gitea), which revokes the grant here when Gitea refuses the refresh too.
   * 403 naming a disabled account: revoke at once. Returns a fresh credential to retry with,
   * or throws GiteaAuthRequiredError.
   */
  async upstreamRefused(personId: string, status: number, message = ''): Promise<GiteaCredential | null> {
    if (status === 403 && PROHIBITED.test(message)) {
      await this.revoke(personId, 'account_disabled');
      throw this.authRequired('account_disabled');
    }
    if (status !== 401) return null;
    return this.refresh(personId, true);
  }

  async revokeAllFor(personId: string, reason: RevocationReason): Promise<boolean> {
    return this.revoke(personId, reason);
  }

  findPerson(personId: string): Promise<PersonRecord | null> {
    return this.repo.findPerson(personId);
  }

  /** The access of the Gitea user's active grant here, if any (a sign-in must not narrow it). */
  async activeAccessOf(giteaUserId: number): Promise<GiteaAccess | null> {
    const person = await this.repo.findPersonByGiteaUserId(giteaUserId);
    const grant = person ? await this.repo.findGrant(person.id) : null;
    return grant && grant.status === 'active' ? grant.access : null;
  }

  findGrant(personId: string): Promise<GrantRecord | null> {
    return this.repo.findGrant(personId);
  }

  /** Job body: renews every active grant whose access token expires within refreshAheadMs. */
  async refreshExpiring(): Promise<{ refreshed: number; failed: number }> {
    let refreshed = 0;
    let failed = 0;
    let afterId: string | null = null;
    const expiringBefore = new Date(this.options.now() + this.refreshAheadMs);
    for (;;) {
      const page = await this.repo.listActive({ afterId, limit: 100, expiringBefore });
      if (page.length === 0) break;
      for (const grant of page) {
        try {
          await this.refresh(grant.personId, false, this.refreshAheadMs);
          refreshed += 1;
        } catch (error) {
          failed += 1;
          if (!(error instanceof GiteaAuthRequiredError))
            this.options.onError?.('ahead-of-expiry refresh failed', error);
        }
      }
      afterId = page[page.length - 1]!.id;
    }
    return { refreshed, failed };
  }

  /**
   * Job body: asks Gitea about every person with an active grant, with their own token. Gitea
   * refusing it (401 after a refresh attempt, 403 for a prohibited or inactive account) revokes
   * the grant; a deleted user's grant is gone on Gitea, so its refresh fails and it is revoked.
   */
  async reconcile(): Promise<ReconcileSummary> {
    const summary: ReconcileSummary = { checked: 0, revoked: 0, refreshed: 0, failed: 0 };
    let afterId: string | null = null;
    for (;;) {
      const page = await this.repo.listActive({ afterId, limit: 100 });
      if (page.length === 0) break;
      for (const grant of page) {
        summary.checked += 1;
        try {
          const outcome = await this.checkAccount(grant);
          if (outcome === 'revoked') summary.revoked += 1;
          else if (outcome === 'refreshed') summary.refreshed += 1;
          else if (outcome === 'failed') summary.failed += 1;
        } catch (error) {
          if (error instanceof GiteaAuthRequiredError) summary.revoked += 1;
          else {
            summary.failed += 1;
            this.options.onError?.('lifecycle check failed', error);
          }
        }
      }
      afterId = page[page.length - 1]!.id;
    }
    return summary;
  }

  /** Job body: re-encrypts grants made with a previous key under the current one. */
  async reencrypt(): Promise<number> {
    let done = 0;
    for (;;) {
      const page = await this.repo.listWithStaleKey(this.options.cipher.currentKeyId, 100);
      let progressed = 0;
      for (const grant of page) {
        try {
          const access = this.openField(grant, 'access');
          const refresh = this.openField(grant, 'refresh');
          const accessSealed = this.options.cipher.seal(access, context(grant.id, 'access'));
          const refreshSealed = this.options.cipher.seal(refresh, context(grant.id, 'refresh'));
          const written = await this.repo.replaceCiphertexts(grant.id, grant.keyId!, {
            keyId: accessSealed.keyId,
            accessTokenEnc: accessSealed.value,
            refreshTokenEnc: refreshSealed.value,
          });
          if (written) {
            done += 1;
            progressed += 1;
          }
        } catch (error) {
          this.options.onError?.('re-encryption of a grant failed', error);
        }
      }
      if (page.length < 100 || progressed === 0) break;
    }
    return done;
  }

  private async checkAccount(grant: GrantRecord): Promise<'ok' | 'revoked' | 'refreshed' | 'failed'> {
    let credential = await this.credentialFor(grant.personId);
    let refreshed = false;
    let answer = await this.options.endpoint.currentUser(credential.token);
    if (!answer.ok && answer.status === 401) {
      credential = await this.refresh(grant.personId, true);
      refreshed = true;
      answer = await this.options.endpoint.currentUser(credential.token);
    }
    if (answer.ok) {
      await this.repo.markChecked(grant.id, new Date(this.options.now()), answer.account);
      return refreshed ? 'refreshed' : 'ok';
    }
    if (answer.status === 401) {
      await this.revoke(grant.personId, 'refresh_failed');
      return 'revoked';
    }
    if (answer.status === 403 || answer.status === 404) {
      await this.revoke(grant.personId, 'account_disabled');
      return 'revoked';
    }
    return 'failed';
  }

  private refresh(personId: string, force: boolean, aheadMs = this.minRemainingMs): Promise<GiteaCredential> {
    const running = this.inflight.get(personId);
    if (running) return running;
    const promise = this.refreshOnce(personId, force, aheadMs).finally(() => this.inflight.delete(personId));
    this.inflight.set(personId, promise);
    return promise;
  }

  private async refreshOnce(personId: string, force: boolean, aheadMs: number): Promise<GiteaCredential> {
    const started = this.options.now();
    let seen = this.requireActive(await this.repo.findGrant(personId));
    for (;;) {
      const nowMs = this.options.now();
      const leased = await this.repo.acquireRefreshLease(
        seen.id,
        new Date(nowMs),
        new Date(nowMs + this.leaseMs),
      );
      if (leased) break;
      // Another replica is refreshing: wait for its result instead of spending the refresh token twice.
      if (nowMs - started > this.leaseWaitMs)
        throw new GiteaUnavailableError('a refresh of this Gitea grant is taking too long');
      await this.sleep(100);
      const current = this.requireActive(await this.repo.findGrant(personId));
      if (current.updatedAt.getTime() !== seen.updatedAt.getTime() && this.fresh(current, aheadMs))
        return this.credentialOf(current);
      seen = current;
    }
    // Holding the lease: someone may have refreshed between our read and the lease.
    const grant = this.requireActive(await this.repo.findGrant(personId), seen.id);
    if (grant.updatedAt.getTime() !== seen.updatedAt.getTime() && this.fresh(grant, aheadMs)) {
      await this.repo.releaseRefreshLease(grant.id);
      return this.credentialOf(grant);
    }
    if (!force && this.fresh(grant, aheadMs)) {
      await this.repo.releaseRefreshLease(grant.id);
      return this.credentialOf(grant);
    }
    let refreshToken: string;
    try {
      refreshToken = this.openField(grant, 'refresh');
    } catch (error) {
      await this.repo.releaseRefreshLease(grant.id);
      throw error;
    }
    const outcome = await this.options.endpoint.refresh(refreshToken);
    if (!outcome.ok) {
      if (outcome.permanent) {
        await this.revoke(personId, 'refresh_failed');
        throw this.authRequired('refresh_failed');
      }
      await this.repo.releaseRefreshLease(grant.id);
      // A transient failure: the current token is still good unless it has expired.
      if (!force && (grant.accessExpiresAt?.getTime() ?? 0) > this.options.now())
        return this.credentialOf(grant);
      throw new GiteaUnavailableError(`Gitea did not refresh the token: ${outcome.message}`);
    }
    const now = new Date(this.options.now());
    const sealed = this.seal(grant.id, outcome.tokens, now);
    const stored = await this.repo.storeTokens(grant.id, sealed, now);
    if (!stored) throw this.authRequired('revoked');
    const person = await this.repo.findPerson(personId);
    if (!person) throw this.authRequired('no_grant');
    return {
      token: outcome.tokens.accessToken,
      personId,
      grantId: grant.id,
      giteaUserId: person.giteaUserId,
      login: person.login,
      isSiteAdmin: person.isSiteAdmin,
      access: grant.access,
    };
  }

  private fresh(grant: GrantRecord, aheadMs: number): boolean {
    return (grant.accessExpiresAt?.getTime() ?? 0) - this.options.now() > aheadMs;
  }

  private async revoke(personId: string, reason: RevocationReason): Promise<boolean> {
    const changed = await this.repo.revoke(personId, reason, new Date(this.options.now()));
    if (changed) {
      for (const listener of this.listeners) {
        try {
          listener(personId, reason);
        } catch (error) {
          this.options.onError?.('revocation listener failed', error);
        }
      }
    }
    return changed;
  }

  private requireActive(grant: GrantRecord | null, expectedId?: string): GrantRecord {
    if (!grant || (expectedId && grant.id !== expectedId)) throw this.authRequired('no_grant');
    if (grant.status !== 'active' || !grant.accessTokenEnc || !grant.refreshTokenEnc || !grant.keyId)
      throw this.authRequired(reasonOf(grant.revokedReason));
    return grant;
  }

  private async credentialOf(grant: GrantRecord): Promise<GiteaCredential> {
    const person = await this.repo.findPerson(grant.personId);
    if (!person) throw this.authRequired('no_grant');
    return {
      token: this.openField(grant, 'access'),
      personId: person.id,
      grantId: grant.id,
      giteaUserId: person.giteaUserId,
      login: person.login,
      isSiteAdmin: person.isSiteAdmin,
      access: grant.access,
    };
  }

  private openField(grant: GrantRecord, field: 'access' | 'refresh'): string {
    const value = field === 'access' ? grant.accessTokenEnc : grant.refreshTokenEnc;
    try {
      return this.options.cipher.open(
        { keyId: grant.keyId ?? '', value: value ?? '' },
        context(grant.id, field),
      );
    } catch (error) {
      if (error instanceof GrantDecryptionError) {
        this.options.onError?.('a stored Gitea grant could not be decrypted', error);
        throw this.authRequired('undecryptable');
      }
      throw error;
    }
  }

  private seal(grantId: string, tokens: GiteaTokenSet, now: Date): SealedTokens {
    const access = this.options.cipher.seal(tokens.accessToken, context(grantId, 'access'));
    const refresh = this.options.cipher.seal(tokens.refreshToken, context(grantId, 'refresh'));
    return {
      keyId: access.keyId,
      accessTokenEnc: access.value,
      refreshTokenEnc: refresh.value,
      accessExpiresAt: new Date(now.getTime() + tokens.expiresInSeconds * 1000),
    };
  }

  private authRequired(reason: AuthRequiredReason): GiteaAuthRequiredError {
    return new GiteaAuthRequiredError(reason, this.options.reconnectUrl);
  }
}

/** The additional authenticated data of a token ciphertext: its row and field. */
export const context = (grantId: string, field: 'access' | 'refresh'): string =>
  `gitea_grants:${grantId}:${field}`;

function reasonOf(revokedReason: string | null): AuthRequiredReason {
  if (revokedReason === 'refresh_failed') return 'refresh_failed';
  if (revokedReason === 'account_disabled' || revokedReason === 'account_deleted') return 'account_disabled';
  return 'revoked';
}
