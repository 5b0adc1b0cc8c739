// Twelfth pass (issue 12): rules written from the misses and false positives of the blind-written
// tuning corpus (bench/secrets/blind-tuning). Each case failed on the engine before its rule.
import { scrubText } from '../../../src/core/secrets';

const ctx = { exactSecrets: [], mode: 'mask' as const, skipPatterns: false };
const mask = (text: string): string => scrubText(text, ctx).value;
// Values are joined from pieces so that no secret-shaped literal sits in the source.
const j = (...parts: string[]): string => parts.join('');

describe('blind tuning: look-alikes left alone', () => {
  it.each([
    [
      'a Mapbox public token',
      `mapboxgl.accessToken = '${j('pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6InMxYmE0NXhpdmV6YjMwcGY4YnJucWxkaDUifQ', '.NM7VOBCbHn_3CCoDUiE5dI')}';`,
    ],
    [
      'a Stripe publishable key',
      `NEXT_PUBLIC_STRIPE_KEY=${j('pk_live_', 'Vo7syrAqmYeoSVpJg7ob5Wqzbf', 'bK5yp9v3VpWU7SG9W3SXKVTwo43')}`,
    ],
    ['a PostHog project key', `  POSTHOG_KEY: ${j('phc_', 'ecZFr36ZQ0MTFuhfbfIfYQgQC7HlIUAWgw9AuR2TSp8')}`],
    [
      'a Secrets Manager ARN',
      'password: arn:aws:secretsmanager:eu-west-1:926958343389:secret:prod/db-a9yKaI',
    ],
    ['a Key Vault reference', 'password: akv://kv-acme-prod/smtp-password'],
    ['a CSP nonce', "Content-Security-Policy: script-src 'nonce-4RkCj2cSxNU1s92hIrfI2w==' 'strict-dynamic'"],
    ['a test-key label', '"password": "test-key"'],
    ['a key name as the value', 'API_KEY = "AWS_SECRET_ACCESS_KEY="'],
    ['a redacted preview', '<key>••••3Fxf</key>'],
    [
      'a commit SHA under [credentials]',
      '[credentials]\ncommit_url = "12819ec847e527c76dc53ce16b28b09d257226f1"\n',
    ],
    [
      'an Ethereum address under [credentials]',
      '[credentials]\naddress = "0x1647a37175c9cebb92cc89edf4d83b8dbe0490f0"\n',
    ],
    [
      'a SHA after /hooks/sha/',
      'url: https://deploy.acme.io/hooks/sha/d9903a58f568bd05c49702d41b6182695f07bde7',
    ],
    [
      'an id after /hooks/id/',
      'url: https://deploy.acme.io/hooks/id/QmSxk3Z4hpBrtmLVC6ULGnumjBf3dVpM7QzHzARDUk2pNZ',
    ],
    ['a setter of a length', 'props.setProperty("PASSWORD_MIN_LENGTH", "12345678")'],
  ])('%s', (_name, text) => expect(mask(text)).toBe(text));
});

describe('blind tuning: secrets masked', () => {
  it.each([
    [
      'a token after /hooks/token/, percent-encoded',
      'https://deploy.acme.io/hooks/token/',
      j('%3Cr%6036%7B%22', '%2B9Z%25%28s7'),
    ],
    ['an app password after /hooks/key/', 'https://deploy.acme.io/hooks/key/', j('ozqs-pdor', '-oxql-nhyy')],
    ['a ??= default', 'process.env.PASSWORD ??= "', j('vGCr%PX', '@Atdp-f^a')],
    ['os.Setenv', 'os.Setenv("OPSGENIE_API_KEY", "', j('6aa1b13f-f13c', '-451b-8432-c7fd4d246a6f')],
    [
      'SetEnvironmentVariable',
      "[Environment]::SetEnvironmentVariable('WISE_API_TOKEN', '",
      j('5b07136d-0e57', '-48b4-a09a-b624f2371106'),
    ],
    ['setProperty', 'props.setProperty("CLICKHOUSE_PASSWORD", "', j('znCsFzF1p17', 'ebz~ykonnC')],
  ])('%s', (_name, before, secret) => {
    const q = before.endsWith("'") ? "'" : before.endsWith('"') ? '"' : '';
    const out = mask(`${before}${secret}${q} and more\n`);
    expect(out).not.toContain(secret);
    expect(out).toContain('[[aegis-masked:');
  });
});
