// The image runs the service with a few V8 flags (an 8 MB semi-space: less resident memory than
// Node's 16 MB, without the collections a 4 MB one costs at 32 calls in flight; README "Performance"). Every place that starts the service in production, and the bench
// that measures it, must pass the same ones: the Dockerfile's CMD (which the Helm chart runs),
// `npm run start:prod`, `npm start` (scripts/start.mjs) and the bench's sidecar.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../../bench/sidecar/sidecar-process';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('the Node flags production runs with', () => {
  it('include an 8 MB semi-space and a 50 % old-generation growing step', () => {
    expect(SERVICE_NODE_FLAGS).toContain('--max-semi-space-size=8');
    expect(SERVICE_NODE_FLAGS).toContain('--heap-growing-percent=50');
  });

  it('are the Dockerfile CMD, npm run start:prod and npm start, in the same order', () => {
    const cmds = [...read('Dockerfile').matchAll(/^CMD (\[.*\])$/gm)].map((m) => JSON.parse(m[1] as string));
    expect(cmds.at(-1)).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start:prod']).toBe(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js'].join(' '));
    const spawned = /spawn\(process\.execPath, \[([^\]]*), main\]/.exec(read('scripts/start.mjs'));
    expect(spawned?.[1]?.split(',').map((s) => s.trim().replace(/^'|'$/g, ''))).toEqual([
      ...SERVICE_NODE_FLAGS,
    ]);
  });

  it('are accepted by this Node and cap the young generation where the default would grow it', () => {
    // Short-lived objects that survive a few scavenges grow the young generation to its maximum.
    const probe =
      'let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep = []; } ' +
      "process.stdout.write(String(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size))";
    const newSpace = (flags: readonly string[]): number => {
      const r = spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      return Number(r.stdout);
    };
    const withFlags = newSpace(SERVICE_NODE_FLAGS);
    expect(withFlags).toBeGreaterThan(0);
    expect(withFlags).toBeLessThanOrEqual(16 * 2 ** 20);
    expect(newSpace([])).toBeGreaterThan(withFlags);
  });

  it('collect the old generation before its garbage piles up to several times what is live', () => {
    // About 40 MB stays live while batches of objects that survive a few scavenges (promoted to the
    // old generation, then dropped: what a burst of concurrent calls leaves) churn through. V8's
    // default lets the old generation grow to up to 4x what the last full collection kept before
    // collecting again; with the flags it collects at 1.5x.
    const probe =
      "const v8 = require('v8'); const live = []; for (let i = 0; i < 4e5; i++) live.push({ i, s: 'x' + i }); " +
      'let keep = [], peak = 0; for (let r = 0; r < 25; r++) { keep = []; for (let i = 0; i < 1e5; i++) keep.push({ i, r, a: [i, r] }); ' +
      "peak = Math.max(peak, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').physical_space_size); } " +
      'process.stdout.write(String(peak))';
    const peakOld = (flags: readonly string[]): number => {
      const r = spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      return Number(r.stdout);
    };
    const semiOnly = SERVICE_NODE_FLAGS.filter((f) => !f.startsWith('--heap-growing-percent'));
    const withFlags = peakOld(SERVICE_NODE_FLAGS);
    const without = peakOld(semiOnly);
    expect(withFlags).toBeGreaterThan(0);
    expect(withFlags).toBeLessThan(0.7 * without);
  });
});
