// Operation sets that change how secrets are handled. Names checked against gitea/swagger.v1.json:
// Gitea 28.1 has no repoCreateDeployToken, so it is listed for forward compatibility only (a name
// that never comes through the executor has no effect).

/** Successful results of these skip pattern masking and block mode (exact redaction still applies). */
export const CREDENTIAL_ISSUING_OPERATIONS: ReadonlySet<string> = new Set([
  'userCreateToken',
  'adminCreateRunnerRegistrationToken',
  'orgCreateRunnerRegistrationToken',
  'repoCreateRunnerRegistrationToken',
  'userCreateRunnerRegistrationToken',
  'userCreateOAuth2Application',
  'userUpdateOAuth2Application',
  'repoCreateDeployToken',
]);

/** Actions secret create-or-update (PUT .../actions/secrets/{secretname}): body.data is the secret. */
export const ACTION_SECRET_WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'updateRepoSecret',
  'updateOrgSecret',
  'updateUserSecret',
]);

/** File writes whose body carries base64 `content` (top level, or in files[] for repoChangeFiles). */
export const FILE_WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'repoCreateFile',
  'repoUpdateFile',
  'repoChangeFiles',
]);
