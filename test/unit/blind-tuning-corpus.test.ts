// Properties of the blind tuning corpus itself (bench/secrets/blind-tuning): sizes, determinism,
// and that every listed secret and every kept look-alike is really in its payload. It does not run
// the masking engine.
import {
  describeBlindTuningCorpus,
  generateBlindTuningCorpus,
  occursIn,
} from '../../bench/secrets/blind-tuning/corpus';

const CONTEXTS = [
  'issue',
  'pull',
  'comment',
  'commit',
  'diff',
  'raw',
  'wiki',
  'actions_log',
  'actions_variable',
  'webhook',
  'release',
];

describe('blind tuning corpus', () => {
  const { samples } = generateBlindTuningCorpus(1);
  const positives = samples.filter((s) => !s.format.startsWith('negative:'));
  const negatives = samples.filter((s) => s.format.startsWith('negative:'));

  it('meets the minimum sizes', () => {
    const d = describeBlindTuningCorpus(1);
    expect(d.secretSubstrings).toBeGreaterThanOrEqual(1200);
    expect(d.formats).toBeGreaterThanOrEqual(200);
    expect(d.negativeSamples).toBeGreaterThanOrEqual(700);
    expect(d.negativeKinds).toBeGreaterThanOrEqual(60);
    const perFormat = new Map<string, number>();
    for (const s of samples) perFormat.set(s.format, (perFormat.get(s.format) ?? 0) + 1);
    for (const [, n] of perFormat) expect(n).toBeGreaterThanOrEqual(5);
  });

  it('spreads samples over every context', () => {
    const d = describeBlindTuningCorpus(1);
    for (const c of CONTEXTS) {
      expect(d.perContext[c]?.secretSamples ?? 0).toBeGreaterThanOrEqual(100);
      expect(d.perContext[c]?.negativeSamples ?? 0).toBeGreaterThanOrEqual(40);
    }
    expect(new Set(samples.map((s) => s.context))).toEqual(new Set(CONTEXTS));
  });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateBlindTuningCorpus(1)).toEqual(generateBlindTuningCorpus(1));
    expect(generateBlindTuningCorpus(2).samples[0]?.payload).not.toEqual(samples[0]?.payload);
  });

  it('has unique ids', () => {
    expect(new Set(samples.map((s) => s.id)).size).toBe(samples.length);
  });

  it('lists at least one secret per positive and only keeps per negative', () => {
    for (const s of positives) {
      expect(s.secrets.length).toBeGreaterThan(0);
      expect(s.keep).toEqual([]);
    }
    for (const s of negatives) {
      expect(s.secrets).toEqual([]);
      expect(s.keep.length).toBeGreaterThan(0);
    }
  });

  it('every secret and every kept look-alike occurs in its payload', () => {
    const missing: string[] = [];
    for (const s of samples)
      for (const x of [...s.secrets, ...s.keep]) if (!occursIn(s.payload, x)) missing.push(s.id);
    expect(missing).toEqual([]);
  });

  it('JSON payloads parse, and are written as Go writes them (<, >, & escaped)', () => {
    const jsonContexts = new Set([
      'issue',
      'pull',
      'comment',
      'commit',
      'wiki',
      'actions_variable',
      'webhook',
      'release',
    ]);
    for (const s of samples) {
      const t = s.payload.trimStart();
      const looksJson = t.startsWith('{"') || t.startsWith('[{');
      if (
        jsonContexts.has(s.context) ||
        (s.context === 'raw' && looksJson && s.payload.includes('"encoding":"base64"'))
      ) {
        expect(() => JSON.parse(s.payload) as unknown).not.toThrow();
        expect(s.payload).not.toMatch(/[<>&]/);
      }
    }
  });

  it('occursIn looks into base64 content fields', () => {
    const body = JSON.stringify({
      title: 'x',
      content_base64: Buffer.from('hello hidden world').toString('base64'),
    });
    expect(occursIn(body, 'hidden')).toBe(true);
    expect(occursIn(body, 'absent')).toBe(false);
    expect(occursIn('plain text', 'text')).toBe(true);
  });
});
