// The one error a call sees when a person's Gitea grant cannot be used: the person must sign in
// through Gitea again. Callers turn it into an `auth_required` result; there is never a fall-back
// to the service token.
import type { ErrorBody } from '../errors/error-mapping';

export type AuthRequiredReason =
  | 'no_grant' // the person never connected Gitea (or the grant was removed)
  | 'revoked' // revoked here (by the person, an admin, or lifecycle reconciliation)
  | 'refresh_failed' // Gitea refused the refresh token (grant revoked on Gitea, app secret changed ...)
  | 'account_disabled' // Gitea says the account is suspended, prohibited from signing in or deleted
  | 'undecryptable'; // the stored tokens were encrypted with a key this replica no longer has

const WHY: Record<AuthRequiredReason, string> = {
  no_grant: 'there is no Gitea authorization for this person',
  revoked: 'the Gitea authorization was revoked',
  refresh_failed: 'Gitea no longer accepts this authorization (it was revoked on Gitea or expired)',
  account_disabled: 'Gitea reports the account as suspended, prohibited from signing in or deleted',
  undecryptable: 'the stored Gitea authorization cannot be decrypted with the configured keys',
};

export class GiteaAuthRequiredError extends Error {
  readonly kind = 'auth_required' as const;
  constructor(
    readonly reason: AuthRequiredReason,
    /** Where the person signs in again (the service's own authorization flow, or the console). */
    readonly reconnectUrl: string | null,
  ) {
    super(
      `Gitea authorization required: ${WHY[reason]}. ` +
        (reconnectUrl
          ? `Reconnect by signing in through Gitea again: ${reconnectUrl}`
          : 'Reconnect by authorizing the MCP client again (it will send you through Gitea).'),
    );
    this.name = 'GiteaAuthRequiredError';
  }

  /** The envelope error body (ADR 0005) for this refusal. */
  toErrorBody(): ErrorBody {
    return {
      error: {
        status: null,
        kind: 'auth_required',
        message: this.message,
        details: { reason: this.reason, reconnect_url: this.reconnectUrl },
      },
    };
  }
}

export const isGiteaAuthRequired = (error: unknown): error is GiteaAuthRequiredError =>
  error instanceof GiteaAuthRequiredError;
