// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function, heaviest first.
export type CpuProfile = {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }>;
  startTime: number;
  endTime: number;
  samples?: number[];
};

export type HotFunction = { fn: string; file: string; selfMs: number; share: number };

export function hotFunctions(profile: CpuProfile, top = 15): HotFunction[] {
  const totalHits = profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  const msPerHit = totalHits > 0 ? (profile.endTime - profile.startTime) / 1000 / totalHits : 0;
  const byKey = new Map<string, HotFunction>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const fn = n.callFrame.functionName || '(anonymous)';
    const file = n.callFrame.url
      ? `${n.callFrame.url.replace(/^file:\/\//, '')}:${n.callFrame.lineNumber + 1}`
      : '';
    const key = `${fn}@${file}`;
    const cur = byKey.get(key) ?? { fn, file, selfMs: 0, share: 0 };
    cur.selfMs += hits * msPerHit;
    cur.share += totalHits ? hits / totalHits : 0;
    byKey.set(key, cur);
  }
  return [...byKey.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, top);
}

/** Self time grouped by package or top-level source folder (node_modules/<pkg>, dist/src/<dir>). */
export function hotAreas(profile: CpuProfile, top = 12): Array<{ area: string; share: number }> {
  const totalHits = profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  const byArea = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const url = n.callFrame.url;
    let area = n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : 'node internals';
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    const src = /dist\/(src\/[^/]+(?:\/[^/]+)?)/.exec(url);
    if (nm) area = nm[1] as string;
    else if (src) area = src[1] as string;
    else if (url && !url.startsWith('node:')) area = url;
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
  }
  return [...byArea.entries()]
    .map(([area, hits]) => ({ area, share: totalHits ? hits / totalHits : 0 }))
    .sort((a, b) => b.share - a.share)
    .slice(0, top);
}
