// The HTML pages of the authorization server: consent, errors, the person's connected clients.
// Plain server-rendered forms, every value escaped; the headers in `pageHeaders` forbid framing.
import type { GrantRow } from '../../infra/oauth/oauth-store';

export const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Anti-framing and no caching on every page: the consent page must never be shown inside another site. */
export function pageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const layout = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}` +
  `.warn{background:#fff4d6;border:1px solid #e0b400;padding:.6rem;border-radius:4px}` +
  `button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.6rem}table{border-collapse:collapse;width:100%}` +
  `td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;font-size:.9rem}</style></head><body>${body}</body></html>`;

export type ConsentView = {
  clientName: string;
  clientId: string;
  redirectHost: string;
  loopbackOnly: boolean;
  write: boolean;
  interactionId: string;
  csrf: string;
  signedInAs: string | null;
};

export function consentPage(v: ConsentView): string {
  const access = v.write
    ? 'read and write: it can read your repositories, issues and organisations and change them as you (create, edit, delete)'
    : 'read only: it can read your repositories, issues and organisations, and cannot change anything';
  const warning = v.loopbackOnly
    ? `<p class="warn" role="alert"><strong>Warning:</strong> this client only redirects to <code>${escapeHtml(v.redirectHost)}</code> on this computer. Any program running on your machine could claim to be it. Allow only if you just started this client yourself.</p>`
    : '';
  return layout(
    'Authorize MCP client',
    `<h1>Authorize <span id="client-name">${escapeHtml(v.clientName)}</span>?</h1>` +
      `<p>The MCP client <strong>${escapeHtml(v.clientName)}</strong> wants to use Gitea as you${v.signedInAs ? ` (<strong>${escapeHtml(v.signedInAs)}</strong>)` : ''} through this server.</p>` +
      `<p>It will return to: <strong id="redirect-host">${escapeHtml(v.redirectHost)}</strong></p>` +
      warning +
      `<p>Access: <strong id="access">${escapeHtml(access)}</strong></p>` +
      `<p><small>Client ID: <code>${escapeHtml(v.clientId)}</code></small></p>` +
      (v.signedInAs ? '' : '<p>After you allow, you sign in at Gitea.</p>') +
      `<form method="post" action="/oauth/consent">` +
      `<input type="hidden" name="interaction" value="${escapeHtml(v.interactionId)}">` +
      `<input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">` +
      `<button type="submit" name="decision" value="allow">Allow</button>` +
      `<button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p id="error">${escapeHtml(message)}</p>`);
}

export type GrantListView = {
  login: string;
  grants: Array<GrantRow & { clientName: string }>;
  csrf: string;
  all: boolean;
  isSiteAdmin: boolean;
};

const when = (d: Date | null): string =>
  d ? d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : 'never';

export function grantsPage(v: GrantListView): string {
  const rows = v.grants
    .map(
      (g) =>
        `<tr data-grant="${escapeHtml(g.id)}"><td>${escapeHtml(g.clientName)}</td>${v.all ? `<td>${escapeHtml(g.login)}</td>` : ''}` +
        `<td>${escapeHtml(g.scope)}</td><td>${when(g.createdAt)}</td><td>${when(g.firstUsedAt)}</td><td>${when(g.lastUsedAt)}</td>` +
        `<td><form method="post" action="/oauth/grants/revoke"><input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">` +
        `<input type="hidden" name="grant" value="${escapeHtml(g.id)}"><button type="submit">Revoke</button></form></td></tr>`,
    )
    .join('');
  const revokeAll = v.all
    ? ''
    : `<form method="post" action="/oauth/grants/revoke"><input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">` +
      `<input type="hidden" name="grant" value="*"><button type="submit">Revoke all</button></form>`;
  return layout(
    'Connected MCP clients',
    `<h1>${v.all ? 'All grants (site administrator)' : 'Your connected MCP clients'}</h1><p>Signed in as <strong>${escapeHtml(v.login)}</strong>.` +
      (v.isSiteAdmin && !v.all ? ' <a href="/oauth/grants?all=1">All grants</a>' : '') +
      `</p><table><thead><tr><th>Client</th>${v.all ? '<th>Person</th>' : ''}<th>Scope</th><th>Connected</th><th>First used</th><th>Last used</th><th></th></tr></thead>` +
      `<tbody>${rows || `<tr><td colspan="7">No connected clients.</td></tr>`}</tbody></table>${v.grants.length ? revokeAll : ''}`,
  );
}
