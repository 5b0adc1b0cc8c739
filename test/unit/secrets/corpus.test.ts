// Quality of pattern masking on the labelled corpus (bench/secrets): recall and false positives.
// Timing is measured by `npm run bench`, never asserted here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus, SECRET_FORMATS } from '../../../bench/secrets/corpus';
import { scoreCorpus } from '../../../bench/secrets/secrets-bench';

describe('labelled corpus', () => {
  it('is large enough: >= 40 formats, >= 300 secrets, >= 300 hard negatives', () => {
    const { positives, negatives } = buildCorpus();
    expect(SECRET_FORMATS.length).toBeGreaterThanOrEqual(40);
    expect(positives.length).toBeGreaterThanOrEqual(300);
    expect(negatives.length).toBeGreaterThanOrEqual(300);
  });

  it('reaches recall >= 99% and false-positive rate <= 0.5%', () => {
    const s = scoreCorpus();
    expect(s.missed).toEqual([]);
    expect(s.recall).toBeGreaterThanOrEqual(0.99);
    expect(s.falsePositiveRate).toBeLessThanOrEqual(0.005);
  });

  it('holds on a second seed too (not tuned to one draw)', () => {
    const s = scoreCorpus(7);
    expect(s.recall).toBeGreaterThanOrEqual(0.99);
    expect(s.falsePositiveRate).toBeLessThanOrEqual(0.005);
  });
});

describe('no secret-shaped literals in the secrets code and corpus', () => {
  const root = join(__dirname, '../../..');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  const shapes = [
    /gh[pousr]_[A-Za-z0-9]{36}/,
    /AKIA[0-9A-Z]{16}/,
    new RegExp(['BEGIN ', '(?:[A-Z]+ )?PRIVATE KEY'].join('')),
  ];
  it.each(['src/core/secrets', 'bench/secrets', 'test/unit/secrets'])('%s', (dir) => {
    for (const f of files(join(root, dir))) {
      const text = readFileSync(f, 'utf8');
      for (const re of shapes) expect({ file: f, hit: re.test(text) }).toEqual({ file: f, hit: false });
    }
  });
});
