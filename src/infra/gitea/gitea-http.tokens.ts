// Injection token of the one Gitea HTTP client (src/infra/gitea/gitea-http.module.ts).
export const GITEA_HTTP = Symbol('GITEA_HTTP'); // GiteaHttpClient on GITEA_URL
