// Counts from the audit store (/api/admin/audit/stats) as charts (recharts).
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api } from '../api/client';
import { Empty, Show, useApi } from '../ui';

const RANGES = { hour: 3600_000, day: 86_400_000, month: 30 * 86_400_000 } as const;

function Chart({ title, rows }: { title: string; rows: Array<{ label: string; count: number }> }) {
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {rows.length === 0 ? (
        <Empty>No records in this range.</Empty>
      ) : (
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={rows} margin={{ left: 0, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} angle={-20} height={50} />
            <YAxis allowDecimals={false} width={40} />
            <Tooltip />
            <Bar dataKey="count" fill="#1d5fa7" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}

export function Overview() {
  const [range, setRange] = useState<keyof typeof RANGES>('day');
  const [value] = useApi(() => {
    const to = new Date();
    const from = new Date(to.getTime() - RANGES[range]);
    return api.GET('/api/admin/audit/stats', { params: { query: { from: from.toISOString(), to: to.toISOString() } } });
  }, [range]);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <fieldset className="filters">
        <legend>Range</legend>
        {(Object.keys(RANGES) as Array<keyof typeof RANGES>).map((r) => (
          <label key={r}>
            <input type="radio" name="range" checked={range === r} onChange={() => setRange(r)} /> last {r}
          </label>
        ))}
      </fieldset>
      <Show value={value} what="statistics">
        {(s) => (
          <>
            <p>
              <strong>{s.total}</strong> tool calls recorded; results with secrets masked: <strong>{s.masked}</strong>,
              withheld (blocked): <strong>{s.blocked}</strong>.
            </p>
            <div className="charts">
              {range !== 'month' && (
                <Chart title="Calls per minute" rows={s.by_minute.map((m) => ({ label: m.minute.slice(11, 16), count: m.count }))} />
              )}
              <Chart
                title="Masked and blocked results"
                rows={s.total ? [{ label: 'masked', count: s.masked }, { label: 'blocked', count: s.blocked }] : []}
              />
              <Chart title="Top people" rows={s.by_login.slice(0, 10).map((l) => ({ label: l.login ?? '(none)', count: l.count }))} />
              <Chart title="Outcomes by kind" rows={s.by_kind.map((k) => ({ label: k.kind, count: k.count }))} />
              <Chart title="Top tools" rows={s.by_tool.slice(0, 10).map((t) => ({ label: t.tool, count: t.count }))} />
              <Chart title="Calls by organisation" rows={s.by_org.slice(0, 10).map((o) => ({ label: o.org ?? '(none)', count: o.count }))} />
              <Chart title="Calls by day" rows={s.by_day.map((d) => ({ label: d.day, count: d.count }))} />
            </div>
          </>
        )}
      </Show>
    </section>
  );
}
