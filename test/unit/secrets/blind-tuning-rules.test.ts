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
    ['a Bearer header from a variable', 'Authorization: Bearer $TOKEN'],
    [
      'a table without a secret column',
      '| env | region | owner |\n|-----|-----|-----|\n| prod | `eu-west-1a2b3c4d5` | @ops |',
    ],
    ['a mnemonic placeholder', 'MNEMONIC=<twelve words>'],
    [
      'a public verify key',
      `ENV VERIFY_KEY="${j('bc944193dc6dd770f48286ddb8bee7d0', '7477eacd694cae25347a3f007493e104')}"`,
    ],
    ['TODO_SET_ME', '"SECRET_KEY": "TODO_SET_ME"'],
    ['a numbered test key', '"password": "test-key-000000"'],
    [
      'a CSV public key column',
      `environment,PublicKey,owner\nstaging,"${j('BHIH1r9LGyAtmPidJ31txh5Z4H', 'l7pT3hH8+4L86uWMc=')}",ops\n`,
    ],
    [
      'a CSV pubkey column',
      `environment,pubkey,owner\nstaging,"${j('ThySBBSj64VAqbFZihGWT9', 'xPg5vssey4H3s4nw7VQuEd')}",ops\n`,
    ],
    ['a Vault reference', 'password = "vault:secret/data/app#db_password"'],
    ['a vals reference', 'password: ref+sops://secrets.enc.yaml#/db/password'],
    // Ordinary Gitea content the twelfth pass masked (second read of 2026-12-07):
    [
      'a settings table under a Key header',
      '| Key | Default | Description |\n|-----|---------|-------------|\n| `S3_BUCKET_NAME` | gitea | bucket |\n',
    ],
    ['a Key/Value table of versions', '| Key | Value |\n|---|---|\n| version | v1.22.3-rc1-abc |\n'],
    [
      'a CSV of release commits',
      `key,commit\nrelease-1,${j('3f9c2a7b1d4e', '5f60718293a4b5c6d7e8f9012345')}\n`,
    ],
    [
      'a CSV with a sort key',
      `sort_key,commit_sha,author\n1,${j('3f9c2a7b1d4e', '5f60718293a4b5c6d7e8f9012345')},alice\n`,
    ],
    ['a cache key in a log', 'cache key -> repo:gitea/gitea:stars2024'],
    ['a renamed setting in a log', 'renamed config key -> apiKeyV2Setting'],
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
    ['a Basic header value with symbols', 'curl -H "Authorization: Basic ', j('|.$hUUsd}', '7q;sE')],
    [
      'a Bearer header value with symbols',
      "headers: { Authorization: 'Bearer ",
      j('l-H8#KF1dQN', 'lT_4u_EBR'),
    ],
    ['AUTHORIZATION = base64', 'AUTHORIZATION = "', j('bWFydGEuazpfc3Vu', 'c2V0ODVLYW5nYXJvb18=')],
    [
      'a table with a secret column',
      '| env | secret | owner |\n|-----|-----|-----|\n| prod | `',
      j('FQVm7xx9WX1L', 'Y3CRmZwhL19e'),
    ],
    ['a German password name', 'PASSWORT=', j('Velvet-tiger', '-710*')],
    ['Spanish prose', 'la contraseña de la base es ', j('tPXdQ;-JsGw7', 'YgJe>+4p')],
    ['Portuguese prose', 'a senha do admin é ', j('wnVIH0i8Eiqq', 'GMBmczEg4PiHV4R646uC')],
    ['French prose', 'le mot de passe du compte de service est ', j('mmABRtE4fG5f', 'k9uo6y9w9Q')],
    [
      'an extended private key',
      'ENV XPRV=',
      j(
        'xprv9mxSfh6d6wZ1oZ6EKRUub53ak4M19JXXyaoQBPMunGgYi8i8wf',
        'wujeVPCrFgDeAG1F2rDUBVZHLS89QaDMdnviyP85qeroUwuTsbVdFBLbB',
      ),
    ],
    ['a WIF key by name', 'BTC_WIF=', j('KwX6kL3ihBAMYDmg4UFHVo4t2R2yZ4', 'eHxDdJjYuuKTpJxBRLmw3o')],
    [
      'a mnemonic',
      "MNEMONIC='",
      j('abstract decade napkin eager quarter carbon ', 'accuse narrow absent adapt saddle quarter'),
    ],
    ['a JWK private member', '{"kty":"EC","d":"', j('CBnuRNQYferOfj4BZacazjx', 'S2FuYHxIH2A5Rd-uhB2a')],
    [
      'a service account private_key_id',
      '"private_key_id": "',
      j('63b36dd6411bf0b287', '4fb6e2639493feb2d12a44'),
    ],
    ['a pepper', 'ARG PEPPER=', j('c1eaa5cf7ff4cc8c', 'bb849e9316847c40')],
    ['an app-specific password', '- APPLE_APP_PASSWORD=', j('szug-wmqu', '-hnte-lhbb')],
    [
      'an LDAP bind password',
      'ldapwhoami -H ldaps://ldap.corp:636 -D "cn=svc,dc=corp" -w ',
      j('pUT0607MoG8v', '5yL3ivm8.'),
    ],
    [
      'a PAT piped to az devops login',
      'echo ',
      j('adyhdajwbhdh7s4x4g3cxsxr', 'yu7yx75lzyibngfij4sosgqvdkcv'),
    ],
    [
      'vault operator unseal',
      'vault operator unseal ',
      j('/1x+eA/bKajMU7Yjaf1Qfm1Ct', 'GMx/4L/0OHxOMJOopH='),
    ],
    [
      'docker login -p=',
      'docker login -u="acme+ci" -p="',
      j('AN19N2UKEKJT59Q1Q3X6D6A61U92', 'YUX8I4RSS1JZHVPB76TK6BJLIRW9RW8IRQ21'),
    ],
    ['snowsql -p', 'snowsql -a xy12345 -u LOADER -p ', j('velvet', '1974+')],
    [
      'a generic-webhook-trigger token',
      'https://ci.acme.io/generic-webhook-trigger/invoke?code=',
      j('YFiwy18U5V', 'thAK~IXbHHW'),
    ],
    ['an Infura URL', 'https://mainnet.infura.io/v3/', j('fc0d20003277571c', '8572cb837739142f')],
    ['a Flagsmith server key', 'il token è ', j('ser.8GzWJTQs5IH', 'jZhm0MM0ppELtrN')],
    [
      'an OpenVPN static key',
      '-----BEGIN OpenVPN Static key V1-----\\n',
      j('e117656c6be21c21', 'b028f956712db448'),
    ],
    [
      'a minisign secret key',
      'untrusted comment: minisign encrypted secret key\\n',
      j(
        'RWRTY0IyA/6L/+AqWiRRLEQprw23whR7h4az3B8juleYPEF2BtIY1MM9mubkUG80kvLenzTCJJLq4l+lmPYT3G3L3/mo7gJYufze07+',
        'HXPHP9q9tP9bo62XEpCMY55zNDN/hEbJp8Q510RRuboGhex2y8wOx+C/5VlbY/yOMSUwfAdfy6HbUnp+pHGoMjgRJNApm9KRLGC4knWQHSFQe==',
      ),
    ],
    [
      'recovery codes',
      'recovery_codes: ',
      j('pmgfy-jq1e5 qp959-fbjq5 rdpmo-6ffyh ', 'puscw-xukst 11rl5-ov8zs'),
    ],
    ['a Zapier catch hook', 'https://hooks.zapier.com/hooks/catch/', j('5374070/', 'noxryp')],
    ['a Make hook', 'https://hook.eu1.make.com/', j('wb7f8ifvw2xvba55', 'ag0391pupisr5z8z')],
    ['an Ansible vault password file', 'echo "', j('C0pp3r', '15%%')],
    ['an SNMP community', 'COMMUNITY=', j('23QFv2Jhy', 'BfqqrX')],
    [
      'a Laravel app key',
      "[Environment]::SetEnvironmentVariable('APP_KEY', '",
      j('base64:qWS4JbSmOUWAgOvHCVldqM3Ye', 'oGWi9jlAQt4WR+rHVU='),
    ],
    [
      'a CSV with a secret column',
      'environment,hcloud_token,owner\nstaging,"',
      j('ifhcYsDCpJHMng98wgCaRBoJxPXhS2Ho', '0AlqtqNTwgvO7puIZCD4Bsdsa6eWVJBN'),
    ],
    [
      'an SQL UPDATE of a secret setting',
      "UPDATE settings SET value = '",
      j('8f4d1efaa68aefda', '635c52d894077df9'),
    ],
    [
      'a log line: NAME is set to X',
      'WARNING: ANSIBLE_VAULT_PASSWORD is set to ',
      j('Orchard-Dragon', '-873-'),
    ],
    [
      'a log line: resolved NAME -> X',
      '[debug] resolved NOMAD_TOKEN -> ',
      j('3169af89-35d5-4a4c', '-ba7d-cbca4676a5b1'),
    ],
    [
      'a client built with its key',
      'var client = new ApiClient("',
      j('c399e9389a1d8af1', 'ede31f76ebe1a7c7'),
    ],
    ['an HTML meta tag', '<meta name="AccessKeySecret" content="', j('PkRmYavjTd9rM5Ek6', 'DbfPObcEh15JQ')],
    [
      'a webhook path after /hooks/apikey/',
      'https://deploy.acme.io/hooks/apikey/',
      j('11ae415886af8277857c', 'a8b9a8c49ec9af'),
    ],
    [
      'cypress --record --key',
      'npx cypress run --record --key ',
      j('ecf302e1-febd-4151', '-b436-d30cd39cea9e'),
    ],
    ['a Makefile ?= pepper', 'PEPPER ?= ', j('c148fdb3f57689b4', '985ac0ea183a49f1')],
    ['a Checkout.com secret key', 'CKO_SECRET_KEY (', j('sk_adbc00c5-7d43', '-43bb-850c-0010d25456ef')],
    ['a Langfuse secret key', 'LANGFUSE: ', j('sk-lf-3470d7a3-77df', '-4e95-a638-7616650f03e7')],
  ])('%s', (_name, before, secret) => {
    const q = before.endsWith("'") ? "'" : before.endsWith('"') ? '"' : '';
    const out = mask(
      `${before}${secret}${q}${before.includes('| prod |') ? '` | @ops |' : before.startsWith('environment,') ? ',ops' : before.startsWith('UPDATE') ? " WHERE key = 'smtp_password'" : before.includes('new ApiClient') ? ')' : ''}${before.startsWith('echo ') ? ' | az devops login --organization x' : before.startsWith('echo "') ? ' > ~/.vault_pass' : ''} and more\n`,
    );
    expect(out).not.toContain(secret);
    expect(out).toContain('[[aegis-masked:');
  });
});
