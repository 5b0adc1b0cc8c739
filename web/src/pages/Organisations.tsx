// The orgs this person may govern; one org's policy with a tool picker over the catalogue,
// a diff before saving, its history and the policy simulator.
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api, errorText } from '../api/client';
import { Empty, Refusal, Show, useApi, when } from '../ui';

export function Organisations() {
  const [value] = useApi(() => api.GET('/api/admin/orgs'), []);
  return (
    <section aria-labelledby="orgs-title">
      <h1 id="orgs-title">Organisations</h1>
      <Show value={value} what="organisations">
        {(data) =>
          data.orgs.length === 0 ? (
            <Empty>You govern no organisation.</Empty>
          ) : (
            <ul className="cards">
              {data.orgs.map((o) => (
                <li key={o.org} className="card">
                  <Link to={`/orgs/${encodeURIComponent(o.org)}`}>{o.org}</Link>
                  <span>
                    {o.role.replace('_', ' ')} · {o.has_policy ? `policy v${o.version}, ${when(o.updated_at)}` : 'global floor only'}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}

type Policy = { disabled_tools: string[]; secret_detection_mode: 'off' | 'mask' | 'block' | null; read_only: boolean; allowed_repos: string[] | null; quotas: { tool_calls_per_minute: number | null; write_calls_per_hour: number | null } };

const EDITABLE: Array<keyof Policy> = ['disabled_tools', 'secret_detection_mode', 'read_only', 'allowed_repos', 'quotas'];

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

export function OrgPolicy() {
  const { org = '' } = useParams();
  const [tick, setTick] = useState(0);
  // Kept here: the editor is mounted afresh with the saved policy, the notice stays.
  const [saved, setSaved] = useState<string | null>(null);
  const [value] = useApi(() => api.GET('/api/admin/orgs/{org}/policy', { params: { path: { org } } }), [org, tick]);
  const [catalogue] = useApi(() => api.GET('/api/admin/catalogue'), []);
  const [history] = useApi(() => api.GET('/api/admin/orgs/{org}/policy/history', { params: { path: { org } } }), [org, tick]);
  return (
    <section aria-labelledby="policy-title">
      <h1 id="policy-title">Organisation {org}</h1>
      <p>
        <Link to="/orgs">All organisations</Link>
      </p>
      <Show value={value} what="the policy">
        {(data) => (
          <PolicyEditor
            org={org}
            current={data.policy as Policy}
            tools={catalogue.state === 'ready' ? catalogue.data.tools.map((t) => ({ name: t.name, toolset: t.toolset, access: t.access })) : []}
            onSaved={(text) => {
              setSaved(text);
              setTick((t) => t + 1);
            }}
            onChange={() => setSaved(null)}
          />
        )}
      </Show>
      {saved && (
        <p role="status" className="notice">
          {saved}
        </p>
      )}
      <h2>History</h2>
      <Show value={history} what="the history">
        {(h) =>
          h.changes.length === 0 ? (
            <Empty>No change yet: the global floor applies.</Empty>
          ) : (
            <ol className="history">
              {h.changes.map((c) => (
                <li key={c.id}>
                  v{c.version} · {when(c.changed_at)} · {c.changed_by} ({c.role})
                </li>
              ))}
            </ol>
          )
        }
      </Show>
      <Simulator org={org} />
    </section>
  );
}

function PolicyEditor({ org, current, tools, onSaved, onChange }: { org: string; current: Policy; tools: Array<{ name: string; toolset: string | null; access: string }>; onSaved: (text: string) => void; onChange: () => void }) {
  const [draft, setDraftState] = useState<Policy>(current);
  const setDraft = (next: Policy) => {
    onChange();
    setDraftState(next);
  };
  const [search, setSearch] = useState('');
  const [access, setAccess] = useState('');
  const [glob, setGlob] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const matches = useMemo(() => {
    const s = search.trim();
    return tools.filter((t) => (!s || t.name.includes(s) || (t.toolset ?? '').includes(s)) && (!access || t.access === access));
  }, [tools, search, access]);
  const globCount = useMemo(() => {
    if (!glob) return 0;
    try {
      const re = globToRegExp(glob);
      return tools.filter((t) => re.test(t.name)).length;
    } catch {
      return 0;
    }
  }, [glob, tools]);
  // Only the editable fields are compared and sent (the API refuses unknown fields).
  const diff = EDITABLE.filter((k) => JSON.stringify(draft[k]) !== JSON.stringify(current[k]));
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const body = Object.fromEntries(diff.map((k) => [k, draft[k]])) as Partial<Policy>;
    const r = await api.PUT('/api/admin/orgs/{org}/policy', { params: { path: { org } }, body });
    if (r.response.ok) {
      setMessage(null);
      onSaved(`Saved version ${r.data?.policy.version ?? ''}: the new policy applies to the next call.`);
    } else setMessage({ ok: false, text: errorText(r.error, r.response.status) });
  };
  const add = (name: string) => !draft.disabled_tools.includes(name) && setDraft({ ...draft, disabled_tools: [...draft.disabled_tools, name] });
  return (
    <form onSubmit={save} aria-label={`Policy of ${org}`}>
      <fieldset>
        <legend>Disabled tools</legend>
        <ul className="chips">
          {draft.disabled_tools.map((t) => (
            <li key={t}>
              <code>{t}</code>
              <button type="button" onClick={() => setDraft({ ...draft, disabled_tools: draft.disabled_tools.filter((x) => x !== t) })}>
                Remove<span className="sr-only"> {t}</span>
              </button>
            </li>
          ))}
          {draft.disabled_tools.length === 0 && <li>None</li>}
        </ul>
        <div className="filters">
          <label>
            Find a tool <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="name or toolset" />
          </label>
          <label>
            Access
            <select value={access} onChange={(e) => setAccess(e.target.value)}>
              <option value="">any</option>
              <option value="read">read</option>
              <option value="write">write</option>
            </select>
          </label>
        </div>
        {search && (
          <ul className="picker" aria-label="Matching tools">
            {matches.slice(0, 20).map((t) => (
              <li key={t.name}>
                <button type="button" onClick={() => add(t.name)}>
                  Disable <code>{t.name}</code>
                </button>{' '}
                <small>
                  {t.toolset} · {t.access}
                </small>
              </li>
            ))}
            {matches.length === 0 && <li>No tool matches.</li>}
          </ul>
        )}
        <label>
          Glob <input value={glob} onChange={(e) => setGlob(e.target.value)} placeholder="repo_delete*" />
        </label>{' '}
        <span aria-live="polite">matches {globCount} tools</span>{' '}
        <button type="button" disabled={!glob} onClick={() => add(glob)}>
          Add glob
        </button>
      </fieldset>
      <fieldset>
        <legend>Rules</legend>
        <label>
          Secret detection
          <select value={draft.secret_detection_mode ?? ''} onChange={(e) => setDraft({ ...draft, secret_detection_mode: (e.target.value || null) as Policy['secret_detection_mode'] })}>
            <option value="">global default</option>
            <option value="mask">mask</option>
            <option value="block">block</option>
            <option value="off">off</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={draft.read_only} onChange={(e) => setDraft({ ...draft, read_only: e.target.checked })} /> Read-only
        </label>
        <label>
          Allowed repos (comma separated, empty = all)
          <input
            value={(draft.allowed_repos ?? []).join(',')}
            onChange={(e) => {
              const list = e.target.value.split(',').map((s) => s.trim()).filter(Boolean);
              setDraft({ ...draft, allowed_repos: list.length ? list : null });
            }}
          />
        </label>
        <label>
          Tool calls per minute
          <input type="number" min={1} value={draft.quotas.tool_calls_per_minute ?? ''} onChange={(e) => setDraft({ ...draft, quotas: { ...draft.quotas, tool_calls_per_minute: e.target.value ? Number(e.target.value) : null } })} />
        </label>
        <label>
          Write calls per hour
          <input type="number" min={1} value={draft.quotas.write_calls_per_hour ?? ''} onChange={(e) => setDraft({ ...draft, quotas: { ...draft.quotas, write_calls_per_hour: e.target.value ? Number(e.target.value) : null } })} />
        </label>
      </fieldset>
      <h2>Change</h2>
      {diff.length === 0 ? (
        <Empty>No change.</Empty>
      ) : (
        <table className="diff" aria-label="Change before saving">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Now</th>
              <th scope="col">After saving</th>
            </tr>
          </thead>
          <tbody>
            {diff.map((k) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td><del>{JSON.stringify(current[k])}</del></td>
                <td><ins>{JSON.stringify(draft[k])}</ins></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="submit" className="primary" disabled={diff.length === 0}>
        Save policy
      </button>
      {message && (message.ok ? <p role="status" className="notice">{message.text}</p> : <Refusal message={message.text} />)}
    </form>
  );
}

function Simulator({ org }: { org: string }) {
  const [login, setLogin] = useState('');
  const [tool, setTool] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const run = async (e: FormEvent) => {
    e.preventDefault();
    const r = await api.POST('/api/admin/policy/simulate', { body: { login, org, tool, repo: null } });
    setAnswer(r.data ? `${r.data.decision}: ${r.data.message}` : errorText(r.error, r.response.status));
  };
  return (
    <form onSubmit={run} aria-label="Policy simulator">
      <h2>Simulator</h2>
      <label>
        Person <input value={login} onChange={(e) => setLogin(e.target.value)} required />
      </label>
      <label>
        Tool <input value={tool} onChange={(e) => setTool(e.target.value)} required />
      </label>
      <button type="submit">Simulate</button>
      {answer && (
        <p role="status" className="notice">
          {answer}
        </p>
      )}
    </form>
  );
}
