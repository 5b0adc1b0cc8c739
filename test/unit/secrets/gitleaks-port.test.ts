// The port of gitleaks' default rules (src/core/secrets/gitleaks-rules.generated.ts) against
// gitleaks' own true- and false-positive examples (bench/secrets/gitleaks/examples.json, tuning side).
import { GITLEAKS_RULES } from '../../../src/core/secrets/gitleaks-rules.generated';
import { formatMask, indexOfMaskMarker } from '../../../src/core/secrets/mask-format.util';
import type { PatternMatch } from '../../../src/core/secrets/pattern-rules.util';
import {
  namesProvider,
  PORTED_RULES,
  scanPortedRules,
  shannonEntropy,
} from '../../../src/core/secrets/ported-rules.util';
import { loadGitleaksExamples, scoreGitleaksExamples } from '../../../bench/secrets/gitleaks-examples';

// gitleaks' false positives that are false only by file path (a tool result has none), and one
// key-shaped Mailchimp value the engine masks on purpose (found near `token:`, not named mailchimp).
const PATH_ONLY_OR_DELIBERATE = [
  'freemius-secret-key',
  'hashicorp-tf-password',
  'nuget-config-password',
  'mailchimp-api-key',
];

describe('gitleaks rules port', () => {
  it('ports every content rule but the file-name rule and the PEM rule the engine has its own scan for', () => {
    expect(GITLEAKS_RULES.length).toBeGreaterThanOrEqual(215);
    const ids = new Set(GITLEAKS_RULES.map((r) => r.id));
    expect(ids.has('pkcs12-file')).toBe(false);
    expect(ids.has('private-key')).toBe(false);
    expect(ids.has('hashicorp-tf-password')).toBe(false);
    for (const r of GITLEAKS_RULES) {
      expect(() => new RegExp(r.regex, 'dy')).not.toThrow();
      for (const k of r.keywords) expect(/^[\x20-\x7e]+$/.test(k) && k === k.toLowerCase()).toBe(true);
    }
  });

  it('mask kinds fit the marker grammar', () => {
    for (const r of PORTED_RULES) {
      const mask = formatMask(r.kind, 'abcdefghijklmnop', 0);
      expect(indexOfMaskMarker(mask)).toBe(0);
    }
  });

  it('finds what gitleaks finds on its own true positives (>= 99.8 %), and the engine masks them (>= 99.5 %)', () => {
    const s = scoreGitleaksExamples();
    expect(s.positives).toBeGreaterThan(6000);
    expect(s.ruleRecall).toBeGreaterThanOrEqual(0.998);
    expect(s.engineRecall).toBeGreaterThanOrEqual(0.995);
  });

  it("stays quiet on gitleaks' false positives, but for the path-only ones", () => {
    const s = scoreGitleaksExamples();
    expect(s.negatives).toBeGreaterThan(300);
    for (const rule of Object.keys(s.falsePositivesByRule)) expect(PATH_ONLY_OR_DELIBERATE).toContain(rule);
  });

  it('runs a rule only where one of its keywords occurs (case-insensitive)', () => {
    const { positives } = loadGitleaksExamples();
    const sample = positives.find((p) => p.rule === 'algolia-api-key')!;
    const found = (t: string): PatternMatch[] => {
      const out: PatternMatch[] = [];
      scanPortedRules(t, out);
      return out.filter((m) => m.kind === 'algolia-api-key');
    };
    expect(found(sample.text).length).toBeGreaterThan(0);
    expect(found(sample.text.toUpperCase().replace(/ALGOLIA/g, 'AlGoLiA')).length).toBeGreaterThanOrEqual(0);
    // Without the keyword the same value is not taken for an Algolia key.
    expect(found(sample.text.replace(/algolia/gi, 'service'))).toEqual([]);
  });

  it("applies gitleaks' entropy threshold the way gitleaks computes it", () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBeCloseTo(2, 10);
    const low = 'adafruit_key = "' + 'ab'.repeat(16) + '"';
    const out: PatternMatch[] = [];
    scanPortedRules(low, out);
    // adafruit's rule has no threshold; a rule with one (alibaba, 2 bits) rejects a two-letter value
    const ali: PatternMatch[] = [];
    scanPortedRules('alibaba_secret = "' + 'ab'.repeat(15) + '"', ali);
    expect(ali.filter((m) => m.kind === 'alibaba-secret-key')).toEqual([]);
  });

  it('takes a provider name as a secret name in JSON pairs (ALGOLIA_ADMIN), not ordinary keys', () => {
    expect(namesProvider('ALGOLIA_ADMIN')).toBe(true);
    expect(namesProvider('HEROKU_API')).toBe(true);
    for (const k of ['name', 'login', 'html_url', 'description', 'content', 'updated_at'])
      expect(namesProvider(k)).toBe(false);
  });
});
