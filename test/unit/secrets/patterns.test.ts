// Pattern rules one by one, the look-alikes they must leave alone, and adversarial inputs (checked
// for correct output here; their linear scaling is measured by the bench, not by timed unit tests).
import { mulberry32, NEGATIVE_FORMATS, SECRET_FORMATS } from '../../../bench/secrets/corpus';
import { ADVERSARIAL } from '../../../bench/secrets/secrets-bench';
import { scanText, scrubText } from '../../../src/core/secrets';

const ctx = { exactSecrets: [], mode: 'mask' as const, skipPatterns: false };

describe('secret formats', () => {
  const rng = mulberry32(99);
  it.each(SECRET_FORMATS.map((f) => [f.name, f] as const))('masks %s', (_name, f) => {
    for (let i = 0; i < 5; i++) {
      const { secret, line } = f.make(rng);
      const text = line === '' ? `config: ${secret}\n` : `${line}\n`;
      const out = scrubText(text, ctx).value;
      expect(out).not.toContain(secret);
      expect(out).toContain('[[aegis-masked:');
    }
  });
});

describe('look-alikes stay intact', () => {
  const rng = mulberry32(98);
  it.each(NEGATIVE_FORMATS.map((f) => [f.name, f] as const))('leaves %s alone', (_name, f) => {
    for (let i = 0; i < 5; i++) {
      const line = f.make(rng);
      expect(scanText(line)).toEqual([]);
    }
  });

  it.each([
    'YOUR_API_KEY',
    'password=${DB_PASSWORD}',
    'api_key: <token>',
    'token = "xxxxxxxxxxxxxxxx"',
    'password: changeme',
    'secret: "{{ .Values.secret }}"',
    'AUTH_TOKEN=$AUTH_TOKEN',
    'password: "[REDACTED]"',
    'https://user:password@example.com/',
    'https://alice@gitea.example.com/org/repo.git',
  ])('placeholder %s', (text) => {
    expect(scanText(text)).toEqual([]);
  });
});

describe('matches', () => {
  it('masks only the value of an assignment, in env, YAML, JSON and JSON-escaped text', () => {
    expect(scrubText('DB_PASSWORD=s3cr3t-Value', ctx).value).toBe(
      'DB_PASSWORD=[[aegis-masked:secret-assignment:...:12]]',
    );
    expect(scrubText('  api_key: "q8Zr2LmN5pXw"', ctx).value).toBe(
      '  api_key: "[[aegis-masked:secret-assignment:...:12]]"',
    );
    expect(scrubText('{"client_secret": "q8Zr2LmN5pXw"}', ctx).value).toBe(
      '{"client_secret": "[[aegis-masked:secret-assignment:...:12]]"}',
    );
    expect(scrubText('{"m":"{\\"password\\": \\"q8Zr2LmN5pXw\\"}"}', ctx).value).toBe(
      '{"m":"{\\"password\\": \\"[[aegis-masked:secret-assignment:...:12]]\\"}"}',
    );
  });

  it('masks the password of a URL, not the user or host', () => {
    expect(scrubText('postgres://app:Sup3rS3cret@db:5432/app', ctx).value).toBe(
      'postgres://app:[[aegis-masked:url-credentials:...:11]]@db:5432/app',
    );
  });

  it('masks Authorization headers after the scheme', () => {
    expect(scrubText('Authorization: Bearer abcDEF123456ghiJKL', ctx).value).toBe(
      'Authorization: Bearer [[aegis-masked:authorization-header:...:18]]',
    );
    expect(scrubText("-H 'authorization: token 0123456789abcdef0123456789abcdef01234567'", ctx).value).toBe(
      "-H 'authorization: token [[aegis-masked:authorization-header:...:40]]'",
    );
  });

  it('does not mask a private key block across a JSON string boundary', () => {
    const begin = ['-----BEG', 'IN RSA PRIV', 'ATE KEY-----'].join('');
    const out = scrubText(`{"a":"${begin}\\nMIIabc","b":"keep me"}`, ctx).value;
    expect(out).toContain('"b":"keep me"');
    expect(out).not.toContain('MIIabc');
  });

  it('does not mask a public key or certificate block', () => {
    const pub = [
      ['-----BEG', 'IN PUBLIC KEY-----'].join(''),
      'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
      ['-----EN', 'D PUBLIC KEY-----'].join(''),
    ].join('\n');
    expect(scanText(pub)).toEqual([]);
  });
});

describe('adversarial inputs', () => {
  it.each(ADVERSARIAL.map((a) => [a.name, a] as const))('%s completes with sane output', (_name, a) => {
    const text = a.make(64 * 1024);
    const r = scrubText(text, { exactSecrets: ['secret-value'], mode: 'mask', skipPatterns: false });
    expect(typeof r.value).toBe('string');
    expect(r.redactions).toBe(0);
    // Nothing here is a real secret except what near-miss inputs may legitimately contain.
    if (
      [
        'run-of-a',
        'run-of-equals',
        'hex-run',
        'near-miss-aws',
        'jwt-prefixes',
        'url-schemes',
        'mask-like',
        'pem-begin-no-end',
        'blanks-after-password-line',
        'blanks-after-recovery-codes',
        'blanks-after-table-header',
        'blanks-after-csv-header',
        'blanks-after-prose-verb',
        'blanks-after-credentials',
      ].includes(a.name) === false
    )
      return;
    if (a.name === 'pem-begin-no-end') expect(r.masks).toBeGreaterThan(0);
    else expect(r.masks).toBe(0);
  });

  it('a 1 MB run of one character produces no match', () => {
    expect(scanText('a'.repeat(1 << 20))).toEqual([]);
    expect(scanText('='.repeat(1 << 20))).toEqual([]);
  });
});

describe('brackets in an unquoted value', () => {
  // Fixed draws with a bracket early, where the value's grammar stopped before (a prefix under 6).
  const values = ['Z<WfR)7-p%1L0vZ@', 'w9jT>a*XyC6rS6Lf', 'eHt)%hI[rIgBlxq', 'sf]3yR#KQZUiXlE}'];
  it.each(values)('masks %s whole in .env, YAML and ini', (v) => {
    for (const text of [
      `DB_PASSWORD=${v}\n`,
      `database:\n  password: ${v}\n`,
      `[mysql]\npassword = ${v}\n`,
    ]) {
      const out = scrubText(text, ctx).value;
      expect(out).not.toContain(v.slice(0, 4));
    }
  });
  it.each([
    'env: {DB_PASSWORD: required, PORT: 5432}',
    '(see TOKEN=none) and retry',
    'password: <redacted> # rotated',
  ])('leaves %s alone', (text) => expect(scrubText(text, ctx).value).toBe(text));
});

describe('symbols in a prose value', () => {
  // `*` and brackets inside a drawn password; closing ones at its end belong to the sentence.
  it.each(['b*tDLiKz5qR9zd8w', 'E*^s(j7k]Fq#b[wp', 'N+5)hI@h9YDoihoh'])(
    'masks %s after "password is"',
    (v) => {
      const out = scrubText(`the admin password is ${v}\n`, ctx).value;
      expect(out).not.toContain(v.slice(0, 6));
    },
  );
  it('keeps a closing bracket of the sentence out of the mask', () => {
    const out = scrubText('(the token is Xk9fQ2mZp7Lw3Rt8)\n', ctx).value;
    expect(out.endsWith(')\n')).toBe(true);
    expect(out).not.toContain('Xk9fQ2mZp7Lw3Rt8');
  });
});
