import { useMemo, useState } from 'react';
import { api } from '../api/client';
import type { paths } from '../api/schema';
import { Empty, Show, useApi } from '../ui';

export function Catalogue() {
  const [value] = useApi(() => api.GET('/api/admin/catalogue'), []);
  const [q, setQ] = useState('');
  const [onlyDisabled, setOnlyDisabled] = useState(false);
  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">Catalogue</h1>
      <Show value={value} what="the catalogue">
        {(data) => <CatalogueTable data={data} q={q} setQ={setQ} onlyDisabled={onlyDisabled} setOnlyDisabled={setOnlyDisabled} />}
      </Show>
    </section>
  );
}

type Data = paths['/api/admin/catalogue']['get']['responses'][200]['content']['application/json'];

function CatalogueTable(props: { data: Data; q: string; setQ: (s: string) => void; onlyDisabled: boolean; setOnlyDisabled: (b: boolean) => void }) {
  const { data, q, onlyDisabled } = props;
  const rows = useMemo(
    () =>
      data.tools
        .filter((t) => !q || t.name.includes(q) || (t.toolset ?? '').includes(q))
        .filter((t) => !onlyDisabled || t.disabled_globally || t.disabled_in.length > 0)
        .slice(0, 200),
    [data, q, onlyDisabled],
  );
  return (
    <>
      <p>
        {data.counts.total} tools from Gitea API {data.spec.version} (<code>SPEC_SOURCE={data.spec.source}</code>),{' '}
        {data.counts.disabled_globally} disabled by the global floor.
      </p>
      <SpecDifferences spec={data.spec} />
      <h2>Tools</h2>
      <div className="filters">
        <label>
          Search <input value={q} onChange={(e) => props.setQ(e.target.value)} placeholder="name or toolset" />
        </label>
        <label>
          <input type="checkbox" checked={onlyDisabled} onChange={(e) => props.setOnlyDisabled(e.target.checked)} /> Only disabled
        </label>
      </div>
      {rows.length === 0 ? (
        <Empty>No tool matches.</Empty>
      ) : (
        <div className="scroll" role="region" aria-label="Tools" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Toolset</th>
                <th scope="col">Access</th>
                <th scope="col">Disabled</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.name}>
                  <th scope="row">
                    <code>{t.name}</code>
                  </th>
                  <td>{t.toolset ?? '—'}</td>
                  <td>{t.access}</td>
                  <td>
                    {t.disabled_globally ? 'global floor' : ''}
                    {t.disabled_in.length > 0 ? `${t.disabled_globally ? ', ' : ''}in ${t.disabled_in.map((d) => `${d.org} (${d.kind})`).join(', ')}` : ''}
                    {!t.disabled_globally && t.disabled_in.length === 0 ? 'no' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

type Spec = Data['spec'];
type Ref = { name: string; method: string; route: string };

const opLabel = (op: Ref) => (
  <>
    <code>{op.name}</code> <span className="route">{op.method} {op.route}</span>
  </>
);

/** With SPEC_SOURCE=live: what the live description changes against the bundled one. */
function SpecDifferences({ spec }: { spec: Spec }) {
  if (spec.source === 'live' && spec.loaded !== 'live')
    return (
      <p className="refusal" role="status">
        The live Gitea description could not be used: the tools come from the bundled description (see the service log).
      </p>
    );
  const d = spec.differences;
  if (!d) return null;
  const total = d.added.length + d.removed.length + d.changed.length;
  return (
    <section aria-labelledby="spec-diff-title">
      <h2 id="spec-diff-title">Differences from the bundled spec</h2>
      <p>
        The live description (Gitea API {d.live_version}) against the bundled one ({d.reference_version}):{' '}
        {total === 0
          ? 'no operation differs.'
          : `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed. Rules written for a bundled name or route keep applying to a renamed operation.`}
      </p>
      {d.added.length > 0 && (
        <>
          <h3>Added</h3>
          <ul className="ops" aria-label="Added operations">
            {d.added.map((op) => (
              <li key={op.name}>{opLabel(op)}</li>
            ))}
          </ul>
        </>
      )}
      {d.removed.length > 0 && (
        <>
          <h3>Removed</h3>
          <ul className="ops" aria-label="Removed operations">
            {d.removed.map((op) => (
              <li key={op.name}>{opLabel(op)}</li>
            ))}
          </ul>
        </>
      )}
      {d.changed.length > 0 && (
        <>
          <h3>Changed</h3>
          <div className="scroll" role="region" aria-label="Changed operations" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col">Bundled</th>
                  <th scope="col">What changed</th>
                </tr>
              </thead>
              <tbody>
                {d.changed.map((op) => (
                  <tr key={`${op.method} ${op.route}`}>
                    <th scope="row">{opLabel(op)}</th>
                    <td>{opLabel(op.reference)}</td>
                    <td>
                      <ul className="changes">
                        {op.changes.map((c, i) => (
                          <li key={i}>
                            {c.what}: {c.from === null ? 'added ' : c.to === null ? 'removed ' : ''}
                            {c.from !== null && <code>{c.from}</code>}
                            {c.from !== null && c.to !== null && ' → '}
                            {c.to !== null && <code>{c.to}</code>}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
