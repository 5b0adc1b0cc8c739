// Values that look like a secret's slot but are not one: documentation placeholders, template
// variables, code expressions, and the service's own redaction/mask output.
const PLACEHOLDER_WORDS = new Set([
  'true',
  'false',
  'null',
  'none',
  'nil',
  'undefined',
  'empty',
  'required',
  'optional',
  'string',
  'text',
  'hidden',
  'secret',
  'secrets',
  'password',
  'passwd',
  'pass',
  'token',
  'apikey',
  'api_key',
  'api-key',
  'key',
  'changeme',
  'change_me',
  'change-me',
  'changeit',
  'letmein',
  'admin',
  'root',
  'test',
  'testing',
  'dummy',
  'sample',
  'example',
  'placeholder',
  'redacted',
  'masked',
  'todo',
  'tbd',
  'n/a',
  'xxx',
  'foo',
  'bar',
  'foobar',
  'mypassword',
  'mysecret',
  'mytoken',
  'yourpassword',
  'yoursecret',
  'yourtoken',
  'secret123',
  'password123',
]);

// Brackets mark a placeholder or code only in their places: wrapping the value (<token>, {password},
// [REDACTED], (hidden)), an interpolation (#{x}, %{x}, ${x}), a call or an index (getpass(),
// os.environ["X"], request.form['pw']), an arrow. Anywhere else they are a drawn password's symbols.
const PLACEHOLDER_RE =
  /example|xxxx|\*\*\*|\.\.\.|your[_-]?[a-z]|change[_-]?me|placeholder|redacted|aegis-masked|dummy|sample|fake|replace[_-]?(?:me|with|this)|insert[_-]?|^[<{[(]|[#%@$]\{|\{\w*\}|\(\)|=>|->|^[A-Za-z_$][\w$.:-]*(?:\(.*\)|\[.*\])$|^[A-Za-z_$][\w$.:-]*[([]["'`)]|^[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)+(?:\([\w.]*|\[)$|\{\{|%\(|^\$[A-Za-z_]|^!!|^![A-Za-z][A-Za-z0-9]*$|^%[A-Za-z_]+%$|^(?:process\.env|os\.environ|env\.|self\.|this\.|config\.|settings\.|secrets\.|vars\.|params\.|inputs\.|getenv|System\.getenv)/i;

/** config.db.password, ctx.Secrets.ApiKey, env.DB_PASSWORD: each segment a word, snake, camel or Pascal case. */
function dottedIdentifier(v: string): boolean {
  return (
    DOTTED_IDENTIFIER.test(v) && v.split('.').every((seg) => WORD_SEGMENT.test(seg)) && !randomSegment(v)
  );
}
const WORD_SEGMENT =
  /^_?(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+[A-Z]?|[A-Z]+[a-z0-9]*(?:[A-Z][a-z0-9]+)*[A-Z]?)$/;
const DOTTED_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,60}(?:\.[A-Za-z_][A-Za-z0-9_]{0,60}){1,8}$/;

/**
 * PLACEHOLDER_RE finds a placeholder's mark; a word in random case inside a long random value
 * (`...FaKE...` in a 190-character token) is chance, not a mark.
 */
function placeholderWord(v: string): boolean {
  const m = PLACEHOLDER_RE.exec(v);
  if (!m) return false;
  const w = m[0];
  if (v.length < 32 || !/^[A-Za-z]{4,}$/.test(w)) return true;
  if (w === w.toLowerCase() || w === w.toUpperCase() || w === w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    return true;
  // Mixed case: look for another mark after this one.
  return placeholderWord(v.slice(m.index + 1));
}

/**
 * A dotted value with a random part (a Vault token s.<random>, a password drawn with a `.`) is not
 * an identifier: a long segment of both cases and a digit; a segment whose case changes often beside
 * a digit or four consonants together; capitals and five lower-case consonants together, which words
 * do not have.
 */
function randomSegment(v: string): boolean {
  return v
    .split('.')
    .some(
      (seg) =>
        (seg.length >= 16 && /[0-9]/.test(seg) && /[a-z]/.test(seg) && /[A-Z]/.test(seg)) ||
        (seg.length >= 12 &&
          caseChanges(seg) >= 4 &&
          (/[0-9]/.test(seg) || /[b-df-hj-np-tv-z]{4}/i.test(seg))) ||
        (seg.length >= 8 && /[A-Z]/.test(seg) && /[b-df-hj-np-tv-z]{5}/.test(seg)),
    );
}

/** How often a value switches between lower- and upper-case letters (identifiers: once per word). */
function caseChanges(s: string): number {
  let n = 0;
  for (let i = 1; i < s.length; i++) {
    const a = s.charCodeAt(i - 1);
    const b = s.charCodeAt(i);
    if ((a >= 97 && a <= 122 && b >= 65 && b <= 90) || (a >= 65 && a <= 90 && b >= 97 && b <= 122)) n++;
  }
  return n;
}

// Values in a secret's slot that are not secrets (twelfth pass, blind-written tuning corpus): public
// keys meant for browsers (Mapbox `pk.`, Stripe `pk_live_`/`pk_test_`, PostHog `phc_`), references to
// a secrets manager (an AWS Secrets Manager or SSM ARN, `akv://`, `op://`, `vault://` ...), a key's
// name where its value should be (`AWS_SECRET_ACCESS_KEY=`, `password:`), `test-key`-like labels,
// `TODO_SET_ME` and vals' `ref+sops://` references.
const NOT_A_SECRET_RE =
  /^(?:pk\.eyJ|pk_(?:live|test)_|phc_|arn:aws[a-z-]*:(?:secretsmanager|ssm|kms):|(?:akv|azurekeyvault|vault|op|gcpsm|awssm|sops|bws|doppler|infisical):\/\/|projects\/[^/\s]+\/secrets\/|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=$|[a-z]+(?:_[a-z]+)*:$|ref\+[a-z0-9]+:\/\/|vault:[a-z0-9_-]+\/|(?:test|dev|demo|local|sample|my)[-_](?:key|token|secret|password|pass|pwd)(?:[-_][0-9x]{1,12})?$|todo[-_]|set[-_]?me$)/i;

/**
 * A redacted preview (`••••3Fxf`, `xoxb-…7710`, `sk-…abcd`): bullets or an ellipsis with only short
 * visible parts beside them. A long visible run beside an ellipsis is a truncated real secret.
 */
function redactedPreview(v: string): boolean {
  if (!/[\u2022\u2026]/.test(v)) return false;
  return v.split(/[\u2022\u2026]+/).every((part) => part.length <= PREVIEW_VISIBLE);
}
const PREVIEW_VISIBLE = 12;

/**
 * `dotted`: whether a dotted identifier (config.db.password) counts as a placeholder; token formats
 * with dots (dp.pt.<random>, s.<random>) are checked with false.
 */
export function isPlaceholder(value: string, dotted = true): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (PLACEHOLDER_WORDS.has(v.toLowerCase())) return true;
  // One character repeated (xxxxxxxx, ********, 00000000).
  let same = true;
  for (let i = 1; i < v.length && same; i++) same = v.charCodeAt(i) === v.charCodeAt(0);
  if (same) return true;
  if (v.length > 400) return false;
  // In HTML-escaped quotes (`&quot;X&quot;`, rendered Markdown, an XML attribute): what is between.
  if (v.startsWith('&quot;')) return isPlaceholder(v.slice(6, v.endsWith('&quot;') ? -6 : undefined), dotted);
  if (NOT_A_SECRET_RE.test(v) || redactedPreview(v)) return true;
  return placeholderWord(v) || (dotted && dottedIdentifier(v));
}
