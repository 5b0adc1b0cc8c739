import { api } from '../api/client';
import { Show, useApi } from '../ui';

export function Settings() {
  const [value] = useApi(() => api.GET('/api/admin/settings'), []);
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <p>The effective global configuration, read-only. Secret values are never shown.</p>
      <Show value={value} what="settings">
        {(data) => (
          <div className="scroll" role="region" aria-label="Settings" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Setting</th>
                  <th scope="col">Value</th>
                  <th scope="col">About</th>
                </tr>
              </thead>
              <tbody>
                {data.settings.map((s) => (
                  <tr key={s.name}>
                    <th scope="row">
                      <code>{s.name}</code>
                    </th>
                    <td>{s.sensitive ? <em>set (hidden)</em> : <code>{JSON.stringify(s.value)}</code>}{s.is_default && <small> default</small>}</td>
                    <td>{s.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Show>
    </section>
  );
}
