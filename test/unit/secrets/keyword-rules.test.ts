// The engine's own keyword rules (src/core/secrets/keyword-rules.ts): run by the keyword automaton of
// the ported gitleaks rules, so each must be reachable from its keywords; and the syntax rules of the
// fourth pass (block scalars, cookies, Gitea's token response) with the look-alikes they leave alone.
import { randomBytes } from 'node:crypto';
import { KEYWORD_RULES } from '../../../src/core/secrets/keyword-rules';
import { formatMask, indexOfMaskMarker } from '../../../src/core/secrets/mask-format.util';
import { scanText, scrubResult, scrubText } from '../../../src/core/secrets';
import { giteaToken, randomWord } from './helpers';

const ctx = { exactSecrets: [], mode: 'mask' as const, skipPatterns: false };
const masked = (text: string, secret: string): boolean => !scrubText(text, ctx).value.includes(secret);

describe('keyword rules', () => {
  it('compile, have lower-case printable keywords, unique ids and mask kinds of the marker grammar', () => {
    const ids = new Set<string>();
    for (const r of KEYWORD_RULES) {
      expect(() => new RegExp(r.regex, 'dy')).not.toThrow();
      expect(r.keywords.length).toBeGreaterThan(0);
      for (const k of r.keywords) expect(/^[\x20-\x7e]+$/.test(k) && k === k.toLowerCase()).toBe(true);
      expect(ids.has(r.id)).toBe(false);
      ids.add(r.id);
      expect(indexOfMaskMarker(formatMask(r.kind, 'abcdefghijklmnop', 0))).toBe(0);
    }
  });

  it('a prefix rule can match where its keyword starts (the keyword is a prefix of the pattern)', () => {
    for (const r of KEYWORD_RULES.filter((x) => x.find === 'prefix')) {
      const lead = r.regex.replace(/^\(\?<=(?:[^()]|\([^()]*\))*\)/, '').replace(/^\\b/, '');
      // The pattern's first literal character is the keyword's first character (either case), or the
      // pattern starts with a class or group that admits it.
      const first = r.keywords.map((k) => k[0]!);
      const c = lead[0]!;
      if (c === '(' || c === '[' || c === '%') continue;
      const literal = c === '\\' ? lead[1]! : c;
      expect({ id: r.id, ok: first.some((f) => f === literal.toLowerCase()) }).toEqual({
        id: r.id,
        ok: true,
      });
    }
  });
});

describe('syntax rules of the fourth pass', () => {
  it('masks the lines of a YAML block scalar under a secret-named key, not the next key', () => {
    const s = randomWord(20) + '7';
    const out = scrubText(`db:\n  password: |\n    ${s}\n  user: app\n`, ctx).value;
    expect(out).not.toContain(s);
    expect(out).toContain('user: app');
    expect(scanText('description: |\n  Deploys the app to staging.\nname: x')).toEqual([]);
  });

  it('masks session cookies only inside a Cookie header or a curl cookie flag', () => {
    const s = randomWord(32);
    expect(masked(`Cookie: lang=en; sessionid=${s}; theme=dark`, s)).toBe(true);
    expect(masked(`curl -b "i_like_gitea=${s}" https://gitea.example.com/`, s)).toBe(true);
    expect(scanText(`analytics session_id=${s.toLowerCase().replace(/[0-9]/g, 'a')} page=/home`)).toEqual([]);
  });

  it("masks the sha1 of Gitea's token response, not a checksum's sha1", () => {
    const t = giteaToken();
    expect(masked(`{"id":3,"name":"ci","sha1":"${t}","token_last_eight":"${t.slice(-8)}"}`, t)).toBe(true);
    expect(scanText(`{"name":"app.tar.gz","sha1":"${giteaToken()}","size":1}`)).toEqual([]);
  });

  it('takes typed, indexed and ?= assignments, and random mixed-case letters as a value', () => {
    const s = randomWord(24) + '3';
    expect(masked(`const API_TOKEN: &str = "${s}";`, s)).toBe(true);
    expect(masked(`ENV['DB_PASSWORD'] = '${s}'`, s)).toBe(true);
    expect(masked(`DB_PASSWORD ?= ${s}`, s)).toBe(true);
    const letters = ['MZss', 'HyzU', 'KNAp', 'JUfy'].join('');
    expect(masked(`VONAGE_API_SECRET=${letters}`, letters)).toBe(true);
    expect(scanText('token: ProductionConfigValue')).toEqual([]);
  });
});

describe('shapes of the fifth pass', () => {
  const armour = (label: string, end = false): string =>
    ['-----', end ? 'EN' : 'BEG', end ? 'D ' : 'IN ', label, '-----'].join('');

  it('masks the body lines of a private key split into strings, not a public key split the same way', () => {
    const body = [randomWord(64), randomWord(64), randomWord(40) + '=='];
    const label = ['PRIVATE', 'KEY'].join(' ');
    const asArray = JSON.stringify([armour(label), ...body, armour(label, true)], null, 2);
    const out = scrubText(asArray, ctx).value;
    for (const line of body) expect(out).not.toContain(line);
    const joined = [armour(label), ...body, armour(label, true)].map((l) => `  "${l}\\n" +`).join('\n');
    expect(masked(joined, body[1]!)).toBe(true);
    const pub = JSON.stringify([armour('PUBLIC KEY'), ...body, armour('PUBLIC KEY', true)]);
    expect(scanText(pub)).toEqual([]);
  });

  it('masks heredocs, triple-quoted strings and lists under a secret name, not their look-alikes', () => {
    const s = randomWord(20) + '42';
    expect(masked(`password = <<EOT\n${s}\nEOT`, s)).toBe(true);
    expect(masked(`API_TOKEN = """\n${s}\n"""`, s)).toBe(true);
    expect(masked(`{"api_keys":["${s}","${randomWord(20)}9"]}`, s)).toBe(true);
    expect(masked(`tokens:\n  - ${s}\nregion: eu`, s)).toBe(true);
    expect(scanText('description = <<EOT\nDeploys the web tier.\nEOT')).toEqual([]);
    expect(scanText(JSON.stringify({ secret_names: ['DB_PASSWORD', 'API_TOKEN'] }))).toEqual([]);
  });

  it('masks constructor passwords, prose and CLI forms, not a prompt flag or a path', () => {
    const s = randomWord(12) + '07';
    expect(masked(`new NetworkCredential("deploy", "${s}");`, s)).toBe(true);
    expect(masked(`login admin, pwd ${s} for now`, s)).toBe(true);
    expect(masked(`The staging password is "${s}".`, s)).toBe(true);
    expect(masked(`creds: admin / ${s}`, s)).toBe(true);
    expect(masked(`ldapsearch -x -D cn=admin -w ${s} -b dc=x`, s)).toBe(true);
    expect(masked(`net user svc ${s} /add`, s)).toBe(true);
    expect(masked(`gh secret set TOKEN --body "${s}"`, s)).toBe(true);
    expect(scanText('ldapsearch -x -D cn=admin -W -b dc=x')).toEqual([]);
    expect(scanText('run `pwd` to print the working directory')).toEqual([]);
    expect(scanText('kubectl create secret generic db --from-file=password=./db-password.txt')).toEqual([]);
  });

  it('masks the newer provider prefixes', () => {
    for (const p of [
      ['cf', 'ut_'],
      ['cf', 'k_'],
      ['vc', 'i_'],
      ['ph', 'x_'],
    ]) {
      const t = p.join('') + randomWord(44);
      expect(masked(`value ${t}`, t)).toBe(true);
    }
    const es = ['es', 'su_'].join('') + randomWord(60);
    expect(masked(`key ${es}`, es)).toBe(true);
  });
});

describe('shapes of the sixth pass (bodies Gitea returns)', () => {
  const hex32 = (): string => giteaToken().slice(0, 32);
  const maskedJson = (value: unknown, secret: string): boolean =>
    !JSON.stringify(scrubResult(value, ctx).value).includes(secret);

  it('masks a quoted value with punctuation under a secret name, in a diff too, not a reference', () => {
    const s = `${randomWord(10)}!@#(${randomWord(8)}-_=+)${randomWord(10)}7`;
    expect(masked(`+SECRET_KEY = '${s}'`, s)).toBe(true);
    expect(masked(`{"password": "${s}"}`, s)).toBe(true);
    expect(scanText(`+SECRET_KEY = '\${SECRET_KEY}!${randomWord(16)}7'`)).toEqual([]);
    expect(scanText(`password: "your_Pass123!word_here"`)).toEqual([]);
    expect(scanText(`secret: '$DB_SECRET!${randomWord(16)}7'`)).toEqual([]);
  });

  it('masks a *_PAT value in env and in an Actions variable listing, not a *_PATH', () => {
    const s = randomWord(34) + '5';
    expect(masked(`REGISTRY_PAT=${s}`, s)).toBe(true);
    expect(maskedJson([{ name: 'REGISTRY_PAT', data: s, description: '' }], s)).toBe(true);
    expect(scanText(`CONFIG_PATH=/etc/${randomWord(12)}9/app.yml`)).toEqual([]);
  });

  it('masks 32-hex keys next to a provider name, in code and in a variable named after it', () => {
    const k = hex32();
    const s = hex32();
    expect(masked(`const mailjet = Mailjet.apiConnect('${k}', '${s}');`, s)).toBe(true);
    expect(masked(`rollbar.init('${s}', 'production')`, s)).toBe(true);
    expect(maskedJson([{ name: 'ROLLBAR_ACCESS', data: s }], s)).toBe(true);
    expect(masked(`from twilio.rest import Client\nclient = Client("AC${hex32()}", "${s}")`, s)).toBe(true);
    // the same hex with no provider nearby is a checksum
    expect(scanText(`md5 ${s}  dist/app.tar.gz`)).toEqual([]);
  });

  it('masks an Authorization header of any scheme or none (a webhook authorization_header), not SigV4 or placeholders', () => {
    const s = randomWord(30) + '4';
    for (const scheme of ['Api-Key ', 'Key ', 'OAuth ', 'Klaviyo-API-Key ', ''])
      expect(maskedJson({ id: 1, authorization_header: `${scheme}${s}` }, s)).toBe(true);
    expect(masked(`curl -H 'Authorization: Api-Key ${s}' https://x`, s)).toBe(true);
    const sigv4 = `Authorization: AWS4-HMAC-SHA256 Credential=AKID/20261104/eu-west-1/s3/aws4_request, SignedHeaders=host, Signature=${giteaToken()}`;
    // (its Credential= parameter is an assignment the keyword rule reads; the scheme is not a value)
    expect(scanText(sigv4).filter((m) => m.kind === 'authorization-header')).toEqual([]);
    expect(scanText('Authorization: Bearer ${TOKEN}')).toEqual([]);
  });

  it('masks an FCM server key', () => {
    const s = ['AA', 'AA', randomWord(7), ':APA', '91b', randomWord(134)].join('');
    expect(masked(`FCM server key: ${s}`, s)).toBe(true);
  });

  it('masks prose with "is now", the aws and platform CLIs, not settings or ids', () => {
    const s = randomWord(12) + '42';
    expect(masked(`admin password for staging is now ${s}`, s)).toBe(true);
    expect(masked(`aws configure set aws_secret_access_key ${randomWord(30)}/${s}`, s)).toBe(true);
    expect(masked(`fly secrets set DATABASE_URL=x API_SIGNING=${s}`, s)).toBe(true);
    const long = randomWord(30) + '42';
    expect(masked(`heroku config:set STRIPE_SIGNING=${long} -a app`, long)).toBe(true);
    expect(scanText('heroku config:set NODE_ENV=production WEB_CONCURRENCY=2 -a app')).toEqual([]);
    expect(scanText('aws configure set region eu-west-1')).toEqual([]);
    expect(scanText('the token is now rotated every 24h by the runner')).toEqual([]);
  });
});

describe('shapes of the seventh pass', () => {
  const maskedJson = (value: unknown, secret: string): boolean =>
    !JSON.stringify(scrubResult(value, ctx).value).includes(secret);
  const mixed = (n: number): string => randomWord(n - 2) + '7q';
  const uuid = (): string => {
    const h = giteaToken();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(12, 15)}-a${h.slice(15, 18)}-${h.slice(18, 30)}`;
  };

  it('masks the token of a webhook URL path, not hook ids, git hooks or delivery UUIDs', () => {
    const s = mixed(40);
    expect(masked(`NOTIFY_URL=https://ci.example.com/hooks/${s}`, s)).toBe(true);
    expect(masked(`https://hooks.example.io/webhooks/123456/${s}`, s)).toBe(true);
    expect(maskedJson({ config: { url: `https://deploy.example.net/webhook/12/${s}` } }, s)).toBe(true);
    const hex = giteaToken().slice(0, 32);
    expect(
      masked(`https://outlook.office.com/webhook/${uuid()}@${uuid()}/IncomingWebhook/${hex}/${uuid()}`, hex),
    ).toBe(true);
    const u = uuid();
    expect(masked(`https://open.feishu.cn/open-apis/bot/v2/hook/${u}`, u)).toBe(true);
    expect(masked(`https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${u}`, u)).toBe(true);
    const k = mixed(22);
    expect(masked(`https://maker.ifttt.com/trigger/done/with/key/${k}`, k)).toBe(true);
    expect(scanText('GET /api/v1/repos/org/app/hooks/12/tests and .git/hooks/pre-commit')).toEqual([]);
    expect(scanText('see src/hooks/useAuthentication2Provider.tsx')).toEqual([]);
    expect(scanText(`https://gitea.example.com/org/app/settings/webhooks/deliveries/${u}`)).toEqual([]);
    expect(scanText('https://ci.example.com/hooks/<your-hook-token>')).toEqual([]);
  });

  it("masks a provider key named only by its variable, not the provider's lookups or versions", () => {
    const s = randomWord(62) + '7q';
    expect(masked(`HETZNER_API=${s}`, s)).toBe(true);
    const hex = giteaToken() + giteaToken().slice(0, 24);
    expect(masked(`linode_cli: "${hex}"`, hex)).toBe(true);
    const u = uuid();
    expect(maskedJson([{ name: 'OPSGENIE', data: u, description: '' }], u)).toBe(true);
    expect(
      scanText(`SNYK_ORG_ID=${u}\nOPSGENIE_TEAM_ID=${u}\nJENKINS_URL=https://ci.example.com/j2`),
    ).toEqual([]);
    expect(scanText(`LINODE_IMAGE_SHA256=${hex}\nSENDGRID_TEMPLATE=d-${giteaToken().slice(0, 32)}`)).toEqual(
      [],
    );
    expect(scanText('jenkins: 2.401.3-lts\nsplunk: splunk-enterprise-9.1.2')).toEqual([]);
    expect(scanText('curl -k https://splunk.example.com:8088/services/collector/event')).toEqual([]);
    expect(scanText(`JENKINS_COMMIT=${giteaToken()}`)).toEqual([]);
  });

  it('masks values under a [secrets] section or a YAML secrets: map, not settings or file references', () => {
    const a = mixed(36);
    const b = mixed(36);
    const ini = scrubText(
      `[general]\nname = billing\n\n[secrets]\nstripe = ${a}\nsendgrid = "${b}"\n`,
      ctx,
    ).value;
    expect(ini).not.toContain(a);
    expect(ini).not.toContain(b);
    expect(ini).toContain('name = billing');
    expect(masked(`[tokens]\ngithub = "${a}"`, a)).toBe(true);
    expect(masked(`secrets:\n  payments: ${a}\n  mailer: ${b}`, b)).toBe(true);
    expect(maskedJson({ body: `[api_keys]\nopenai = "${a}"` }, a)).toBe(true);
    expect(scanText('[tokens]\nexpiry = 3600\nissuer = gitea')).toEqual([]);
    expect(scanText('secrets:\n  db_password:\n    file: ./secrets/db_password.txt')).toEqual([]);
    expect(scanText('secrets:\n  token: ${{ secrets.GITEA_TOKEN }}')).toEqual([]);
  });

  it('masks tool and code shapes: auth tuples, Header.Set, docker secret create, Oracle thin URLs, a bearer key', () => {
    const p = randomWord(12) + '42';
    expect(masked(`requests.get(url, auth=("deploy", "${p}"))`, p)).toBe(true);
    expect(masked(`HTTPBasicAuth('admin', '${p}')`, p)).toBe(true);
    expect(masked(`printf '${p}' | docker secret create pg_pw -`, p)).toBe(true);
    expect(masked(`jdbc:oracle:thin:app/${p}@db:1521/ORCL`, p)).toBe(true);
    const t = mixed(40);
    expect(masked(`req.Header.Set("Authorization", "Token ${t}")`, t)).toBe(true);
    expect(masked(`{"auth": {"bearer": "${t}"}}`, t)).toBe(true);
    expect(scanText('requests.get(url, auth=(user, os.environ["DEPLOY_PASSWORD"]))')).toEqual([]);
    expect(scanText('docker secret create pg_pw ./secrets/pg.txt')).toEqual([]);
    expect(scanText('{"token_type": "bearer", "bearer": true}')).toEqual([]);
  });

  it('masks `apikey X` and a backticked value after a secret word, not names or paths in backticks', () => {
    const s = mixed(32);
    expect(masked(`Calls with apikey ${s} get 401`, s)).toBe(true);
    expect(masked(`I think the secret \`${s}\` ended up in the log`, s)).toBe(true);
    expect(scanText('set the secret `MY_SECRET_2` in the repo; the token `GITEA_TOKEN_V2` is read')).toEqual(
      [],
    );
    expect(scanText('see secret `prod/db/password1` in vault')).toEqual([]);
    expect(scanText('send the apikey header X-Api-Key2 with every call')).toEqual([]);
  });
});

describe('URLs and bodies of the seventh pass', () => {
  it('masks the password of a URL whose user is an e-mail address, not a URL without one', () => {
    const p = randomWord(12) + '42';
    expect(masked(`EMAIL_URL=smtp://alerts@example.com:${p}@smtp.example.com:587`, p)).toBe(true);
    expect(
      scanText(
        'MAILER_URL=smtp://alerts@example.com@smtp.example.com:587 ssh://git@gitea.example.com:2222/o/r',
      ),
    ).toEqual([]);
  });

  it('masks a key on the last line of a base64 wiki page (a NUL ends a secret as the end of text does)', () => {
    const s = randomWord(38) + '7q';
    const page = {
      title: 'Ops',
      content_base64: Buffer.from(`## Staging\n\nAPI KEY: ${s}`).toString('base64'),
    };
    const out = scrubResult(page, ctx).value as { content_base64: string };
    expect(Buffer.from(out.content_base64, 'base64').toString()).not.toContain(s);
    // the same rule on NUL-joined strings
    expect(scanText(`x\u0000API KEY: ${s}\u0000y`).length).toBe(1);
  });

  it('masks a Kubernetes Secret pasted in a JSON string (the match may take the closing quote) and a Dockerfile ENV at its start', () => {
    const s = Buffer.from(randomWord(10) + '42').toString('base64');
    const body = { id: 1, body: `apiVersion: v1\nkind: Secret\ndata:\n  DB_PASSWORD: ${s}` };
    expect(JSON.stringify(scrubResult(body, ctx).value)).not.toContain(s);
    const t = randomWord(30) + '1';
    expect(JSON.stringify(scrubResult({ body: `ENV API_TOKEN ${t}` }, ctx).value)).not.toContain(t);
    expect(scrubResult({ body: 'ENV NODE_ENV production' }, ctx).masks).toBe(0);
  });

  it('masks camelCase secret keys of a parsed JSON file (authKey, signingKey, masterKey), not lookup keys', () => {
    const s = randomWord(38) + '7q';
    for (const k of ['authKey', 'signingKey', 'masterKey', 'encryptionKey', 'licenseKey'])
      expect({ k, masked: !JSON.stringify(scrubResult({ svc: { [k]: s } }, ctx).value).includes(s) }).toEqual(
        {
          k,
          masked: true,
        },
      );
    const lookups = {
      primaryKey: 'id',
      cacheKey: 'user:1234:profile',
      sortKey: 'created_at',
      signingKeyId: 'kid-2024',
    };
    expect(scrubResult(lookups, ctx).value).toBe(lookups);
  });
});

describe('rules that generalise (eighth pass)', () => {
  // Key material with both cases and a digit, whatever the draw.
  const key = (n: number): string => 'Q' + 'x' + randomWord(n - 3) + '7';

  it('masks a value under a compound secret name, not under a name that holds something else', () => {
    const s = key(24);
    for (const line of [
      `DB_PASSWORD_PROD=${s}`,
      `TOKEN_GITHUB: ${s}`,
      `{"SECRET_KEY_DJANGO": "${s}"}`,
      `secret.key.prod=${s}`,
      // the secret word first and an abbreviation: only the compound-name rule reads these
      `PASS_DB=${s}`,
      `PWD_ROOT=${s}`,
    ])
      expect({ line, masked: masked(line, s) }).toEqual({ line, masked: true });
    const meta =
      'PASSWORD_MIN_LENGTH=12\nTOKEN_TTL=3600\nSECRET_KEY_FILE=/run/secrets/k1\nTOKEN_HEADER_NAME=X-Auth-Token';
    expect(scanText(meta)).toEqual([]);
    expect(scanText('image: registry.example.com/token-svc:main-3f2a9b8')).toEqual([]);
  });

  it('masks a value after a secret word with no verb, not a reference or a CamelCase name', () => {
    const s = key(32);
    for (const line of [
      `new token '${s}' works`,
      `**API key**: ${s}`,
      `client secret - ${s}`,
      `(token ${s})`,
      `New token:\n\n    ${s}`,
    ])
      expect({ line, masked: masked(line, s) }).toEqual({ line, masked: true });
    expect(scanText("token 'GITEA_TOKEN_V2' missing; token ProductionConfigValue2 loaded")).toEqual([]);
    expect(scanText('**Password:** see the 1Password item "Prod DB"')).toEqual([]);
  });

  it('masks a vendor token nobody enumerated, not object ids, publishable keys or test names', () => {
    const s = ['acme', '_live_'].join('') + key(32);
    expect(masked(`deploying with ${s} now`, s)).toBe(true);
    const ids = `pi_${key(24)} cs_test_${key(58)} call_${key(24)} msg_${key(24)} user_${key(27)} ${['pk', '_live_'].join('')}${key(24)}`;
    expect(scanText(ids)).toEqual([]);
    expect(scanText('test_shouldReturn401WhenTokenIsMissing passed')).toEqual([]);
    expect(scanText(`state=${['ab', '_'].join('')}${key(30)}`)).toEqual([]);
  });

  it("leaves this service's own OAuth client ids alone (dcr_ + 16 random bytes, base64url)", () => {
    // The envelope's identity.client carries the id of a dynamically registered client; it is public.
    for (let i = 0; i < 200; i++) {
      const id = `dcr_${randomBytes(16).toString('base64url')}`;
      expect({ id, found: scanText(`"client":{"id":"${id}","name":"Claude"}`) }).toEqual({ id, found: [] });
    }
  });

  it('masks a PuTTY key file as a whole (public lines and MAC too), as a PEM block is', () => {
    const pub = randomWord(64);
    const mac = '0123456789abcdef'.repeat(4);
    const file = [
      ['PuTTY-User-Key-', 'File-3: ssh-rsa'].join(''),
      'Encryption: none',
      'Comment: deploy',
      'Public-Lines: 1',
      pub,
      'Private-Lines: 1',
      randomWord(64),
      `Private-MAC: ${mac}`,
    ].join('\n');
    const out = scrubText(file, ctx).value;
    expect(out).not.toContain(pub);
    expect(out).not.toContain(mac);
    expect(out.startsWith(['PuTTY-User-Key-', 'File-3: ssh-rsa'].join(''))).toBe(true);
  });

  it('masks a UUID said to be a key, not one said to be an id', () => {
    const u = '0f8e6a2c-1b3d-4e5f-a789-0123456789ab';
    expect(masked(`the Heroku API key is ${u}`, u)).toBe(true);
    expect(masked(`The API key is ${u} (Postmark)`, u)).toBe(true);
    expect(
      scanText(`heroku request id ${u}; the request token is ${u}; the idempotency key is ${u}`),
    ).toEqual([]);
  });
});

describe('JSON structure and names (ninth pass)', () => {
  const key = (n: number): string => 'Q' + 'x' + randomWord(n - 3) + '7';
  const body = (n: number): string[] => Array.from({ length: n }, () => randomWord(64));
  const armour = (word: string, label: string): string => ['-----', word, ' ', label, '-----'].join('');
  const walked = (value: unknown): string => JSON.stringify(scrubResult(value, ctx).value);

  it('masks the items of an array under a secret name in a parsed body, not ids under key-like names', () => {
    const a = [key(32), key(32)];
    for (const value of [{ api_keys: a }, { jwt: { signingKeys: a } }, { bot: { tokens: a } }]) {
      const out = walked(value);
      expect({ value, kept: a.filter((s) => out.includes(s)) }).toEqual({ value, kept: [] });
    }
    const ids = {
      keys: ['id', 'name'],
      token_scopes: ['read:repository'],
      cache_keys: ['deps-0a1b2c3d4e5f'],
    };
    expect(scrubResult(ids, ctx).value).toBe(ids);
  });

  it('masks a private key written one line per array item, not a public key or certificate', () => {
    const b = body(3);
    const key1 = [armour('BEGIN', 'RSA PRIVATE KEY'), ...b, armour('END', 'RSA PRIVATE KEY')];
    for (const value of [{ tls: { key: key1 } }, key1, { lines: key1.map((l) => l + '\n') }]) {
      const out = walked(value);
      expect(b.filter((l) => out.includes(l))).toEqual([]);
    }
    const pub = { pub: [armour('BEGIN', 'PUBLIC KEY'), ...b, armour('END', 'PUBLIC KEY')] };
    expect(scrubResult(pub, ctx).value).toBe(pub);
    // a YAML list of quoted lines, as text
    const yaml = 'key:\n' + key1.map((l) => `  - "${l}"`).join('\n');
    expect(b.filter((l) => scrubText(yaml, ctx).value.includes(l))).toEqual([]);
  });

  it('reads an Actions variable named secret-first or by keying material, not a meta name', () => {
    const hex = giteaToken();
    const s = key(32);
    for (const [name, data] of [
      ['TOKEN_PROD', hex],
      ['PASSWORD_REPLICA', s],
      ['PEPPER', s],
      ['SALT', s],
      ['PAT', s],
    ] as const) {
      const v = { name, data, description: '' };
      expect({ name, masked: !walked(v).includes(data) }).toEqual({ name, masked: true });
    }
    for (const [name, data] of [
      ['TOKEN_TTL', '3600'],
      ['SECRET_NAME', 'db-credentials-01'],
      ['SALT_ROUNDS', '12'],
    ] as const) {
      const v = { name, data };
      expect(scrubResult(v, ctx).value).toBe(v);
    }
  });

  it('masks a Gitea token handed to a client in code, not a SHA passed to a call', () => {
    const t = giteaToken();
    expect(masked(`gitea.NewClient(url, gitea.SetToken("${t}"))`, t)).toBe(true);
    expect(masked(`headers = {"Authorization": f"token ${t}"}`, t)).toBe(true);
    expect(scanText(`c.GetCommit(owner, repo, "${t}")`)).toEqual([]);
  });

  it('masks a prose password of letters then 3+ digits, not a name with a short number', () => {
    expect(masked('the admin password is kqzmwprtv4821 until Friday', 'kqzmwprtv4821')).toBe(true);
    expect(scanText('the token is node12 now; the password is staging-2')).toEqual([]);
  });

  it('masks a prose value of random letters only (no digit), not a word or an identifier', () => {
    const v = 'uOjUTovUyLYQRDiutMBJ';
    expect(masked(`the runner token is ${v}`, v)).toBe(true);
    expect(masked(`the API key is ${v}.`, v)).toBe(true);
    expect(masked(`| MYSQL_ROOT_PASSWORD | ${v} |`, v)).toBe(true);
    expect(masked('the app secret is kDADIOW=@N_r%xhpc!Ot-Bn', 'kDADIOW=@N_r%xhpc!Ot-Bn')).toBe(true);
    expect(scanText('the token is KubernetesClusterName; the password is ReadFromVaultPlease')).toEqual([]);
    expect(scanText('the password is Hello-World! the secret is Only_In_The_Vault')).toEqual([]);
    expect(
      scanText('the cache key is getUserByIdAndName and the page token is uOjUTovUyLYQRDiutMBJ'),
    ).toEqual([]);
  });

  it('reads a name/value pair of JSON as text with white space, not a meta name or a reference', () => {
    const v = 'L3lZlRWcgCVJjD5GXvv3KyQM2WH7xXBos8svyCB2pOz=';
    expect(masked(`{"name": "APP_SECRET", "data": "${v}", "description": ""}`, v)).toBe(true);
    expect(masked(`[\n  {\n    "name": "DB_PASSWORD",\n    "value": "${v}"\n  }\n]`, v)).toBe(true);
    expect(masked(`{\\"name\\": \\"API_TOKEN\\", \\"data\\": \\"${v}\\"}`, v)).toBe(true);
    expect(
      scanText('{"name": "DB_PASSWORD_LENGTH", "value": "32"}, {"name": "SECRET_NAME", "value": "db-creds"}'),
    ).toEqual([]);
  });

  it('masks a private key written one string per line after header or blank strings, and a PGP one', () => {
    const body = [0, 1, 2].map(() => randomBytes(48).toString('base64'));
    const armour = (label: string, head: string[]): string =>
      ['-----BEGIN ' + label + '-----', ...head, ...body, '-----END ' + label + '-----']
        .map((l) => `    "${l}\\n"`)
        .join('\n');
    const enc = armour('RSA PRIVATE KEY', [
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,0123456789ABCDEF',
      '',
    ]);
    const pgp = armour('PGP PRIVATE KEY BLOCK', ['Version: GnuPG v2', '']);
    for (const t of [`KEY = (\n${enc}\n)`, `KEY = (\n${pgp}\n)`])
      for (const line of body) expect(masked(t, line)).toBe(true);
    expect(scanText(`KEY = (\n${armour('PGP PUBLIC KEY BLOCK', ['Version: GnuPG v2', ''])}\n)`)).toEqual([]);
  });

  it('masks a flag with a compound name or pwd and a padded base64 value, not name=value pairs', () => {
    const v = 'huYwX64qJXGRsrBtOFwrh/N0UZnpsVHD32owhPlBTOG=';
    for (const flag of ['--smtp-pass', '--admin-pwd', '--mysql-root-password', '--secret-key'])
      expect(masked(`./deploy.sh ${flag} ${v} --host db`, v)).toBe(true);
    expect(
      scanText('docker build --secret id=npmrc,src=$HOME/.npmrc . && ./deploy.sh --token-ttl 3600'),
    ).toEqual([]);
  });

  it('masks `pass` and `pwd` with a verb or in a table cell, not a pass that is no password', () => {
    const v = 'iJy0lJMxs7maUMVqrsvSKQ';
    expect(masked(`the smtp pass is ${v}`, v)).toBe(true);
    expect(masked(`| ADMIN_PWD | ${v} |`, v)).toBe(true);
    expect(
      scanText('the boarding pass is ready; | pass | 12/12 tests |; pass: 14 of 14 checks (run 3f9a2c1)'),
    ).toEqual([]);
  });

  it('reads a pretty-printed name/value pair behind a log timestamp or a quote prefix', () => {
    const v = 'tGwQv1PQM3UCxbYTjVY9PeiUv3p8m';
    const ts = '2026-11-04T08:15:02.4471230Z ';
    expect(masked(`${ts}{\n${ts}  "name": "DB_PASSWORD",\n${ts}  "value": "${v}"\n${ts}}`, v)).toBe(true);
    expect(masked(`> {\n>   "name": "JWT_SECRET",\n>   "value": "${v}"\n> }`, v)).toBe(true);
  });

  it('masks a URL-safe draw without a digit under a secret name, not words joined by _ or -', () => {
    const v = 'Ylngoi_lBfcDhAIawaSAcvH';
    expect(masked(`JWT_SECRET=${v}`, v)).toBe(true);
    expect(masked(`  private_token: ${v}`, v)).toBe(true);
    expect(scanText('DB_PASSWORD_SECRET=Prod_Db_Password_Main\n  api_token: Billing-Api-Token')).toEqual([]);
  });

  it('masks a Terraform default in a .tf file quoted in a JSON string', () => {
    const v = 'tGwQv1PQM3UCxbYTjVY9PeiUv3p8m';
    const tf = `variable "client_secret" {\n  default = "${v}"\n}`;
    expect(masked(JSON.stringify({ file: tf }), v)).toBe(true);
  });

  it('masks a quoted Kubernetes env value that starts with #, not a comment after value:', () => {
    const v = '#wJ8a&kd92Lx!q0Zs';
    expect(masked(`        - name: DB_PASSWORD\n          value: "${v}"`, v)).toBe(true);
    expect(scanText('        - name: DB_PASSWORD\n          value: # set by CI 2041')).toEqual([]);
  });

  it('masks a URL password holding the / of base64, not a port followed by a path with an @', () => {
    const v = 'sWeGCy+GuhMW95gNLhBhJC4/ZrXEaM4E/+o+NtW45of=';
    expect(masked(`DATABASE_URL=postgres://app:${v}@db.internal:5432/app`, v)).toBe(true);
    expect(
      scanText('see https://gitea.example.com:3000/org/repo/src/branch/main/docs@v2 or http://h:8080/a/b@c'),
    ).toEqual([]);
  });

  it("masks a connection string's password holding & and brackets, up to its ;", () => {
    const v = 'N_&t@b1a2+bFfCQ.';
    const w = 'a-Ql)M#NlmTQDAoj^Kb9^Io)I]';
    expect(masked(`Server=tcp:db,1433;Database=app;User ID=app;Password=${v};Encrypt=True;`, v)).toBe(true);
    expect(masked(`Server=db;User ID=app;Password=${w};Encrypt=True;`, w)).toBe(true);
    expect(scanText('https://api.example.com/x?user=a;password=&next=12')).toEqual([]);
  });

  it("leaves an OAuth state alone whose csrf_token happens to start like a vendor's token", () => {
    const state = Buffer.from(
      JSON.stringify({ csrf_token: 'mtx_4S0DaX06bPMNiUALtX0DkxjaiW9dW', return_to: '/org/app/settings' }),
    ).toString('base64url');
    expect(scanText(`https://gitea.example.com/login/oauth/authorize?client_id=abc&state=${state}`)).toEqual(
      [],
    );
  });
});
