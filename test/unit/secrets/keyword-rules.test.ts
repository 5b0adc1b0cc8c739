// The engine's own keyword rules (src/core/secrets/keyword-rules.ts): run by the keyword automaton of
// the ported gitleaks rules, so each must be reachable from its keywords; and the syntax rules of the
// fourth pass (block scalars, cookies, Gitea's token response) with the look-alikes they leave alone.
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
