// My connected MCP clients (and, for site admins, every grant) with revoke. The endpoints
// (/api/admin/connections, /api/admin/grants) join the admin API with the authorization server.
import { useEffect, useState } from 'react';
import { errorText } from '../api/client';
import { Empty, Loading, Refusal, when, type Loaded } from '../ui';
import { useSession } from '../session';

type Connection = {
  id: string;
  client_name: string;
  scope: string;
  login?: string;
  first_used_at: string | null;
  last_used_at: string | null;
  created_at: string;
};

async function call<T>(path: string, init: RequestInit, csrf: string): Promise<Loaded<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.method && init.method !== 'GET') headers['x-csrf-token'] = csrf;
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) return { state: 'error', status: response.status, message: errorText(body, response.status) };
  return { state: 'ready', data: body as T };
}

function Table({ rows, showLogin, onRevoke }: { rows: Connection[]; showLogin: boolean; onRevoke: (c: Connection) => void }) {
  return (
    <div className="scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Client</th>
            {showLogin && <th scope="col">Person</th>}
            <th scope="col">Scope</th>
            <th scope="col">First use</th>
            <th scope="col">Last use</th>
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
              <td>{c.scope}</td>
              <td>{when(c.first_used_at)}</td>
              <td>{when(c.last_used_at)}</td>
              <td>
                <button type="button" className="danger" onClick={() => onRevoke(c)}>
                  Revoke<span className="sr-only"> {c.client_name}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Connections({ isSiteAdmin }: { isSiteAdmin: boolean }) {
  const { current } = useSession();
  const csrf = current.state === 'signed_in' ? current.session.csrfToken : '';
  const [mine, setMine] = useState<Loaded<{ connections: Connection[] }>>({ state: 'loading' });
  const [all, setAll] = useState<Loaded<{ grants: Connection[] }>>({ state: 'loading' });
  const [filter, setFilter] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    void call<{ connections: Connection[] }>('/api/admin/connections', {}, csrf).then(setMine);
    if (isSiteAdmin)
      void call<{ grants: Connection[] }>(`/api/admin/grants?login=${encodeURIComponent(filter)}`, {}, csrf).then(setAll);
  }, [csrf, isSiteAdmin, filter, tick]);
  const revoke = async (path: string, what: string) => {
    const r = await call<unknown>(path, { method: 'POST' }, csrf);
    setNotice(r.state === 'ready' ? `${what} revoked.` : `Not revoked: ${r.state === 'error' ? r.message : ''}`);
    setTick((t) => t + 1);
  };
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Connections</h1>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <h2>My connected MCP clients</h2>
      {mine.state === 'loading' && <Loading what="your connections" />}
      {mine.state === 'error' && <Refusal status={mine.status} message={mine.message} />}
      {mine.state === 'ready' &&
        (mine.data.connections.length === 0 ? (
          <Empty>No MCP client is connected with your account.</Empty>
        ) : (
          <>
            <Table
              rows={mine.data.connections}
              showLogin={false}
              onRevoke={(c) => void revoke(`/api/admin/connections/${encodeURIComponent(c.id)}/revoke`, c.client_name)}
            />
            <button type="button" className="danger" onClick={() => void revoke('/api/admin/connections/revoke-all', 'Every connection')}>
              Revoke all my connections
            </button>
          </>
        ))}
      {isSiteAdmin && (
        <>
          <h2>Every grant</h2>
          <label>
            Person <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="login" />
          </label>
          {all.state === 'loading' && <Loading what="grants" />}
          {all.state === 'error' && <Refusal status={all.status} message={all.message} />}
          {all.state === 'ready' &&
            (all.data.grants.length === 0 ? (
              <Empty>No grant matches.</Empty>
            ) : (
              <Table
                rows={all.data.grants}
                showLogin
                onRevoke={(c) => void revoke(`/api/admin/grants/${encodeURIComponent(c.id)}/revoke`, `${c.login}'s ${c.client_name}`)}
              />
            ))}
        </>
      )}
    </section>
  );
}
