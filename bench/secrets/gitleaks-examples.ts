// gitleaks' own true- and false-positive examples (bench/secrets/gitleaks/examples.json, MIT, see
// NOTICE), part of the TUNING side: how the port of its rules (src/core/secrets/gitleaks-rules.generated.ts)
// and the whole engine do on them. Strings are stored base64-encoded (no secret-shaped literal in
// the repository).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrubText } from '../../src/core/secrets';
import { PORTED_RULES, scanPortedRules } from '../../src/core/secrets/ported-rules.util';
import type { PatternMatch } from '../../src/core/secrets/pattern-rules.util';

export type GitleaksExample = { rule: string; text: string; secrets: string[] };
export type GitleaksExamples = { commit: string; positives: GitleaksExample[]; negatives: GitleaksExample[] };

const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

export function loadGitleaksExamples(): GitleaksExamples {
  const raw = JSON.parse(readFileSync(join(__dirname, 'gitleaks', 'examples.json'), 'utf8')) as {
    commit: string;
    rules: Array<{ rule: string; tps: Array<{ text: string; secrets: string[] }>; fps: string[] }>;
  };
  const positives: GitleaksExample[] = [];
  const negatives: GitleaksExample[] = [];
  for (const r of raw.rules) {
    for (const tp of r.tps)
      positives.push({ rule: r.rule, text: unb64(tp.text), secrets: tp.secrets.map(unb64) });
    for (const fp of r.fps) negatives.push({ rule: r.rule, text: unb64(fp), secrets: [] });
  }
  return { commit: raw.commit, positives, negatives };
}

export type GitleaksScore = {
  /** examples of the rules the engine ports (all but the file-name and PEM rules) */
  positives: number;
  negatives: number;
  /** the ported rule itself reports the secret gitleaks reports */
  ruleRecall: number;
  /** the ported rule fires on one of that rule's false-positive examples */
  ruleFalsePositiveRate: number;
  /** the whole engine (scrubText, mask mode) leaves none of the secret visible */
  engineRecall: number;
  missedByRule: Record<string, number>;
  falsePositivesByRule: Record<string, number>;
};

export function scoreGitleaksExamples(ex: GitleaksExamples = loadGitleaksExamples()): GitleaksScore {
  const kindOf = new Map(PORTED_RULES.map((r) => [r.id, r.kind]));
  const ctx = { exactSecrets: [] as string[], mode: 'mask' as const, skipPatterns: false };
  let positives = 0;
  let ruleHits = 0;
  let engineHits = 0;
  const missedByRule: Record<string, number> = {};
  for (const p of ex.positives) {
    const kind = kindOf.get(p.rule);
    if (kind === undefined) continue;
    positives++;
    const found: PatternMatch[] = [];
    scanPortedRules(p.text, found);
    const spans = found.filter((m) => m.kind === kind).map((m) => [m.start, m.end] as const);
    const covered = p.secrets.every((s) => {
      for (let at = p.text.indexOf(s); at >= 0; at = p.text.indexOf(s, at + 1))
        if (spans.some(([a, b]) => a <= at && b >= at + s.length)) return true;
      return false;
    });
    if (covered) ruleHits++;
    else missedByRule[p.rule] = (missedByRule[p.rule] ?? 0) + 1;
    const out = scrubText(p.text, ctx).value;
    if (p.secrets.every((s) => !out.includes(s))) engineHits++;
  }
  let negatives = 0;
  let ruleFps = 0;
  const falsePositivesByRule: Record<string, number> = {};
  for (const n of ex.negatives) {
    const kind = kindOf.get(n.rule);
    if (kind === undefined) continue;
    negatives++;
    const found: PatternMatch[] = [];
    scanPortedRules(n.text, found);
    if (found.some((m) => m.kind === kind)) {
      ruleFps++;
      falsePositivesByRule[n.rule] = (falsePositivesByRule[n.rule] ?? 0) + 1;
    }
  }
  return {
    positives,
    negatives,
    ruleRecall: ruleHits / positives,
    ruleFalsePositiveRate: ruleFps / negatives,
    engineRecall: engineHits / positives,
    missedByRule,
    falsePositivesByRule,
  };
}
