// The Show list of issue 5 for the secrets layer: exact redaction, masking, block mode, credential
// issuing results, base64 contents and the write-back guard.
import {
  collectBodySecrets,
  CREDENTIAL_ISSUING_OPERATIONS,
  findMaskMarker,
  redactArguments,
  REDACTED,
  scrubJsonText,
  scrubResult,
  scrubText,
} from '../../../src/core/secrets';
import { scrubSerialised, variantCacheKeys } from '../../../src/core/secrets/scrub.util';
import { awsKeyId, b64, giteaToken, githubToken, privateKeyPem, randomWord, unb64 } from './helpers';

const mask = (exactSecrets: string[] = []) => ({ exactSecrets, mode: 'mask' as const, skipPatterns: false });

describe('exact redaction (layer 1)', () => {
  it('redacts the caller token in strings and object keys at any depth', () => {
    const token = giteaToken();
    const value = { a: [{ b: { c: `token=${token}` } }], [token]: { nested: [token, `x${token}y`] } };
    const r = scrubResult(value, mask([token]));
    const text = JSON.stringify(r.value);
    expect(text).not.toContain(token);
    expect(r.value).toEqual({
      a: [{ b: { c: `token=${REDACTED}` } }],
      [REDACTED]: { nested: [REDACTED, `x${REDACTED}y`] },
    });
    expect(r.redactions).toBe(4);
  });

  it('applies with SECRET_DETECTION_MODE=off too', () => {
    const token = giteaToken();
    const r = scrubResult({ body: token }, { exactSecrets: [token], mode: 'off', skipPatterns: false });
    expect(r.value).toEqual({ body: REDACTED });
  });

  it('redacts a token inside an error message from Gitea', () => {
    const token = giteaToken();
    const r = scrubText(`token is invalid: ${token} (Authorization: token ${token})`, mask([token]));
    expect(r.value).toBe(`token is invalid: ${REDACTED} (Authorization: token ${REDACTED})`);
    expect(r.redactions).toBe(2);
  });

  it('redacts the authorization_header a created webhook echoes back', () => {
    const body = {
      type: 'gitea',
      config: { url: 'https://ci.example.com/hook', content_type: 'json' },
      authorization_header: `Bearer ${randomWord(24)}`,
    };
    const secrets = collectBodySecrets(body, 'repoCreateHook');
    const echo = {
      id: 7,
      type: 'gitea',
      config: body.config,
      authorization_header: body.authorization_header,
      active: true,
    };
    const r = scrubResult(echo, { exactSecrets: secrets, mode: 'off', skipPatterns: false });
    expect((r.value as { authorization_header: string }).authorization_header).toBe(REDACTED);
  });

  it('does not redact a 3-character password but does redact a 3-character Action secret', () => {
    const result = { message: 'value abc and xyz seen', abc: 1 };
    const pw = collectBodySecrets({ password: 'abc' }, 'adminCreateUser');
    expect(scrubResult(result, mask(pw)).value).toEqual(result);
    const data = collectBodySecrets({ data: 'xyz' }, 'updateRepoSecret');
    expect(scrubResult(result, mask(data)).value).toEqual({
      message: `value abc and ${REDACTED} seen`,
      abc: 1,
    });
    const inKey = collectBodySecrets({ data: 'abc' }, 'updateRepoSecret');
    expect(scrubResult(result, mask(inKey)).value).toEqual({
      message: `value ${REDACTED} and xyz seen`,
      [REDACTED]: 1,
    });
  });

  it('redacts a body secret collected at depth 8 and not one at depth 9', () => {
    let eight: Record<string, unknown> = { password: 'eight-level-secret' };
    for (let i = 0; i < 7; i++) eight = { n: eight };
    const nine = { n: eight };
    (eight as { n: unknown }).n = eight.n; // keep shape
    const echo = { message: 'got eight-level-secret' };
    expect(scrubResult(echo, mask(collectBodySecrets(eight, 'x'))).value).toEqual({
      message: `got ${REDACTED}`,
    });
    expect(scrubResult(echo, mask(collectBodySecrets(nine, 'x'))).value).toEqual(echo);
  });

  it('ignores empty secrets instead of redacting everything', () => {
    const r = scrubResult({ a: 'hello' }, mask(['', '']));
    expect(r.value).toEqual({ a: 'hello' });
    expect(r.redactions).toBe(0);
    expect(scrubText('hello', mask([''])).value).toBe('hello');
  });

  it('redacts URL-encoded and JSON-escaped forms of a secret', () => {
    const secret = 'p@ss"w/rd+' + randomWord(8);
    expect(scrubText(`https://x/?p=${encodeURIComponent(secret)}`, mask([secret])).value).toBe(
      `https://x/?p=${REDACTED}`,
    );
    expect(scrubText(JSON.stringify({ p: secret }), mask([secret])).value).toBe(`{"p":"${REDACTED}"}`);
    expect(scrubResult({ p: secret, q: [secret] }, mask([secret])).value).toEqual({
      p: REDACTED,
      q: [REDACTED],
    });
  });

  it('keeps no secret in memory as a key of its variant cache', () => {
    const secrets = [`sk${randomWord(14)}`, `ghp${randomWord(12)}`];
    const text = `a ${secrets[1]} b ${encodeURIComponent(secrets[0]!)}`;
    expect(scrubText(text, mask(secrets)).value).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(scrubResult({ t: text }, mask(secrets)).value).toEqual({ t: `a ${REDACTED} b ${REDACTED}` });
    const keys = variantCacheKeys();
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) for (const s of secrets) expect(k.includes(s.slice(0, 8))).toBe(false);
  });

  it('tells apart lists of secrets that would join to the same text', () => {
    const a = randomWord(6);
    const b = randomWord(6);
    // a list whose one secret holds a NUL (never redacted), then the list of its two halves
    expect(scrubText(`x ${a} ${b}`, mask([`${a}\u0000${b}`])).value).toBe(`x ${a} ${b}`);
    expect(scrubText(`x ${a} ${b}`, mask([a, b])).value).toBe(`x ${REDACTED} ${REDACTED}`);
  });

  it('tells apart a secret with a lone surrogate from the one its UTF-8 form would stand for', () => {
    const a = randomWord(8);
    const replaced = `${a}\uFFFD`; // what a lone surrogate becomes in UTF-8
    const lone = `${a}\uD800`;
    expect(scrubText(`x ${replaced} y`, mask([replaced])).value).toBe(`x ${REDACTED} y`);
    expect(scrubText(`x ${lone} y`, mask([lone])).value).toBe(`x ${REDACTED} y`);
    expect(scrubResult({ t: `x ${lone} y`, u: `x ${replaced} y` }, mask([lone])).value).toEqual({
      t: `x ${REDACTED} y`,
      u: `x ${replaced} y`,
    });
  });

  it('handles JSON nested far deeper than any recursion limit', () => {
    const token = giteaToken();
    let node: unknown = { leaf: token, [token]: 1 };
    for (let i = 0; i < 200_000; i++) node = [node];
    const r = scrubResult({ top: token, node }, mask([token]));
    expect(r.redactions).toBe(3);
    let cur = (r.value as { node: unknown }).node;
    while (Array.isArray(cur)) cur = cur[0];
    expect(cur).toEqual({ leaf: REDACTED, [REDACTED]: 1 });
  });
});

describe('pattern masking (layer 2)', () => {
  it('masks a provider token, keeping its kind, prefix and length', () => {
    const t = githubToken();
    const r = scrubResult({ body: `leaked ${t} here` }, mask());
    expect(r.value).toEqual({ body: `leaked [[aegis-masked:github-token:${t.slice(0, 4)}...:40]] here` });
    expect(r.masks).toBe(1);
  });

  it('masks tokens right after a newline or tab, which the JSON-text path sees as \\n and \\t', () => {
    const t = githubToken();
    const k = awsKeyId();
    const r = scrubResult({ body: `Steps:\n${t}\n\t${k}` }, mask());
    expect(JSON.stringify(r.value)).not.toContain(t.slice(4));
    expect(JSON.stringify(r.value)).not.toContain(k.slice(4));
    expect(r.masks).toBe(2);
  });

  it("leaves a bare 40-hex value alone (a Gitea token is the exact layer's job)", () => {
    const hex = giteaToken();
    expect(scrubResult({ sha: hex, message: `merge ${hex}` }, mask()).masks).toBe(0);
  });

  it('off mode skips pattern masking', () => {
    const r = scrubResult({ body: githubToken() }, { exactSecrets: [], mode: 'off', skipPatterns: false });
    expect(r.masks).toBe(0);
  });

  it('masks secrets inside error message text', () => {
    const k = awsKeyId();
    const r = scrubText(`upload failed for ${k}: access denied`, mask());
    expect(r.value).toBe(
      `upload failed for [[aegis-masked:aws-access-key-id:AKIA...:20]]: access denied`.replace(
        'AKIA',
        k.slice(0, 4),
      ),
    );
  });

  it('gives the same result through the fast JSON-text path and the walk', () => {
    const t = githubToken();
    const items = Array.from({ length: 50 }, (_, i) => ({
      id: i,
      body: i % 10 === 0 ? `token: ${t}` : 'plain text',
      password: i === 3 ? 'Hunter2-long' : 'x',
    }));
    const fast = scrubResult(items, mask());
    const walked = scrubResult(items, mask(['~^'])); // a secret < 4 chars forces the walk
    expect(fast.value).toEqual(walked.value);
    expect(fast.masks).toBe(walked.masks);
  });
});

describe('block mode', () => {
  it('blocks a file with a private key, naming the kind and never the value', () => {
    const pem = privateKeyPem();
    const file = {
      name: 'id_rsa',
      path: 'deploy/id_rsa',
      type: 'file',
      encoding: 'base64',
      content: b64(`${pem}\n`),
      sha: giteaToken(),
    };
    const r = scrubResult(file, { exactSecrets: [], mode: 'block', skipPatterns: false });
    expect(r.blocked).toEqual({ kinds: ['private-key'] });
    expect(JSON.stringify(r.blocked)).not.toContain(pem.split('\n')[2]!);
  });

  it('does not block a clean result', () => {
    expect(
      scrubResult({ body: 'nothing here' }, { exactSecrets: [], mode: 'block', skipPatterns: false }).blocked,
    ).toBeNull();
  });
});

describe('credential-issuing operations', () => {
  it('returns the new token whole while still redacting the caller token in the same result', () => {
    expect(CREDENTIAL_ISSUING_OPERATIONS.has('userCreateToken')).toBe(true);
    const caller = giteaToken();
    const minted = githubToken(); // shaped like a provider token so that masking would catch it
    const result = {
      id: 3,
      name: 'ci',
      sha1: minted,
      token_last_eight: minted.slice(-8),
      note: `created with ${caller}`,
    };
    for (const mode of ['mask', 'block'] as const) {
      const r = scrubResult(result, { exactSecrets: [caller], mode, skipPatterns: true });
      expect((r.value as { sha1: string }).sha1).toBe(minted);
      expect((r.value as { note: string }).note).toBe(`created with ${REDACTED}`);
      expect(r.blocked).toBeNull();
      expect(r.masks).toBe(0);
    }
  });
});

describe('base64 is no hiding place', () => {
  it('masks a private key in a file read through the contents API and re-encodes it', () => {
    const pem = privateKeyPem('OPENSSH PRIVATE KEY');
    const text = `# keys\n${pem}\nend\n`;
    const file = {
      name: 'key',
      path: 'key',
      type: 'file',
      encoding: 'base64',
      content: b64(text),
      size: text.length,
    };
    const r = scrubResult(file, mask());
    const out = r.value as { content: string; encoding: string };
    expect(out.encoding).toBe('base64');
    const decoded = unb64(out.content);
    expect(decoded).toMatch(/^# keys\n\[\[aegis-masked:openssh-private-key:\.\.\.:\d+\]\]\nend\n$/);
    expect(decoded).not.toContain(pem.split('\n')[3]!);
    expect(r.masks).toBe(1);
  });

  it('redacts an exact secret in base64 content, in lists of files, blobs, wiki pages and binary envelopes', () => {
    const token = giteaToken();
    const list = [
      { name: 'a', encoding: 'base64', content: b64(`TOKEN=${token}\n`) },
      { sha: giteaToken(), encoding: 'base64', content: b64(`x ${token}`), size: 1 },
    ];
    const r = scrubResult(list, mask([token]));
    expect(r.redactions).toBe(2);
    expect(unb64((r.value as Array<{ content: string }>)[0]!.content)).toBe(`TOKEN=${REDACTED}\n`);
    const wiki = scrubResult({ title: 'Ops', content_base64: b64(`use ${token}`) }, mask([token]));
    expect(unb64((wiki.value as { content_base64: string }).content_base64)).toBe(`use ${REDACTED}`);
    const envelope = scrubResult(
      { content_base64: b64(`gh=${githubToken()}`), content_type: 'text/plain', size: 43 },
      mask(),
    );
    expect(unb64((envelope.value as { content_base64: string }).content_base64)).toMatch(
      /^gh=\[\[aegis-masked:github-token:/,
    );
  });

  it('leaves binary base64 and unchanged text byte-for-byte alone', () => {
    const binary = Buffer.from([0, 159, 146, 150, 0, 1, 2]).toString('base64');
    const file = { encoding: 'base64', content: binary };
    expect(scrubResult(file, mask()).value).toBe(file);
    const clean = { encoding: 'base64', content: b64('hello\n') };
    expect(scrubResult(clean, mask()).value).toBe(clean);
  });
});

describe('write-back guard', () => {
  it('refuses a masked file read and written back unchanged (base64 content)', () => {
    const pem = privateKeyPem();
    const read = scrubResult({ encoding: 'base64', content: b64(`${pem}\n`), sha: giteaToken() }, mask())
      .value as { content: string; sha: string };
    const update = { content: read.content, sha: read.sha, message: 'update key' };
    expect(findMaskMarker(update, 'repoUpdateFile')).toBe('$.content');
    expect(findMaskMarker({ content: read.content }, 'repoCreateFile')).toBe('$.content');
    expect(
      findMaskMarker(
        {
          files: [
            { operation: 'update', path: 'a', content: b64('ok') },
            { operation: 'update', path: 'b', content: read.content },
          ],
        },
        'repoChangeFiles',
      ),
    ).toBe('$.files[1].content');
  });

  it('finds markers in JSON bodies (issue bodies, keys, wiki content_base64)', () => {
    const masked = scrubText(`key ${githubToken()}`, mask()).value;
    expect(findMaskMarker({ title: 't', body: masked }, 'issueEditIssue')).toBe('$.body');
    expect(findMaskMarker({ labels: [{ 'odd key': masked }] }, 'x')).toBe('$.labels[0]["odd key"]');
    expect(findMaskMarker({ [masked]: 1 }, 'x')).toBe(`$[${JSON.stringify(masked)}]`);
    expect(findMaskMarker({ title: 'w', content_base64: b64(masked) }, 'repoEditWikiPage')).toBe(
      '$.content_base64',
    );
    expect(findMaskMarker(masked, 'x')).toBe('$');
  });

  it('lets ordinary writes through', () => {
    expect(
      findMaskMarker({ content: b64('# readme\n[[not a marker]]\n'), message: 'm' }, 'repoCreateFile'),
    ).toBeNull();
    expect(findMaskMarker({ body: 'the [[aegis-masked: prefix alone is fine' }, 'x')).toBeNull();
    expect(findMaskMarker({ body: REDACTED }, 'x')).toBeNull();
  });
});

describe('redactArguments', () => {
  it('replaces body secret fields and redacts their values and the exact secrets elsewhere', () => {
    const caller = giteaToken();
    const args = {
      owner: 'o',
      repo: 'r',
      body: {
        type: 'gitea',
        authorization_header: 'Bearer abc-123-xyz',
        config: { url: `https://x/?c=${caller}`, password: 'hook-pass-1' },
        note: 'uses hook-pass-1',
      },
    };
    const out = redactArguments(args, [caller], 'repoCreateHook') as typeof args;
    expect(out.body.authorization_header).toBe(REDACTED);
    expect(out.body.config).toEqual({ url: `https://x/?c=${REDACTED}`, password: REDACTED });
    expect(out.body.note).toBe(`uses ${REDACTED}`);
    expect(JSON.stringify(out)).not.toContain(caller);
    expect(args.body.authorization_header).toBe('Bearer abc-123-xyz'); // input untouched
  });

  it('redacts Action secret data of any length', () => {
    const out = redactArguments(
      { owner: 'o', secretname: 'S', body: { data: 'ab' } },
      [],
      'updateRepoSecret',
    ) as { body: { data: string } };
    expect(out.body.data).toBe(REDACTED);
  });
});

describe('scrubJsonText', () => {
  it('gives the same result as parse + scrubResult, including Go-escaped secrets and base64', () => {
    const caller = 'tok&en<' + randomWord(20);
    const t = githubToken();
    const value = [
      { id: 1, body: `x ${t} y`, note: caller },
      { id: 2, body: 'fine' },
    ];
    const goJson = JSON.stringify(value).replace(/&/g, '\\u0026').replace(/</g, '\\u003c');
    const a = scrubJsonText(goJson, mask([caller]));
    const b = scrubResult(value, mask([caller]));
    expect(a.value).toEqual(b.value);
    expect([a.redactions, a.masks]).toEqual([1, 1]);
    const file = { encoding: 'base64', content: b64(`k=${t}`) };
    expect(scrubJsonText(JSON.stringify(file, null, 2), mask()).value).toEqual(
      scrubResult(file, mask()).value,
    );
    expect(scrubJsonText('{"a":"plain"}', mask()).value).toEqual({ a: 'plain' });
  });
});

describe('redactArguments on file writes', () => {
  it('masks secrets inside the base64 content being written', () => {
    const t = githubToken();
    const args = {
      owner: 'o',
      repo: 'r',
      filepath: 'a.env',
      body: { content: b64(`GH=${t}\n`), message: 'add' },
    };
    const out = redactArguments(args, [], 'repoCreateFile') as typeof args;
    expect(unb64(out.body.content)).toMatch(/^GH=\[\[aegis-masked:github-token:/);
    expect(unb64(args.body.content)).toContain(t);
  });
});

describe('fields of parsed results', () => {
  it('masks secret-named fields the same way on both paths (docker auth, webhook authorization)', () => {
    const value = {
      auths: { 'r.example.com': { auth: b64(`robot:${randomWord(20)}`) } },
      authorization: `Bearer ${randomWord(30)}`,
      author: { login: 'a' },
    };
    const fast = scrubResult(value, mask());
    const walk = scrubResult(value, mask(['~^']));
    expect(fast.value).toEqual(walk.value);
    expect(fast.masks).toBe(2);
    expect((fast.value as { author: unknown }).author).toEqual({ login: 'a' });
  });
});

describe('json field', () => {
  it('is the serialisation of the returned value when present', () => {
    const token = giteaToken();
    // The string walk gives no json; the serialising path (here: a secret in a key) does.
    const viaText = scrubResult({ [token]: 1, body: `x ${githubToken()}` }, mask([token]));
    expect(viaText.json).toBe(JSON.stringify(viaText.value));
    for (const v of [{ a: 1 }, [{ body: `x ${githubToken()}` }]]) {
      const r = scrubResult(v, mask());
      if (r.json !== undefined) expect(r.json).toBe(JSON.stringify(r.value));
    }
  });
});

describe('string walk (default path for objects)', () => {
  it('returns the same object when nothing changed, and copies only the path to a change', () => {
    const t = githubToken();
    const clean = { items: [{ body: 'plain text here' }], meta: { a: 'b' } };
    expect(scrubResult(clean, mask()).value).toBe(clean);
    const value = { items: [{ body: 'plain text here' }, { body: `leak ${t}` }], meta: { a: 'b' } };
    const r = scrubResult(value, mask());
    const out = r.value as typeof value;
    expect(out).not.toBe(value);
    expect(out.meta).toBe(value.meta);
    expect(out.items[0]).toBe(value.items[0]);
    expect(out.items[1]!.body).toMatch(/^leak \[\[aegis-masked:github-token:/);
    expect(value.items[1]!.body).toBe(`leak ${t}`); // the input is never modified
  });

  it('scans results larger than one batch (about 1M characters) completely', () => {
    const tokens = Array.from({ length: 40 }, () => githubToken());
    const filler = 'lorem ipsum dolor sit amet '.repeat(3000); // 81 000 characters
    const value = tokens.map((t, i) => ({ id: i, body: `${filler}${t}`, title: `t ${t}` }));
    const r = scrubResult(value, mask());
    expect(r.masks).toBe(80);
    const out = JSON.stringify(r.value);
    for (const t of tokens) expect(out).not.toContain(t);
  });

  it('counts and replaces every copy of a repeated string', () => {
    const t = githubToken();
    const token = giteaToken();
    const note = `see ${t}`;
    const value = [{ a: note, b: `x ${token}` }, { a: note, b: `x ${token}` }, [note, `x ${token}`]];
    const r = scrubResult(value, mask([token]));
    expect(r.masks).toBe(3);
    expect(r.redactions).toBe(3);
    const out = JSON.stringify(r.value);
    expect(out).not.toContain(t);
    expect(out).not.toContain(token);
    expect(out.split('aegis-masked:github-token').length).toBe(4);
  });

  it('masks a secret-named field the way the serialised text does, escapes included', () => {
    const t = randomWord(24);
    const viaText = (v: object) => scrubSerialised(v, mask());
    for (const v of [
      { api_key: t, password2: `x${t}`, secretToken: t },
      { password: `a"b${t}`, token: `line\n${t}`, auth: t, note: `password=${t}` },
      [{ Authorization: `Bearer ${t}` }, { db_password_hash: t }],
    ]) {
      const walk = scrubResult(v, mask());
      const text = viaText(v);
      expect(walk.masks).toBeGreaterThan(0);
      expect(walk.value).toEqual(text.value);
      expect(walk.masks).toBe(text.masks);
    }
  });
});
