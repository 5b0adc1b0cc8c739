// Injection tokens of the Gitea adapters (src/infra/gitea).
export const GITEA_HTTP = Symbol('GITEA_HTTP'); // GiteaHttpClient on GITEA_URL (gitea-http.module.ts)
export const GITEA_TRANSPORT = Symbol('GITEA_TRANSPORT'); // core GiteaTransport: UndiciGiteaTransport on that client
