// Review follow-ups of the twelfth pass: leaks (HTML-escaped quotes, ellipsis previews, letters-only
// prose before a digit) and false positives on ordinary text. Each case failed before its fix; where
// a fix narrows a rule, the same case checks that the rule's secret is still masked.
import { scrubText } from '../../../src/core/secrets';

const ctx = { exactSecrets: [], mode: 'mask' as const, skipPatterns: false };
const mask = (text: string): string => scrubText(text, ctx).value;
// Values are joined from pieces so that no secret-shaped literal sits in the source.
const j = (...parts: string[]): string => parts.join('');
const ELLIPSIS = '\u2026';
const BULLET = '\u2022';

const expectMasked = (before: string, secret: string, after = ''): void => {
  const out = mask(`${before}${secret}${after}\n`);
  expect(out).not.toContain(secret);
  // no visible part of the secret longer than a preview is left either
  expect(out).not.toContain(secret.slice(-12));
  expect(out).toContain('[[aegis-masked:');
};

describe('review follow-ups: secrets masked', () => {
  it.each([
    [
      'HTML-escaped JSON in a rendered page',
      '<pre><code>{&quot;password&quot;: &quot;',
      j('Xk9#mP2v', 'Lq8w'),
      '&quot;}</code></pre>',
    ],
    [
      'an escaped api_key pair',
      '<p>{&quot;api_key&quot;:&quot;',
      j('a8Fk2LmQ9x', 'Zr7TpW4vNc3B'),
      '&quot;}</p>',
    ],
    ['an escaped assignment', '<code>DB_PASSWORD=&quot;', j('Qw7!zR4m', 'Tn2vLp'), '&quot;</code>'],
    ['a password with a bullet inside', 'password: ', j('Xk9mP2vLq', BULLET, '8wZr7TpW4vNc3B'), ''],
    [
      'letters-only prose before a later digit',
      'the deploy password is ',
      j('uOjUTovUyL', 'YQRDiutMBJ'),
      ' (expires in 30 days)',
    ],
  ])('%s', (_name, before, secret, after) => expectMasked(before, secret, after));

  it('an XML value in escaped quotes is judged between them', () => {
    expectMasked('<add key="DbPassword" value="&quot;', j('Xk9mP2v', 'Lq8wZ'), '&quot;" />');
    const placeholder = '<add key="DbPassword" value="&quot;changeme&quot;" />';
    expect(mask(placeholder)).toBe(placeholder);
  });

  it('a letters-only value in escaped quotes is judged as the same value in quotes', () => {
    // "password": "<letters>" in plain quotes was masked, the same line rendered as HTML was not.
    expectMasked('<pre>{&quot;password&quot;: &quot;', j('hunterwolf', 'blue'), '&quot;}</pre>');
    expectMasked('<code>DB_PASSWORD=&quot;', j('correcthorse', 'battery'), '&quot;</code>');
    for (const placeholder of [
      '{&quot;password&quot;: &quot;changeme&quot;}',
      '{&quot;password&quot;: &quot;string&quot;}',
      '{&quot;secret&quot;: &quot;&lt;secret&gt;&quot;}',
      'password=&quot;${DB_PASSWORD}&quot;',
      '{&quot;token_type&quot;: &quot;bearer&quot;}',
    ])
      expect(mask(placeholder)).toBe(placeholder);
  });

  it('a truncated key beside an ellipsis is masked, a short redacted preview is not', () => {
    expectMasked('api_key = "', j('Xk9mP2vLq8wZr7', 'TpW4vNc3B', ELLIPSIS), '"');
    for (const preview of [
      `"api_key": "sk-${ELLIPSIS}abcd"`,
      `SLACK_TOKEN=xoxb-${ELLIPSIS}7710`,
      `password: ${BULLET.repeat(8)}3Fxf`,
    ])
      expect(mask(preview)).toBe(preview);
  });
});

describe('review follow-ups: ordinary text left alone', () => {
  it.each([
    ['a German password word', 'Passwort: zurücksetzen'],
    ['a capitalised German word', 'Passwort: Zurücksetzen'],
    ['a French password word', 'Mot de passe : oublié'],
    ['a Java message key', 'messages.put("password.invalid", "Password must have 8 characters");'],
    ['a Java message key (too short)', 'messages.put("password.tooShort", "Password1 is too short");'],
    ['a meta author', '<meta name="author" content="jdoe2024@acme.io">'],
  ])('%s', (_name, text) => expect(mask(text)).toBe(text));

  it('an English sentence after recovery phrase; a BIP-39 mnemonic is still masked', () => {
    const sentence =
      'recovery phrase: write down these words and keep them safe never share them with anyone online today';
    expect(mask(sentence)).toBe(sentence);
    const words = j(
      'abstract decade napkin eager quarter carbon ',
      'accuse narrow absent adapt saddle quarter',
    );
    expect(mask(`recovery phrase: ${words}\n`)).not.toContain(words);
  });

  it('community names, years and links; a random SNMP community is still masked', () => {
    for (const text of [
      'community: gitea-community-2024',
      'community: Gitea2024',
      'Join our community: discord.gg/Gitea2024',
      'community: kubernetes-sigs/v1.2',
    ])
      expect(mask(text)).toBe(text);
    expectMasked('snmp_community: ', j('x7Qm2Kp9', 'RtZ4wLv'));
    expectMasked('COMMUNITY=', j('23QFv2Jhy', 'BfqqrX'));
  });

  it('a JWK-like d holding a commit SHA; a JWK private d is still masked', () => {
    const sha = `{"d": "${j('12819ec847e527c76dc5', '3ce16b28b09d257226f1')}"}`;
    expect(mask(sha)).toBe(sha);
    expectMasked('{"kty":"EC","d": "', j('CBnuRNQYferOfj4BZacazjx', 'S2FuYHxIH2A5Rd-uhB2a'), '"}');
  });

  it('a hook name after /hooks/code/; a random code is still masked', () => {
    for (const text of [
      'url: https://deploy.acme.io/hooks/code/deploy-frontend',
      'https://ci.acme.io/hooks/code/build_web-2',
    ])
      expect(mask(text)).toBe(text);
    expectMasked('https://deploy.acme.io/hooks/code/', j('aZ3kQ9', 'xLm2Pw7R'));
  });

  it('Basic base64(username:password) in docs; a Basic credential is still masked', () => {
    const doc = 'Authorization: Basic base64(username:password)';
    expect(mask(doc)).toBe(doc);
    expectMasked('Authorization: Basic ', j('dXNlcjpTM2NyZXQh', 'UGFzczEyMw=='));
  });

  it('expiry and provider settings in prose; a secret setting is still masked', () => {
    for (const text of [
      'token_expiry is set to 2026-12-31T23:59:59Z',
      'AUTH_PROVIDER is set to oauth2-proxy',
    ])
      expect(mask(text)).toBe(text);
    expectMasked('WARNING: DB_PASSWORD is set to ', j('Orchard-Dragon', '-873-'), ' now');
  });
});
