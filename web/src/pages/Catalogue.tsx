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
