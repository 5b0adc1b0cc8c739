// What I granted (my Gitea grant held by this service, the MCP clients I authorised) with revoke
// one and revoke all; for site admins every grant with filters and revoke. Through the admin API
// (/api/admin/connections, /api/admin/grants); revokes carry the session's CSRF token.
import { useState } from 'react';
import { api, errorText } from '../api/client';
import type { paths } from '../api/schema';
import { useSession } from '../session';
import { Empty, Refusal, Show, useApi, when } from '../ui';

type Connection = paths['/api/admin/connections']['get']['responses'][200]['content']['application/json']['connections'][number] & {
  login?: string;
};

const KIND_LABEL: Record<Connection['kind'], string> = { gitea: 'Gitea grant', mcp_client: 'MCP client' };

function Table({ rows, showLogin, onRevoke }: { rows: Connection[]; showLogin: boolean; onRevoke: (c: Connection) => void }) {
  return (
    <div className="scroll" role="region" aria-label={showLogin ? "Every grant" : "My connections"} tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Client</th>
            {showLogin && <th scope="col">Person</th>}
            <th scope="col">Kind</th>
            <th scope="col">Scope</th>
            <th scope="col">Granted</th>
            <th scope="col">First used</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td>{c.client_name}</td>
              {showLogin && <td>{c.login}</td>}
              <td>{KIND_LABEL[c.kind]}</td>
              <td>
                {c.access ? <strong>{c.access}</strong> : null} <small>{c.scope.join(' ')}</small>
              </td>
              <td>{when(c.created_at)}</td>
              <td>{c.first_used_at ? when(c.first_used_at) : 'never'}</td>
              <td>{c.last_used_at ? when(c.last_used_at) : 'never'}</td>
              <td>{c.status === 'active' ? 'active' : `revoked${c.revoked_reason ? ` (${c.revoked_reason})` : ''}`}</td>
              <td>
                {c.status === 'active' && (
                  <button type="button" className="danger" onClick={() => onRevoke(c)}>
                    Revoke<span className="sr-only"> {c.client_name}{showLogin ? ` of ${c.login}` : ''}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Connections({ isSiteAdmin }: { isSiteAdmin: boolean }) {
  const { reload } = useSession();
  const [tick, setTick] = useState(0);
  const [login, setLogin] = useState('');
  const [status, setStatus] = useState<'active' | 'revoked' | 'all'>('active');
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [mine] = useApi(() => api.GET('/api/admin/connections'), [tick]);
  const [all] = useApi(
    () =>
      isSiteAdmin
        ? api.GET('/api/admin/grants', { params: { query: { status, ...(login ? { login } : {}) } } })
        : Promise.resolve({ data: { grants: [], notes: [] }, response: new Response('{}') }),
    [tick, isSiteAdmin, login, status],
  );
  const done = (r: { data?: { revoked: number; signed_out: boolean }; error?: unknown; response: Response }, what: string) => {
    if (!r.data) return setNotice({ ok: false, text: `Not revoked: ${errorText(r.error, r.response.status)}` });
    setNotice({ ok: true, text: r.data.revoked > 0 ? `${what}: revoked.` : `${what}: was already revoked.` });
    // Revoking one's own Gitea grant ends one's console sessions: the frame then says so.
    if (r.data.signed_out) reload();
    setTick((t) => t + 1);
  };
  const revokeMine = async (c: Connection) =>
    done(await api.POST('/api/admin/connections/{id}/revoke', { params: { path: { id: c.id } }, body: {} }), c.client_name);
  const revokeAll = async () => done(await api.POST('/api/admin/connections/revoke-all', { body: {} }), 'Every connection');
  const revokeAny = async (c: Connection) =>
    done(await api.POST('/api/admin/grants/{id}/revoke', { params: { path: { id: c.id } }, body: {} }), `${c.login}'s ${c.client_name}`);
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Connections</h1>
      {notice && (notice.ok ? <p role="status" className="notice">{notice.text}</p> : <Refusal message={notice.text} />)}
      <h2>My connections</h2>
      <p>Revoking your Gitea grant also disconnects every MCP client that uses it, and signs you out of this console.</p>
      <Show value={mine} what="your connections">
        {(data) => (
          <>
            {data.connections.length === 0 ? (
              <Empty>You have no connection to this service.</Empty>
            ) : (
              <>
                <Table rows={data.connections} showLogin={false} onRevoke={(c) => void revokeMine(c)} />
                {data.connections.some((c) => c.status === 'active') && (
                  <button type="button" className="danger" onClick={() => void revokeAll()}>
                    Revoke all my connections
                  </button>
                )}
              </>
            )}
            {data.notes.map((n) => (
              <p key={n} className="state">
                {n}.
              </p>
            ))}
          </>
        )}
      </Show>
      {isSiteAdmin && (
        <>
          <h2>Every grant</h2>
          <div className="filters">
            <label>
              Person <input value={login} onChange={(e) => setLogin(e.target.value.trim())} placeholder="login" />
            </label>
            <label>
              Status
              <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
                <option value="active">active</option>
                <option value="revoked">revoked</option>
                <option value="all">all</option>
              </select>
            </label>
          </div>
          <Show value={all} what="grants">
            {(data) =>
              data.grants.length === 0 ? (
                <Empty>No grant matches.</Empty>
              ) : (
                <Table rows={data.grants} showLogin onRevoke={(c) => void revokeAny(c)} />
              )
            }
          </Show>
        </>
      )}
    </section>
  );
}
