// SPEC_SOURCE=live reads the API description from Gitea itself, through the one Gitea HTTP client.
// It is fetched with the service token (Gitea may require sign-in for it), never across a redirect, and only over https or to
// loopback (start-up refuses the rest: src/config/startup-checks.ts). A live document may name
// operations differently from the bundled one the rules were written against, so the catalogue
// learns the bundled name of every method and route (CatalogueOperation.referenceName) and policy
// decisions match rules against both names and the route (src/core/policy/call-policy.ts).
import { readFileSync } from 'node:fs';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import { bundledSpecPath } from '../../infra/gitea/spec-source';
import { parseSpec } from '../../core/catalogue/spec-loader';
import { diffSpecs, type SpecDiff } from '../../core/catalogue/spec-diff';
export type { SpecReport, SpecReportHolder } from '../../core/catalogue/spec-diff';
import { operationNamesByRoute } from '../../core/catalogue/tool-catalogue';
import type { SwaggerSpec } from '../../core/catalogue/swagger-types';

export function liveSpecFetcher(
  gitea: GiteaHttpClient,
  token: string | null,
  timeoutMs: number,
): () => Promise<string> {
  return async () => {
    // No redirect is followed by the client: a 3xx is refused here like any other non-2xx.
    const response = await gitea.request('/swagger.v1.json', {
      timeoutMs,
      headers: { accept: 'application/json', ...(token ? { authorization: `token ${token}` } : {}) },
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
    return response.text;
  };
}

/** The bundled names by route, and how `live` differs from the bundled description (read once, not kept). */
export function compareWithBundled(live: SwaggerSpec): { names: Map<string, string>; differences: SpecDiff } {
  const bundled = parseSpec(readFileSync(bundledSpecPath(), 'utf8'), 'bundled spec');
  return { names: operationNamesByRoute(bundled), differences: diffSpecs(bundled, live) };
}
