import { scoreCorpus } from './secrets-bench';
const s = scoreCorpus();
console.log(JSON.stringify({ recall: s.recall, fp: s.falsePositiveRate, n: s.positives, neg: s.negatives }));
const miss: Record<string, number> = {};
for (const m of s.missed) miss[m.format] = (miss[m.format] ?? 0) + 1;
const fps: Record<string, number> = {};
for (const m of s.falsePositives) fps[m.format] = (fps[m.format] ?? 0) + 1;
console.log('missed', JSON.stringify(miss));
console.log('fp', JSON.stringify(fps));
