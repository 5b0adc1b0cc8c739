// Audit records with filters, cursor pages, a record's detail, export and the chain's status.
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useSession } from '../session';
import { Empty, Refusal, Show, useApi, when } from '../ui';

type Filters = { from?: string; to?: string; login?: string; org?: string; repo?: string; tool?: string; kind?: string };
const FIELDS: Array<keyof Filters> = ['login', 'org', 'repo', 'tool', 'kind'];
// Records of the admin API, by the tool name they are kept under (the same chain as tool calls).
const RECORD_TYPES = [
  { value: 'admin.policy.update', label: 'Policy changes' },
  { value: 'admin.grant.revoke', label: 'Grant revocations' },
];

/** Whose grant a revocation record names (its stored arguments), for the table. */
function revokedOwner(r: { tool: string; arguments?: unknown }): string | null {
  if (r.tool !== 'admin.grant.revoke' || !r.arguments || typeof r.arguments !== 'object') return null;
  const owner = (r.arguments as { owner?: unknown }).owner;
  return typeof owner === 'string' ? owner : null;
}

export function Audit() {
  const { current } = useSession();
  const isSiteAdmin = current.state === 'signed_in' && current.session.isSiteAdmin;
  // An org owner sees the records of an org they own: the org filter is one of theirs.
  const owned = current.state === 'signed_in' && !isSiteAdmin ? current.session.ownedOrgs : null;
  const initial: Filters = owned?.[0] ? { org: owned[0] } : {};
  const [draft, setDraft] = useState<Filters>(initial);
  const [filters, setFilters] = useState<Filters>(initial);
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const [page] = useApi(
    () => api.GET('/api/admin/audit', { params: { query: { ...filters, limit: 25, ...(cursor ? { cursor } : {}) } } }),
    [JSON.stringify(filters), cursor],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) as Filters;
    setFilters(clean);
    setCursors([]);
  };
  const exportUrl = (format: 'csv' | 'jsonl') => `/api/admin/audit/export?${new URLSearchParams({ ...filters, format } as Record<string, string>)}`;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      {isSiteAdmin && <ChainStatus />}
      <form className="filters" onSubmit={submit} aria-label="Audit filters">
        <label>
          record type
          <select
            name="record"
            value={RECORD_TYPES.some((t) => t.value === draft.tool) ? draft.tool : ''}
            onChange={(e) => setDraft({ ...draft, tool: e.target.value || undefined })}
          >
            <option value="">Any</option>
            {RECORD_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        {FIELDS.map((f) =>
          f === 'org' && owned ? (
            <label key={f}>
              org
              <select name="org" value={draft.org ?? ''} onChange={(e) => setDraft({ ...draft, org: e.target.value })}>
                {owned.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label key={f}>
              {f} <input name={f} value={draft[f] ?? ''} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })} />
            </label>
          ),
        )}
        <label>
          from <input type="datetime-local" onChange={(e) => setDraft({ ...draft, from: e.target.value ? new Date(e.target.value).toISOString() : undefined })} />
        </label>
        <label>
          to <input type="datetime-local" onChange={(e) => setDraft({ ...draft, to: e.target.value ? new Date(e.target.value).toISOString() : undefined })} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <p>
        Export: <a href={exportUrl('jsonl')}>JSON Lines</a> · <a href={exportUrl('csv')}>CSV</a>
      </p>
      <Show value={page} what="audit records">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No audit record matches these filters.</Empty>
          ) : (
            <>
              <div className="scroll" role="region" aria-label="Audit records" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Person</th>
                      <th scope="col">Tool</th>
                      <th scope="col">Org / repo</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">
                        <span className="sr-only">Detail</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((r) => (
                      <tr key={r.seq}>
                        <td>{when(r.created_at)}</td>
                        <td>{r.login ?? '—'}</td>
                        <td>
                          <code>{r.tool}</code>
                          {revokedOwner(r) && <> (grant of {revokedOwner(r)})</>}
                        </td>
                        <td>{[r.org, r.repo].filter(Boolean).join('/') || '—'}</td>
                        <td>{r.kind ?? 'ok'}{r.blocked ? ' (blocked)' : ''}{r.masks ? ` (${r.masks} masked)` : ''}</td>
                        <td>
                          <button type="button" aria-expanded={open === r.seq} onClick={() => setOpen(open === r.seq ? null : r.seq)}>
                            Detail<span className="sr-only"> of record {r.seq}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {open && (
                <pre className="detail" aria-label="Record detail" tabIndex={0}>
                  {JSON.stringify(data.items.find((r) => r.seq === open), null, 2)}
                </pre>
              )}
              <div className="pager">
                <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
                  Newer
                </button>
                <button type="button" disabled={!data.next_cursor} onClick={() => data.next_cursor && setCursors([...cursors, data.next_cursor])}>
                  Older
                </button>
              </div>
            </>
          )
        }
      </Show>
    </section>
  );
}

function ChainStatus() {
  const [value] = useApi(() => api.GET('/api/admin/audit/verify'), []);
  if (value.state === 'error') return <Refusal status={value.status} message={value.message} />;
  if (value.state === 'loading') return <p role="status">Checking the hash chain…</p>;
  const v = value.data;
  return (
    <p role="status" className={v.ok ? 'notice' : 'refusal'}>
      Hash chain: {v.ok ? `intact (${v.checked} records checked)` : `broken at record ${v.first_break?.seq}: ${v.first_break?.reason}`}
    </p>
  );
}
