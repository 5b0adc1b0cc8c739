// Properties of the held-out secret corpus itself (bench/secrets/heldout); no detection is run.
import {
  CONTEXTS,
  describeHeldOutCorpus,
  generateHeldOutCorpus,
  occursIn,
} from '../../bench/secrets/heldout/corpus';
import { evaluateHeldOut } from '../../bench/secrets/heldout/evaluate';

describe('held-out secret corpus', () => {
  const corpus = generateHeldOutCorpus();
  const positives = corpus.samples.filter((s) => s.secrets.length > 0);
  const negatives = corpus.samples.filter((s) => s.secrets.length === 0);

  it('has at least 1,000 secrets in at least 150 formats and 600 hard negatives', () => {
    const d = describeHeldOutCorpus(corpus);
    expect(positives.length).toBeGreaterThanOrEqual(1000);
    expect(d.secrets).toBeGreaterThanOrEqual(1000);
    expect(d.formats).toBeGreaterThanOrEqual(150);
    expect(negatives.length).toBeGreaterThanOrEqual(600);
  });

  it('spreads secrets and negatives over every listed context', () => {
    for (const c of CONTEXTS) {
      expect(positives.filter((s) => s.context === c).length).toBeGreaterThan(20);
      expect(negatives.filter((s) => s.context === c).length).toBeGreaterThan(10);
    }
    expect(new Set(corpus.samples.map((s) => s.context))).toEqual(new Set(CONTEXTS));
  });

  it('places every listed secret and look-alike in its own payload', () => {
    for (const s of corpus.samples) {
      for (const x of [...s.secrets, ...s.keep]) expect(occursIn(s.payload, x)).toBe(true);
      if (s.secrets.length === 0) expect(s.keep.length).toBeGreaterThan(0);
      expect(s.format.startsWith('negative:')).toBe(s.secrets.length === 0);
    }
  });

  it('has unique ids and JSON payloads that parse', () => {
    expect(new Set(corpus.samples.map((s) => s.id)).size).toBe(corpus.samples.length);
    for (const s of corpus.samples)
      if (s.payload.startsWith('{')) expect(() => JSON.parse(s.payload) as unknown).not.toThrow();
  });

  it('is deterministic for a seed and different across seeds', () => {
    expect(generateHeldOutCorpus(1)).toEqual(corpus);
    const other = generateHeldOutCorpus(2);
    expect(other.samples.map((s) => s.id)).toEqual(corpus.samples.map((s) => s.id));
    expect(other.samples[0]?.payload).not.toEqual(corpus.samples[0]?.payload);
  });

  it('scores the two trivial maskers at the extremes', () => {
    const identity = evaluateHeldOut((p) => p, corpus);
    expect(identity.recall).toBe(0);
    expect(identity.falsePositiveRate).toBe(0);
    const wipe = evaluateHeldOut(() => '', corpus);
    expect(wipe.recall).toBe(1);
    expect(wipe.falsePositiveRate).toBe(1);
    expect(wipe.formats).toBe(identity.formats);
  });
});
