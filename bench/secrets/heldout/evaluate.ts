// Scores a masking function on the held-out corpus: recall over secrets, false-positive rate over
// hard negatives. A secret is found when it no longer occurs in mask(payload); a negative is a
// false positive when any of its look-alikes no longer occurs unchanged.
import { generateHeldOutCorpus, occursIn, type HeldOutCorpus } from './corpus';

export type HeldOutScore = {
  secrets: number;
  formats: number;
  negatives: number;
  recall: number;
  falsePositiveRate: number;
  missedByFormat: Record<string, number>;
  falsePositivesByFormat: Record<string, number>;
};

export function evaluateHeldOut(
  mask: (payload: string) => string,
  corpus: HeldOutCorpus = generateHeldOutCorpus(),
): HeldOutScore {
  let secrets = 0;
  let found = 0;
  let negatives = 0;
  let falsePositives = 0;
  const formats = new Set<string>();
  const missedByFormat: Record<string, number> = {};
  const falsePositivesByFormat: Record<string, number> = {};
  for (const sample of corpus.samples) {
    const masked = mask(sample.payload);
    if (sample.secrets.length > 0) {
      formats.add(sample.format);
      for (const s of sample.secrets) {
        secrets += 1;
        if (occursIn(masked, s)) missedByFormat[sample.format] = (missedByFormat[sample.format] ?? 0) + 1;
        else found += 1;
      }
    } else {
      negatives += 1;
      if (sample.keep.some((k) => !occursIn(masked, k))) {
        falsePositives += 1;
        falsePositivesByFormat[sample.format] = (falsePositivesByFormat[sample.format] ?? 0) + 1;
      }
    }
  }
  return {
    secrets,
    formats: formats.size,
    negatives,
    recall: secrets === 0 ? 0 : found / secrets,
    falsePositiveRate: negatives === 0 ? 0 : falsePositives / negatives,
    missedByFormat,
    falsePositivesByFormat,
  };
}
