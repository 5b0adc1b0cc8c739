// The engine's own keyword rules (issue 12, fourth pass), in the data shape of the ported gitleaks
// rules (gitleaks-rules.generated.ts) and run by the same keyword automaton (ported-rules.util.ts):
// a rule is tried only where one of its keywords occurs, so no rule adds a pass over the text.
// 'prefix' rules match sticky at the keyword; 'window' rules (a keyword in the middle or at the end
// of the secret) run on a bounded window around it. Format facts come from the providers' own
// documentation of their key formats and from the public detector lists of gitleaks and trufflehog;
// the patterns are written here, not copied. Keywords are lower case (the automaton folds ASCII case).
import type { PortedAllowlist, PortedRuleSource } from './gitleaks-rules.generated';

/** A case-insensitive spelling of a word for JavaScript patterns without the i flag. */
const ci = (s: string): string => s.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

// A name that says secret: password and its abbreviations, secret, token, api/access/private keys,
// credentials, auth; with what may come before and after it in an identifier.
const SECRET_WORD = `(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')}|${ci('code')})?|${ci('pwd')}|${ci('pswd')}|${ci('secret')}|${ci('token')}|${ci('api')}[_.-]?${ci('key')}|${ci('access')}[_.-]?${ci('key')}|${ci('private')}[_.-]?${ci('key')}|${ci('credential')}s?|${ci('auth')})`;
const SECRET_NAME = `[A-Za-z0-9_.-]{0,40}${SECRET_WORD}[A-Za-z0-9_.-]{0,20}`;
// A quote, JSON-escaped or not (a JSON document scanned as text).
const Q = `\\\\?["']`;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
// A value in command or document syntax: not a variable reference, a flag or an option.
const ARG = `([^\\s"'$<{\\\\\\u0000-][^\\s"'\\\\\\u0000]{3,255})`;

// A line break, raw or JSON-escaped, and what Gitea's bodies put at the start of the next line: a
// diff or quote marker, an Actions log timestamp.
const NL = '(?:\\r?\\n|(?:\\\\r)?\\\\n)';
// Bounded, and the second run only after a timestamp: two unbounded runs of blanks side by side (and
// a rule's own indentation after them) made a long run of blanks cost quadratic or cubic time.
const LINE_PREFIX = '[ \\t>+]{0,16}(?:\\d{4}-\\d\\d-\\d\\dT[0-9:.]{8,20}Z[ \\t]{1,4}[ \\t>+]{0,16})?';
// A `\n` escape inside a string literal, itself JSON-escaped or not.
const ESC_N = '(?:\\\\{1,2}r)?(?:\\\\{1,2}n)?';
// Between two string literals of a key written one line per string: a `+`, `,`, `&` or `.`, a line break.
const KEY_STRING_SEP = `[ \\t]{0,8}[+,&.]?[ \\t]{0,8}(?:${NL}${LINE_PREFIX})?(?:[-+&.][ \\t]{0,8})?`;
// Not a placeholder word inside the value (for rules whose values may hold brackets, which the
// shared placeholder check reads as a template).
const NO_PLACEHOLDER = `(?![^\\s"'\\u0000]{0,200}(?:${ci('example')}|${ci('xxxx')}|\\*\\*\\*|${ci('your')}[_-]|${ci('change')}[_-]?${ci('me')}|${ci('placeholder')}|${ci('redacted')}|${ci('dummy')}|aegis-masked))`;
// A value with a letter and a digit (a password or token, not a word or a name).
const MIXED = '(?=[^\\s"\'`]{0,199}[0-9])(?=[^\\s"\'`]{0,199}[A-Za-z])';

// Words (lower-case or capitalised, joined by separators or by case) and a number or version after
// them: gitea-community-2024, Gitea2024, discord.gg/Gitea2024, kubernetes-sigs/v1.2. Bounded and
// unambiguous (a word ends at a separator or a capital), so linear.
const WORDS_AND_NUMBER =
  '[A-Za-z][a-z]{1,20}(?:(?:[-_./:]{1,3}|(?=[A-Z]))[A-Za-z][a-z]{1,20}){0,6}(?:[-_./]{0,2}v?[0-9]{1,8}(?:[-_.][0-9]{1,4}){0,3})?';

// A value of a secrets section's line: quoted or not, with a letter and a digit, key material.
// (not a commit SHA or an Ethereum address: `commit_url = <sha>`, `address = 0x...` under [credentials])
const SECTION_VALUE =
  '(?!(?:0x)?[0-9a-fA-F]{40}(?![A-Za-z0-9]))(?=[A-Za-z+/=_.~-]{0,199}[0-9])(?=[0-9+/=_.~-]{0,199}[A-Za-z])[A-Za-z0-9+/=_.~-]{12,200}';
// Where such a line ends: the line, the (JSON) string or a comment.
const SECTION_END = `(?:${Q})?(?=[ \\t]*(?:\\r?\\n|\\\\[rn]|$|\\u0000|#|"))`;

/** Words as a value (`token: required`); letters drawn at random are not words (ported-rules.util.ts). */
export const WORDS_VALUE = '^[A-Za-z]+(?:[ _.:-][A-Za-z]+)*$';
/** Values that name rather than hold a secret: words joined by separators, paths, URLs, references. */
const NOT_A_VALUE = {
  target: 'secret' as const,
  and: false,
  regexes: [
    WORDS_VALUE,
    // one word with a letter outside ASCII, lower-case or capitalised: zurücksetzen, oublié, Zurücksetzen
    '^(?=[A-Za-z\\u00c0-\\u017f]{0,40}[\\u00c0-\\u017f])[A-Z\\u00c0-\\u00de]?[a-z\\u00df-\\u017f]{2,40}$',
    // a leading `/` is a path only with lower-case directories: base64 starts with `/` one time in 64
    '^(?:\\.{1,2}/|/(?:(?:[a-z0-9._-]+/)+[A-Za-z0-9._-]*|[a-z0-9._-]*)$|~/|[A-Za-z]:[\\\\/]|[a-z][a-z0-9+.-]*://)',
    '\\.(?:txt|json|pem|key|ya?ml|env|conf|cfg|ini|toml|xml)$',
    '^(?:env|file|fd|stdin):',
    '^(?:true|false|null|none|nil|undefined)$',
  ],
  stopwords: [],
};

// English function words that are not in the BIP-39 English list: a sentence after "recovery
// phrase:" holds some, a mnemonic none.
const NOT_BIP39 = {
  target: 'secret' as const,
  and: false,
  regexes: [
    '(?:^|[ \\t])(?:the|and|your|with|them|these|those|from|for|are|was|were|been|not|but|our|their|which|should|would|could|does|down)(?![a-z])',
  ],
  stopwords: [],
};

type Find = PortedRuleSource['find'];
/**
 * A cheap necessary condition of a prefix rule's pattern at a keyword (ported-rules.util.ts checks it
 * before running the regex, which most keywords in prose fail after a few characters): the pattern
 * can only match from the keyword's start when one of the given conditions holds. Each bound is the
 * longest the pattern allows, worked out next to the rule; a test checks it on generated text.
 */
export type RuleNeeds = {
  /** a ':' or '=' within this many characters from the keyword's start */
  operatorWithin?: number;
  /**
   * or a digit from the keyword's start on, before the first white space or quote at or after this
   * many characters from it (the value, which starts within that many characters, holds a digit)
   */
  digitTokenWithin?: number;
};
/** A rule of this file: its mask kind (several rules may share one) and its pattern. */
export type KeywordRuleSource = PortedRuleSource & { kind: string; block?: boolean; needs?: RuleNeeds };
let serial = 0;
function rule(
  kind: string,
  keywords: string[],
  regex: string,
  opts: {
    group?: number;
    entropy?: number;
    find?: Find;
    values?: boolean;
    allow?: PortedAllowlist[];
    block?: boolean;
    needs?: RuleNeeds;
  } = {},
): KeywordRuleSource {
  return {
    ...(opts.needs ? { needs: opts.needs } : {}),
    block: opts.block ?? false,
    // ids are unique and never one of gitleaks' (its examples are scored by rule id)
    id: `aegis-${kind}-${++serial}`,
    kind,
    keywords,
    regex,
    group: opts.group ?? 0,
    entropy: opts.entropy ?? 3,
    allow: [...(opts.values ? [NOT_A_VALUE] : []), ...(opts.allow ?? [])],
    find: opts.find ?? 'prefix',
    near: '',
  };
}

// Providers whose keys have no prefix of their own (32 hex characters): the provider's name on the
// same line makes the value a key (SDK calls with positional arguments, env names without a secret
// word). Also a JSON pair whose `name` holds one of them (an Actions variable) is scanned as
// `"NAME":"value"` (namesProvider in ported-rules.util.ts).
const HEX32_PROVIDERS = ['rollbar', 'bugsnag', 'mailjet', 'twilio'];
// Providers whose keys have no prefix of their own and no fixed shape that gitleaks' rules know
// (seventh pass): a random-looking value assigned to a name holding one of these words is a key
// (`HETZNER_API=...`, `"linode": "..."`, an Actions variable `OPSGENIE`), unless the name's last part
// names a lookup (`_ID`, `_URL`, `_ORG`, `_REGION` ...). Words that are common English (segment,
// render, vault, atlas ...) are left out: they name settings more often than keys.
const NAMED_PROVIDERS = [
  'hetzner',
  'hcloud',
  'linode',
  'scaleway',
  'opsgenie',
  'splunk',
  'honeycomb',
  'snowflake',
  'upstash',
  'postmark',
  'vonage',
  'nexmo',
  'mistral',
  'codecov',
  'snyk',
  'mixpanel',
  'razorpay',
  'pagerduty',
  'tencent',
  'alibaba',
  'aliyun',
  'alicloud',
  'ibmcloud',
  'jenkins',
  'mailgun',
  'sendgrid',
  'pusher',
  'zendesk',
  'cloudinary',
  'launchdarkly',
];
/** Lower-case provider words that make a key or sibling `name` name a credential. */
export const PROVIDER_NAME_WORDS: readonly string[] = [...HEX32_PROVIDERS, ...NAMED_PROVIDERS];
// The last part of a name that looks something up rather than holds a key.
// Column headers of a Markdown table that name a secret (twelfth pass).
const TABLE_SECRET_HEADERS = [
  'secret',
  'secrets',
  'credential',
  'credentials',
  // not a bare `key`: configuration docs tabulate settings under `| Key | Default |` (review)
  'api key',
  'token',
  'password',
  'passwort',
  'zugang',
  'clave',
  'senha',
];
// Password in other languages, ASCII spellings (the keyword pass folds ASCII only).
const FOREIGN_PASSWORD_WORDS = [
  'passwort',
  'kennwort',
  'contrase',
  'senha',
  'wachtwoord',
  'haslo',
  'losenord',
  'adgangskode',
  'salasana',
  'mot de passe',
  'mot_de_passe',
];
const FOREIGN_PASSWORD = `(?:${['passwort', 'kennwort', 'senha', 'wachtwoord', 'haslo', 'losenord', 'adgangskode', 'salasana'].map(ci).join('|')}|${ci('contrase')}(?:n|\u00f1)a|${ci('mot')}[ _]${ci('de')}[ _]${ci('passe')})`;
// A line break inside a key file written into a string or a document: raw, JSON-escaped (once or
// more), then a diff, quote or log prefix and indentation.
const KEY_LINE_BREAK = `(?:\\\\{1,7}r)?(?:\\\\{1,7}n|\\r?\\n)${LINE_PREFIX}[ \\t]*`;
// Calls that set a named value: environment setters, property setters, map puts.
const SETTER_KEYWORDS = [
  'setenv(',
  'setenvironmentvariable(',
  'setproperty(',
  'setdefault(',
  'putenv(',
  'put(',
  'set(',
];
const SETTER_NAMES =
  '[Ss]etenv|SetEnvironmentVariable|[Ss]et[Pp]roperty|setdefault|putenv|\\.[Pp]ut|\\.[Ss]et';
// A webhook path segment that names a lookup, not a secret: /hooks/sha/<sha>, /hooks/id/<id>.
const HOOK_LOOKUP_SEGMENT = `(?:${['sha', 'sha1', 'sha256', 'id', 'ids', 'ref', 'refs', 'rev', 'commit', 'commits', 'hash', 'digest', 'trace', 'span', 'run', 'runs', 'build', 'builds', 'job', 'jobs', 'delivery', 'deliveries', 'event', 'events', 'pod', 'cache', 'checksum', 'cid', 'tag', 'tags', 'version'].map(ci).join('|')})`;
const LOOKUP_PART = `(?:${[
  'id',
  'ids',
  'url',
  'uri',
  'urls',
  'host',
  'hostname',
  'endpoint',
  'domain',
  'org',
  'organization',
  'organisation',
  'project',
  'region',
  'zone',
  'user',
  'username',
  'login',
  'email',
  'name',
  'account',
  'site',
  'server',
  'port',
  'env',
  'environment',
  'version',
  'team',
  'service',
  'index',
  'bucket',
  'table',
  'warehouse',
  'database',
  'db',
  'role',
  'schema',
  'channel',
  'queue',
  'topic',
  'path',
  'dir',
  'file',
  'enabled',
  'enable',
  'timeout',
  'level',
  'mode',
  'sha',
  'sha1',
  'hash',
  'digest',
  'commit',
  'checksum',
  'fingerprint',
  'public',
  'tenant',
  'location',
  'namespace',
  'cluster',
  'instance',
  'image',
  'tag',
  'ref',
  'branch',
  'label',
  'type',
  'format',
  'source',
  'dataset',
  'rate',
  'job',
  'build',
  'node',
  'agent',
  'workspace',
  'app',
  'template',
  'list',
  'sender',
  'from',
]
  .map(ci)
  .join('|')})[0-9]{0,3}`;

// ---- Eighth pass: context that generalises (shared pieces) ------------------------------------
// Key material without a provider shape: upper- and lower-case letters and a digit, 16+ characters
// of a token alphabet, not ending in a sentence's full stop, not CamelCase words with a number.
// Object ids of payment, chat and identity APIs (Stripe's tok_, pm_, cus_ ..., Clerk's user_): ids.
const OBJECT_ID = `(?!(?:tok|pm|pi|cus|ch|src|seti|card|ba|acct|sub|in|ii|price|prod|evt|txn|re|po|py|si|cs|btok|req|sess|user|usr|org|team|proj|inv|ord|order)_[A-Za-z0-9]{8,}(?![A-Za-z0-9_]))`;
// Upper- and lower-case letters and a digit within the next token.
const MIXED_CASE = '(?=[^\\s"\'`]{0,199}[0-9])(?=[^\\s"\'`]{0,199}[A-Z])(?=[^\\s"\'`]{0,199}[a-z])';
// Key material without a provider shape: upper- and lower-case letters and a digit, 16+ characters
// of a token alphabet, not ending in a sentence's full stop, not CamelCase words with a number.
const STRONG = `${MIXED_CASE}${OBJECT_ID}(?![A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})+[0-9]{0,4}(?![A-Za-z0-9]))[A-Za-z0-9+/=_~-][A-Za-z0-9+/=_.~-]{14,198}[A-Za-z0-9+/=_~-]`;
// A quoted value: upper- and lower-case letters and a digit, no white space, not an id or a
// reference ($X, %X%, {{ }}, <x>).
const QUOTED_VALUE = `${MIXED_CASE}${OBJECT_ID}(?![$%{<])([^\\s"'\`\\\\<>\\u0000]{8,200})`;
// Secret words of the eighth pass's context rules, with the name tails that keep them secret.
const CONTEXT_WORD = `(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')}|${ci('code')})|${ci('secret')}|${ci('token')}|${ci('api')}[ _-]?${ci('key')}|${ci('access')}[ _-]${ci('key')}|${ci('private')}[ _-]${ci('key')}|${ci('credential')})[sS]?(?:[_.-]?(?:${ci('access')}[_.-]?)?${ci('key')}|[_.-]?${ci('value')}|[_.-]?${ci('string')})?`;
const CONTEXT_KEYWORDS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'api key',
  'api_key',
  'api-key',
  'apikey',
  'access key',
  'access_key',
  'private key',
  'private_key',
  'credential',
];
// Name segments after a secret word that say the name holds something else: an id, a URL, a
// length, a lifetime, a hash, a header name, a policy ... (PASSWORD_MIN_LENGTH, TOKEN_TTL, SECRET_ARN).
export const META_WORDS = [
  'id',
  'ids',
  'url',
  'uri',
  'urls',
  'endpoint',
  'host',
  'type',
  'types',
  'kind',
  'name',
  'names',
  'file',
  'files',
  'path',
  'dir',
  'length',
  'len',
  'min',
  'max',
  'count',
  'limit',
  'size',
  'ttl',
  'expiry',
  'expires',
  'expiration',
  'expire',
  'lifetime',
  'timeout',
  'seconds',
  'interval',
  'hash',
  'hashed',
  'digest',
  'sha',
  'sha1',
  'sha256',
  'sha512',
  'md5',
  'checksum',
  'header',
  'headers',
  'enabled',
  'enable',
  'disabled',
  'policy',
  'rules',
  'regex',
  'pattern',
  'required',
  'hint',
  'prompt',
  'label',
  'field',
  'reset',
  'ref',
  'arn',
  'version',
  'region',
  'project',
  'manager',
  'store',
  'scope',
  'scopes',
  'issuer',
  'audience',
  'algorithm',
  'algo',
  'rounds',
  'cost',
  'format',
  'encoding',
  'prefix',
  'suffix',
  'threshold',
  'rate',
  'budget',
  'location',
  'provider',
  'source',
  'mode',
  'level',
  'cache',
  'last',
  'eight',
  'public',
  'fingerprint',
  'usage',
  'refresh',
  'rotation',
  'strength',
  'complexity',
  'validation',
  'validator',
  'generator',
  'style',
  'index',
  'table',
  'column',
  'schema',
  'class',
  'env',
  'var',
  'template',
  'placeholder',
  'example',
  'sample',
  'description',
  'help',
  'text',
  'error',
  'message',
  'retries',
  'attempts',
  'lockout',
  'history',
  'age',
  'changed',
  'updated',
  'created',
  'at',
  'mount',
  'volume',
  'backend',
  'engine',
  'namespace',
  'key_id',
  'keyid',
  'ok',
  'test',
  // message keys (`messages.put("password.invalid", "...")`): the text shown, not the secret
  'invalid',
  'mismatch',
  'incorrect',
  'wrong',
  'tooshort',
  'toolong',
  'tooweak',
  'weak',
  'forgot',
  'title',
  'tooltip',
];
const META_PART = `(?:${META_WORDS.map(ci).join('|')})`;

// A password in prose or a label: upper- and lower-case letters and a digit, 8 to 64 characters.
const PASS_STRONG = `${MIXED_CASE}${OBJECT_ID}[A-Za-z0-9+/=_~!@#%^&*-][A-Za-z0-9+/=_.~!@#%^&*-]{6,62}[A-Za-z0-9+/=_~!@#%^&*-]`;
// A name in an XML attribute or element that says secret (not `auth`, which names authors too).
const XML_SECRET_NAME = `[A-Za-z0-9_.:-]{0,40}(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')})?|${ci('pwd')}|${ci('secret')}|${ci('token')}|${ci('api')}[_.-]?${ci('key')}|${ci('access')}[_.-]?${ci('key')}|${ci('private')}[_.-]?${ci('key')}|${ci('credential')})[sS]?[A-Za-z0-9_.:-]{0,20}`;
// An Ethereum private key: 64 hex digits, with or without 0x.
const ETH_KEY = '(?:0x)?[0-9a-fA-F]{64}';
// An item of a list of keys: a letter and a digit, key material.
const LIST_ITEM = '(?=[A-Za-z+/=_.~-]{0,199}[0-9])(?=[0-9+/=_.~-]{0,199}[A-Za-z])[A-Za-z0-9+/=_.~-]{12,200}';

export const KEYWORD_RULES: KeywordRuleSource[] = [
  // ---- Provider tokens with a documented prefix ----------------------------------------------
  rule('matrix-access-token', ['syt_'], '\\bsyt_[A-Za-z0-9]{2,64}_[A-Za-z0-9]{20}_[A-Za-z0-9]{6}\\b'),
  rule(
    'gitlab-token',
    ['glimt-', 'glagent-', 'glffct-', 'glwt-', 'glrtr-'],
    '\\bgl(?:imt|agent|ffct|wt|rtr)-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])',
  ),
  rule('atlassian-api-token', ['atctt3'], '\\bATCTT3[A-Za-z0-9_=-]{60,300}'),
  rule(
    'newrelic-key',
    ['nriq-', 'nrra-', 'nraa-'],
    '\\bNR(?:IQ|RA|AA)-[A-Za-z0-9_-]{27,48}(?![A-Za-z0-9_-])',
  ),
  // New Relic licence (ingest) keys: 40 characters ending in NRAL.
  rule('newrelic-license-key', ['nral'], '\\b[a-z0-9]{36}NRAL\\b', { find: 'window' }),
  rule('axiom-token', ['xaat-', 'xapt-'], `\\bxa(?:at|pt)-${UUID}\\b`, { entropy: 0 }),
  rule('infisical-token', ['st.'], `\\bst\\.${UUID}\\.[0-9a-f]{32}\\.[0-9a-f]{32}\\b`),
  // Bitwarden Secrets Manager access tokens: 0.<uuid>.<secret>:<key>.
  rule('bitwarden-access-token', ['0.'], `\\b0\\.${UUID}\\.[A-Za-z0-9]{30}:[A-Za-z0-9+/]{22}={0,2}`),
  rule('asana-token', ['1/', '2/'], '\\b[12]/[0-9]{10,20}(?:/[0-9]{10,20})?:[0-9a-f]{32}\\b'),
  // Intercom access tokens are base64 of "tok:...".
  rule('intercom-token', ['dg9ro'], '\\bdG9rO[A-Za-z0-9+/]{30,200}={0,2}'),
  rule('clickup-token', ['pk_'], '\\bpk_[0-9]{6,12}_[A-Z0-9]{32}\\b'),
  rule('dropbox-token', ['sl.'], '\\bsl\\.(?:u\\.)?[A-Za-z0-9_-]{130,1200}', { entropy: 3.5 }),
  rule('deno-deploy-token', ['ddp_', 'ddo_'], '\\bdd[po]_[A-Za-z0-9]{36}\\b'),
  rule('nvidia-api-key', ['nvapi-'], '\\bnvapi-[A-Za-z0-9_-]{64}(?![A-Za-z0-9_-])'),
  rule('tavily-api-key', ['tvly-'], '\\btvly-(?:dev-|prod-)?[A-Za-z0-9]{32}\\b'),
  rule('fireworks-api-key', ['fw_'], '\\bfw_[A-Za-z0-9]{24}\\b'),
  rule('cerebras-api-key', ['csk-'], '\\bcsk-[a-z0-9]{48}\\b'),
  rule('firecrawl-api-key', ['fc-'], '\\bfc-[0-9a-f]{32}\\b'),
  rule('jina-api-key', ['jina_'], '\\bjina_[A-Za-z0-9_-]{50,80}(?![A-Za-z0-9_-])'),
  rule('voyage-api-key', ['pa-'], '\\bpa-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])', { entropy: 3.5 }),
  rule('telnyx-api-key', ['key'], '\\bKEY[0-9A-Z]{26,32}_[A-Za-z0-9]{22}\\b'),
  rule(
    'paddle-api-key',
    ['pdl_'],
    '\\bpdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}\\b',
  ),
  rule('gocardless-token', ['sandbox_'], '\\bsandbox_[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])', { entropy: 3.5 }),
  rule('checkout-secret-key', ['sk_sbox_'], '\\bsk_sbox_[a-z0-9]{26,40}\\b'),
  // Azure DevOps personal access tokens (84 characters) carry the AZDO signature at character 76.
  rule('azure-devops-pat', ['azdo'], '\\b[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}\\b', { find: 'window' }),
  rule('yandex-iam-token', ['t1.'], '\\bt1\\.[A-Za-z0-9_-]{40,400}={0,2}\\.[A-Za-z0-9_-]{86}={0,2}'),
  rule('slack-token', ['xoxc-', 'xoxd-'], '\\bxox[cd]-[A-Za-z0-9%+/=-]{20,400}'),
  rule('linear-key', ['lin_oauth_'], '\\blin_oauth_[a-f0-9]{64}\\b'),
  rule('typeform-token', ['tfp_'], '\\btfp_[A-Za-z0-9_-]{40,80}(?![A-Za-z0-9_-])'),
  rule('lob-api-key', ['live_', 'test_'], '\\b(?:live|test)_[a-f0-9]{35}\\b'),
  rule('frameio-token', ['fio-u-'], '\\bfio-u-[A-Za-z0-9_=-]{64}'),
  rule('prefect-api-key', ['pnu_'], '\\bpnu_[A-Za-z0-9]{36}\\b'),
  rule('readme-api-key', ['rdme_'], '\\brdme_[a-z0-9]{70}\\b'),
  rule('mailersend-token', ['mlsn.'], '\\bmlsn\\.[a-f0-9]{64}\\b'),
  rule('duffel-token', ['duffel_'], '\\bduffel_(?:test|live)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])'),
  rule('gitlab-session-cookie', ['_gitlab_session='], '_gitlab_session=([0-9a-f]{32,64})\\b'),
  // Databricks OAuth secrets.
  rule('databricks-token', ['dose'], '\\bdose[a-f0-9]{32}\\b'),
  // Yandex Cloud static access key secrets.
  rule('yandex-key', ['yc'], '\\bYC[A-Za-z0-9_-]{38}(?![A-Za-z0-9_-])', { entropy: 3.5 }),
  // Azure's common annotated keys (84 characters, the JQQJ9 signature at character 52).
  rule('azure-key', ['jqqj9'], '\\b[A-Za-z0-9]{52}JQQJ9[A-Za-z0-9]{27}\\b', { find: 'window' }),
  // Cloudflare's scannable credentials (2026): cfk_ (global key), cfut_ (user), cfat_ (account
  // token), 40 characters and a checksum.
  rule('cloudflare-token', ['cfk_', 'cfut_', 'cfat_'], '\\bcf(?:k|ut|at)_[A-Za-z0-9]{40,56}\\b'),
  // Vercel's prefixed tokens (personal, integration, app access, refresh, API key).
  rule('vercel-token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], '\\bvc[piark]_[A-Za-z0-9]{24,80}\\b', {
    entropy: 3.5,
  }),
  rule('elastic-api-key', ['essu_'], '\\bessu_[A-Za-z0-9+/_-]{40,200}={0,2}', { entropy: 3.5 }),
  // PostHog personal API keys (phc_ project keys are public).
  rule('posthog-key', ['phx_'], '\\bphx_[A-Za-z0-9_]{40,50}\\b'),
  // Azure Container Registry passwords carry +ACR at character 43.
  rule(
    'azure-container-registry-password',
    ['+acr'],
    '(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{42}\\+ACR[A-Za-z0-9]{6}(?![A-Za-z0-9+/])',
    { find: 'window' },
  ),
  // ---- Tokens in URLs ------------------------------------------------------------------------
  rule('telegram-bot-token', ['telegram.org/bot'], 'telegram\\.org/bot([0-9]{8,10}:AA[A-Za-z0-9_-]{33})'),
  // Rocket.Chat incoming webhooks: /hooks/<id>/<token>.
  rule('rocketchat-webhook', ['/hooks/'], '/hooks/([A-Za-z0-9]{17}/[A-Za-z0-9]{48})(?![A-Za-z0-9])'),
  rule(
    'azure-function-key',
    ['azurewebsites.net/api/'],
    'azurewebsites\\.net/api/[^\\s?"\'\\u0000]{1,200}\\?(?:[^\\s"\'#\\u0000]{0,300}?&)?code=([A-Za-z0-9_%=-]{20,200})',
  ),
  // A JWT inside a URL-encoded value (a redirect's query): no word boundary before it.
  rule(
    'jwt',
    ['%3deyj', '%22eyj', '%3aeyj', '%20eyj'],
    '%(?:3[DdAa]|22|20)(eyJ[A-Za-z0-9_-]{10,1000}\\.eyJ[A-Za-z0-9_-]{10,8000}\\.[A-Za-z0-9_-]{10,1000})',
  ),
  // Go's database/sql DSN: user:password@tcp(host:port)/db.
  rule(
    'url-credentials',
    ['@tcp(', '@unix(', '@udp('],
    '(?<![A-Za-z0-9_/:.-])[A-Za-z0-9_.-]{1,64}:([^\\s:@/"\'`\\u0000]{3,200})@(?:tcp|unix|udp)\\(',
    { find: 'window', entropy: 0, values: true },
  ),
  // ---- Private keys in other armour ----------------------------------------------------------
  rule(
    'ssh2-private-key',
    ['---- begin ssh2'],
    '---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----[^\\u0000]{1,16000}?---- END SSH2 (?:ENCRYPTED )?PRIVATE KEY ----',
    { entropy: 0, block: true },
  ),
  // ---- Gitea's own token response pasted somewhere ({"sha1": ..., "token_last_eight": ...}) ---
  rule(
    'gitea-token',
    ['sha1'],
    'sha1\\\\?"\\s{0,2}:\\s{0,2}\\\\?"([0-9a-f]{40})\\\\?"(?=[^}\\u0000]{0,200}token_last_eight)',
    { entropy: 0 },
  ),
  // ---- Provider names next to a key of their shape, and their headers ------------------------
  rule(
    'datadog-api-key',
    ['datadog'],
    '[Dd]atadog[^\\n\\u0000]{0,40}?[\\s"\'`=:(,>]([a-f0-9]{32})(?![A-Za-z0-9])',
  ),
  rule(
    'honeycomb-key',
    ['x-honeycomb-team'],
    `${ci('x-honeycomb-team')}(?:${Q})?\\s{0,3}[:=]\\s{0,3}(?:${Q})?([A-Za-z0-9]{22,64})`,
  ),
  rule('snyk-token', ['snyk auth'], `snyk[ \\t]+auth[ \\t]+(${UUID})`, { entropy: 0 }),
  rule(
    'codecov-token',
    ['codecov'],
    'codecov[^\\n\\u0000]{0,160}?[ \\t]-t[ \\t]{1,3}["\']?([A-Za-z0-9-]{20,64})',
  ),
  rule(
    'wandb-api-key',
    ['wandb login'],
    'wandb[ \\t]+login[ \\t]+(?:--[a-z-]+[ \\t]+)*([A-Za-z0-9_-]{40,86})',
  ),
  // ---- Credentials in tool syntax --------------------------------------------------------------
  rule(
    'secret-assignment',
    ['identified by'],
    `${ci('identified')}[ \\t]+${ci('by')}[ \\t]+(?:${ci('password')}[ \\t]+)?(${Q})([^'"\`\\n\\\\\\u0000]{4,200})\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  // sqlcmd/bcp take the password as -P (elsewhere -P is a port or a flag).
  rule(
    'secret-flag',
    [' -p '],
    `(?<=\\b(?:sqlcmd|bcp|osql|isql|zip|unzip)\\b[^\\n\\u0000]{0,200}) -P[ \\t]{1,3}(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  // keytool's store and key passwords.
  rule(
    'secret-flag',
    ['-storepass', '-keypass', '-srcstorepass', '-deststorepass', '-srckeypass', '-destkeypass'],
    `-(?:src|dest)?(?:store|key)pass[ \\t]{1,4}(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  // openssl's pass phrase arguments: -passout pass:VALUE (env:, file: and fd: name a source).
  rule(
    'secret-flag',
    ['pass:'],
    `(?<=(?:^|\\s)-(?:pass(?:out|in)?|password|passphrase)[ \\t]{1,4}["']?)pass:([^\\s"'\\\\\\u0000]{4,200})`,
    { entropy: 1.5 },
  ),
  rule(
    'secret-flag',
    ['smbclient'],
    `smbclient\\b[^\\n\\u0000]{0,200}?(?:-U|--user(?:=|[ \\t]))[ \\t]{0,3}(["']?)[^\\s%"']{1,64}%([^\\s"'\\\\\\u0000]{3,200})\\1`,
    { group: 2, entropy: 1.5 },
  ),
  rule(
    'secret-flag',
    ['sqlplus'],
    `sqlplus(?:\\.exe)?(?:[ \\t]+-[A-Za-z]+)*[ \\t]+["']?[A-Za-z0-9_$#.]{1,64}/([^\\s@/"'\\\\\\u0000]{3,200})@`,
    { entropy: 1.5, values: true },
  ),
  // 7-Zip takes the password glued: 7z a -pVALUE
  rule(
    'secret-flag',
    [' -p'],
    `(?<=\\b7za?\\b[^\\n\\u0000]{0,200}) -p([^\\s"'$<{\\\\\\u0000-][^\\s"'\\\\\\u0000]{3,255})`,
    { entropy: 1.5, values: true },
  ),
  // A secret piped into a login: echo "VALUE" | docker login --password-stdin, | chpasswd
  rule(
    'secret-flag',
    ['--password-stdin', '--with-token', 'chpasswd', 'secret create'],
    `(?<![A-Za-z0-9_])(?:echo|printf(?:[ \\t]+["']?%s["']?)?)[ \\t]+(?:-n[ \\t]+)?((?:${Q})?)([^\\s"'$|\\\\\\u0000]{6,200})\\1[ \\t]*\\|[ \\t]*(?:sudo[ \\t]+)?(?:(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|gh|crane)\\b[^\\n|\\u0000]{0,200}?(?:--password-stdin|--with-token)|chpasswd|(?:docker|podman)[ \\t]+secret[ \\t]+create\\b)`,
    { group: 2, entropy: 1.5, find: 'window', values: true },
  ),
  rule(
    'secret-flag',
    ['htpasswd'],
    `htpasswd[ \\t]+(?:-[a-zA-Z]*b[a-zA-Z]*[ \\t]+)(?:-[a-zA-Z]+[ \\t]+)*\\S+[ \\t]+[^\\s-]\\S*[ \\t]+(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['rabbitmqctl'],
    `rabbitmqctl[ \\t]+(?:add_user|change_password)[ \\t]+\\S+[ \\t]+(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  // ---- Secret-named values in document and language syntax ------------------------------------
  // C: #define API_KEY "value"
  rule(
    'secret-assignment',
    ['#define'],
    `#define[ \\t]+${SECRET_NAME}[ \\t]+${Q}([^"'\\\\\\n\\u0000]{6,200})${Q}`,
    {
      entropy: 2.5,
      values: true,
    },
  ),
  // Dockerfile ENV/ARG in the space-separated form: ENV API_TOKEN value
  rule(
    'secret-assignment',
    ['env ', 'arg '],
    `(?<=^|[\\n\\u0000 \\t+>"\`]|\\\\n)(?:ENV|ARG)[ \\t]+(${SECRET_NAME})[ \\t]+(["']?)([^\\s"'=\\\\\\u0000][^\\s"'\\\\\\u0000]{5,300})\\2`,
    { group: 3, entropy: 2.5, values: true },
  ),
  // Windows setx and fish's set -x: setx API_TOKEN "value"
  rule(
    'secret-assignment',
    ['setx ', 'set -gx ', 'set -x ', 'set -ux ', 'set -xg '],
    `set(?:x|[ \\t]+-[gUux]{1,3})[ \\t]+(${SECRET_NAME})[ \\t]+(${Q}?)([^\\s"'\\\\\\u0000]{6,300})\\2`,
    { group: 3, entropy: 2.5, values: true },
  ),
  // XML attribute pairs: <add key="ApiKey" value="..."/> (web.config, NuGet), <property name=... value=.../>
  rule(
    'secret-assignment',
    ['key="', "key='", 'name="', "name='", 'key=\\"', 'name=\\"'],
    `(?:key|name)=(${Q})(${SECRET_NAME})\\1[ \\t]{1,8}value=(${Q})([^"'\\\\\\n\\u0000]{6,300})\\3`,
    { group: 4, entropy: 2.5, values: true },
  ),
  // Setters and builders: setPassword("..."), .apiKey("...")
  rule(
    'secret-assignment',
    ['password(', 'passwd(', 'secret(', 'token(', 'apikey('],
    `(?<=\\bset[A-Za-z]{0,30}|\\.)(?:[Pp]assword|[Pp]asswd|[Ss]ecret|[Tt]oken|[Aa]pi[Kk]ey)\\(\\s{0,3}${Q}([^"'\\\\\\n\\u0000]{6,200})${Q}\\s{0,3}\\)`,
    { entropy: 2.5, values: true },
  ),
  // Setters that take a name and a value (twelfth pass, blind-written tuning corpus): os.Setenv("API_TOKEN",
  // "..."), [Environment]::SetEnvironmentVariable('DB_PASSWORD', '...', 'Machine'), props.setProperty(..),
  // os.environ.setdefault(..), putenv, a map's put/set. A `*_KEY` name needs key material as its value.
  rule(
    'secret-assignment',
    SETTER_KEYWORDS,
    `(?<=(?:${SETTER_NAMES})\\(\\s{0,3})${Q}(?![A-Za-z0-9_.-]{0,60}[_.-]${META_PART}${Q})(${SECRET_NAME})${Q}\\s{0,3},\\s{0,3}(${Q})([^"'\\\\\\n\\u0000]{6,300})\\2`,
    { group: 3, entropy: 2.5, values: true, find: 'window' },
  ),
  rule(
    'secret-assignment',
    SETTER_KEYWORDS,
    `(?<=(?:${SETTER_NAMES})\\(\\s{0,3})${Q}(?![A-Za-z0-9_.-]{0,40}(?:${ci('public')}|${ci('publishable')}|${ci('cache')}|${ci('ssh')}|${ci('primary')}|${ci('site')})[_.-]?${ci('key')})([A-Za-z0-9_.-]{0,40}[_.-]${ci('key')})${Q}\\s{0,3},\\s{0,3}(${Q})((?=[^"'\\\\\\s]{0,199}[0-9])(?=[^"'\\\\\\s]{0,199}[A-Za-z])[A-Za-z0-9+/=_.~-]{16,300})\\2`,
    { group: 3, entropy: 3, values: true, find: 'window' },
  ),
  // Defaults of environment lookups: os.getenv("DB_PASSWORD", "..."), process.env.API_KEY || "..."
  rule(
    'secret-assignment',
    ['getenv(', 'environ.get(', 'env.fetch('],
    `(?:getenv|environ\\.get|ENV\\.fetch)\\(\\s{0,3}${Q}(${SECRET_NAME})${Q}\\s{0,3},\\s{0,3}(${Q})([^"'\\\\\\n\\u0000]{6,200})\\2`,
    { group: 3, entropy: 2.5, values: true },
  ),
  rule(
    'secret-assignment',
    ['process.env.'],
    `process\\.env\\.(${SECRET_NAME})\\s{0,3}(?:\\|\\||\\?\\?)\\s{0,3}(${Q})([^"'\\\\\\n\\u0000]{6,200})\\2`,
    { group: 3, entropy: 2.5, values: true },
  ),
  // Session cookies: a session id is a credential (Cookie: sessionid=..., curl -b "i_like_gitea=...").
  rule(
    'session-cookie',
    ['session=', 'sessionid=', 'session_id=', 'sid=', 'sessid=', 'i_like_gitea='],
    `(?<=(?:${ci('cookie')}(?:${Q})?\\s{0,3}:|(?:^|\\s)(?:-b|--cookie)[ \\t]{1,3}["']?)[^\\n\\u0000]{0,400})(?:${ci('session')}(?:${ci('id')}|_${ci('id')})?|${ci('sid')}|${ci('sessid')}|i_like_gitea)=([^\\s;,"'\\\\\\u0000]{16,600})`,
    { entropy: 2.5 },
  ),
  // ---- Secrets split across lines and string literals (fifth pass) ----------------------------
  // A private key written one line per string: a JSON array of lines, a YAML list of quoted lines,
  // concatenated literals ("...\n" + "..."), Python's implicit concatenation. The body lines after the armour are masked
  // as one span (the whole-text PEM scan needs the armour lines to be adjacent). Up to four header
  // or blank strings may come first (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`, PGP's `Version: ...`
  // and the blank line after them), and a PGP block's armour says `PRIVATE KEY BLOCK`.
  rule(
    'private-key',
    ['private key-----', 'private key block-----'],
    `PRIVATE KEY(?: BLOCK)?-----${ESC_N}${Q}(?:${KEY_STRING_SEP}${Q}(?:[A-Za-z][A-Za-z-]{1,23}:[ \\t][^"'\\\\\\n\\u0000]{1,120})?${ESC_N}${Q}){0,4}((?:${KEY_STRING_SEP}${Q}[A-Za-z0-9+/=]{16,100}${ESC_N}${Q}){1,200})`,
    { entropy: 0, block: true },
  ),
  // ---- Constructors that take a user and a password (C#, Java, the AWS SDKs) -------------------
  rule(
    'secret-assignment',
    [
      'networkcredential(',
      'passwordauthentication(',
      'basicawscredentials(',
      'basicsessioncredentials(',
      'usernamepasswordcredentials(',
      'basiccredentials(',
      'httpbasicauth(',
      'httpdigestauth(',
      'basicauth(',
      'auth=(',
      'auth = (',
    ],
    `(?:NetworkCredential|PasswordAuthentication|BasicAWSCredentials|BasicSessionCredentials|UsernamePasswordCredentials|BasicCredentials|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|(?<![A-Za-z0-9_])auth[ \\t]?=[ \\t]?)\\(\\s{0,3}(?:${Q}[^"'\\\\\\n\\u0000]{0,100}${Q}|[A-Za-z_][A-Za-z0-9_.]{0,60})\\s{0,3},\\s{0,3}${Q}([^"'\\\\\\n\\u0000]{6,200})${Q}`,
    { entropy: 2, values: true },
  ),
  // ---- Heredocs and triple-quoted strings under a secret name ----------------------------------
  // HCL/Ruby/PHP heredocs: password = <<EOT / <<-EOF / <<~EOS, one value line, then the delimiter.
  rule(
    'secret-assignment',
    ['= <<', '=<<'],
    `(?<=${SECRET_NAME}["']?[ \\t]{0,3})=[ \\t]{0,2}<<<?[-~]?(["']?)([A-Za-z_]{2,20})\\1[ \\t]*${NL}${LINE_PREFIX}[ \\t]*([^\\s"'\\\\\\u0000]{6,300})[ \\t]*${NL}${LINE_PREFIX}[ \\t]*\\2(?![A-Za-z0-9_])`,
    { group: 3, entropy: 2, values: true },
  ),
  // Python: a secret name, then a triple-quoted string whose one line is the value.
  rule(
    'secret-assignment',
    ['"""', "'''", '\\"\\"\\"'],
    `(?<=${SECRET_NAME}[ \\t]{0,3}[:=][ \\t]{0,3})((?:\\\\?"){3}|''')[ \\t]*${NL}${LINE_PREFIX}[ \\t]*([^\\s"'\\\\\\u0000]{6,300})[ \\t]*${NL}${LINE_PREFIX}[ \\t]*\\1`,
    { group: 2, entropy: 2, values: true },
  ),
  // ---- Lists under a secret name ---------------------------------------------------------------
  // "api_keys": ["...", "..."] (JSON in a file or a body), values that hold a letter and a digit.
  rule(
    'secret-assignment',
    ['":[', '": [', "':[", "': [", '= [', '=['],
    `(?<=(?<![A-Za-z0-9])[A-Za-z0-9_.-]{0,40}(?:${SECRET_WORD}|(?<=[a-z])Key)(?:[eE]?[sS])?\\\\?["']?[ \\t]{0,3})(?:["'])?[ \\t]{0,3}(?::|=)[ \\t]{0,3}\\[((?:\\s{0,40}${Q}${MIXED}[A-Za-z0-9+/=_.~-]{12,200}${Q}\\s{0,40},?){1,20})\\]`,
    { entropy: 3 },
  ),
  // YAML: tokens:\n  - value\n  - value
  rule(
    'secret-assignment',
    ['tokens:', 'passwords:', 'secrets:', 'keys:', 'credentials:', 'passwds:'],
    `(?<=(?:^|[^A-Za-z0-9_])(?!(?:public|ssh|gpg|pgp|known|authorized|host|deploy)[_-]?)[A-Za-z0-9_.-]{0,40})(?:${ci('token')}|${ci('password')}|${ci('passwd')}|${ci('secret')}|${ci('key')}|${ci('credential')})[sS]:[ \\t]*((?:${NL}[ \\t>+]*(?:\\d{4}-\\d\\d-\\d\\dT[0-9:.]{8,20}Z[ \\t]{1,4})?[ \\t]*-[ \\t]+${MIXED}[A-Za-z0-9+/=_.~-]{12,200}(?=[ \\t]*(?:\\r?\\n|\\\\n|$|\\u0000))){1,20})`,
    { entropy: 3 },
  ),
  // ---- Prose ---------------------------------------------------------------------------------------
  // "pwd X", "the password is "X"", "creds: admin / X", "**Password:**\n`X`"
  rule(
    'secret-assignment',
    ['pwd '],
    `(?<![A-Za-z0-9_$/.(-])${ci('pwd')}[ \\t]+(?:${ci('is')}[ \\t]+)?(["'\`]?)${MIXED}([^\\s"'\`<>()\\\\\\u0000]{6,200}?)\\1(?=[\\s.,;)]|$)`,
    { group: 2, entropy: 2, values: true },
  ),
  rule(
    'secret-assignment',
    ['password is', 'password was', 'passphrase is', 'passcode is', 'pwd is', 'secret is', 'token is'],
    `(?:${ci('pass')}(?:${ci('word')}|${ci('phrase')}|${ci('code')})|${ci('pwd')}|${ci('secret')}|${ci('token')})[ \\t]+(?:is|was)[ \\t]*:?[ \\t]*(${Q}|\`)${MIXED}([^\\s"'\`\\\\\\u0000]{6,200})\\1`,
    { group: 2, entropy: 2, values: true },
  ),
  // `pass` and `pwd` are no keywords of the generic rule (whose prose check reads `password`): a
  // verb or a table cell after them ("the smtp pass is X", "| ADMIN_PWD | X |") is read here.
  rule(
    'secret-assignment',
    ['pass is', 'pass was', 'pass |', 'pwd |', 'pass:', 'pwd:'],
    `(?<=^|[\\s_.*-])(?:${ci('pass')}|${ci('pwd')})(?:[ \\t]+(?:is|was)(?:[ \\t]*:)?|[ \\t]*[|:])[ \\t]+(\`?)${MIXED}([^\\s"'\`<>|\\\\\\u0000]{8,200})\\1(?=[ \\t]*\\||[.,;]?(?:\\s|$|\\u0000|\\\\))`,
    { group: 2, entropy: 2, values: true },
  ),
  rule(
    'secret-assignment',
    ['creds', 'credentials'],
    `${ci('cred')}(?:${ci('ential')})?s[ \\t]{0,3}(?:[:=-]|${ci('are')}|${ci('is')})?[ \\t]{0,3}\\**[ \\t]{0,3}\`?[A-Za-z0-9_.@-]{1,64}[ \\t]*[/:][ \\t]*(["'\`]?)${MIXED}([^\\s"'\`<>\\\\\\u0000]{6,200})\\1`,
    { group: 2, entropy: 2, values: true },
  ),
  rule(
    'secret-assignment',
    ['password:', 'password**', 'passphrase:', 'passwort:'],
    `${ci('pass')}(?:${ci('word')}|${ci('phrase')}|${ci('wort')}):?(?:\\*\\*|__)?:?[ \\t]*${NL}${LINE_PREFIX}(?:\`{1,3}|[ \\t]{4,})${MIXED}([^\\s"'\`<>\\\\\\u0000]{6,200})`,
    { entropy: 2, values: true },
  ),
  // ---- Command lines (fifth pass) -----------------------------------------------------------------
  rule(
    'secret-flag',
    ['gh secret set'],
    `gh[ \\t]+secret[ \\t]+set\\b[^\\n\\u0000]{0,200}?[ \\t](?:--body(?:=|[ \\t]+)|-b[ \\t]*)((?:${Q})?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['ldap'],
    `ldap(?:search|modify|add|delete|whoami|passwd|compare|exop|modrdn)\\b[^\\n\\u0000]{0,300}?[ \\t]-w[ \\t]*(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['net user '],
    `${ci('net')}[ \\t]+${ci('user')}[ \\t]+(?:"[^"\\n\\u0000]{1,64}"|[^\\s/"'\\u0000]{1,64})[ \\t]+(["']?)([^\\s/"'*\\\\\\u0000][^\\s"'\\\\\\u0000]{3,200})\\1(?=[ \\t]+/|[ \\t]*(?:\\r?\\n|\\\\n|$|\\u0000))`,
    { group: 2, entropy: 1.5, values: true },
  ),
  // ---- Sixth pass: bodies Gitea returns (diffs, Actions variables and logs, webhooks, files) -----
  // A quoted value with punctuation under a secret name (Django's SECRET_KEY alphabet, passwords
  // with symbols), which the keyword regex's value class stops at. Not a reference (`$`, `{`, `<`,
  // `%` first).
  rule(
    'secret-assignment',
    ['secret', 'pass', 'pwd', 'token'],
    `${SECRET_WORD}(?:[_.-]?(?:${ci('key')}(?:[_-]?${ci('base')})?|${ci('value')}|${ci('string')}|[0-9]))?\\\\?["']?[ \\t]{0,3}(?:=>|:=|=|:)[ \\t]{0,3}(${Q})(?=[^"'\\s\\\\\\u0000]{0,199}[!@#%^&*()=+])${MIXED}${NO_PLACEHOLDER}(?!\\$[A-Za-z_{(]|%[A-Za-z_(])([^\\s"'\\\\<>{}[\\]\\u0000]{16,200})\\1`,
    // Brackets make the shared placeholder check refuse a value: the pattern checks placeholders itself.
    // The operator comes at most 25 characters on: the secret word (11: `credentials`), its suffix
    // (9: `_key_base`), a backslash, a quote and 3 blanks.
    { group: 2, entropy: 3.5, values: true, block: true, needs: { operatorWithin: 26 } },
  ),
  // Personal access tokens under a *_PAT name: REGISTRY_PAT=..., "GITEA_PAT": "...".
  rule(
    'secret-assignment',
    ['_pat', '-pat'],
    `[_-](?:PAT|pat)\\\\?["']?[ \\t]{0,3}(?:=|:)[ \\t]{0,3}(${Q}?)${MIXED}([A-Za-z0-9_.~+/-]{20,200}={0,2})(?![A-Za-z0-9_.~+/=-])\\1`,
    { group: 2, entropy: 3.5 },
  ),
  rule(
    'provider-key',
    HEX32_PROVIDERS,
    `(?<=(?:${HEX32_PROVIDERS.map(ci).join('|')})[^\\n\\u0000]{0,80}?[\\s"'\`=:(,>])[a-f0-9]{32}(?![A-Za-z0-9])`,
    { find: 'window' },
  ),
  // Twilio's Client(account SID, auth token), the SDK import a few lines before.
  rule(
    'provider-key',
    ['twilio'],
    `(?<=${ci('twilio')}[^\\u0000]{0,300}?\\bAC[0-9a-f]{32}${Q}\\s{0,3},\\s{0,3}${Q})[0-9a-f]{32}(?![A-Za-z0-9])`,
    { find: 'window' },
  ),
  // Firebase Cloud Messaging legacy server keys: AAAA + 7, a colon, APA91b + 134.
  rule('fcm-server-key', [':apa91b'], '\\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{134}', {
    find: 'window',
  }),
  // Prose: "the admin password is now X", "the token is still X".
  rule(
    'secret-assignment',
    ['is now', 'was now', 'is still', 'is currently'],
    `(?<=(?:${ci('password')}|${ci('passwd')}|${ci('passphrase')}|${ci('pwd')}|${ci('secret')}|${ci('token')})[^\\n\\u0000.]{0,40}?)\\b(?:is|was)[ \\t]+(?:now|still|currently)[ \\t]*:?[ \\t]*(["'\`]?)${MIXED}([^\\s"'\`<>.,;\\\\\\u0000][^\\s"'\`<>\\\\\\u0000]{5,200}?)\\1(?=[\\s.,;)\\\\"\\u0000]|$)`,
    { group: 2, entropy: 2, values: true, find: 'window' },
  ),
  // aws configure set aws_secret_access_key VALUE (and the session token).
  rule(
    'secret-flag',
    ['configure set'],
    `${ci('configure')}[ \\t]+set[ \\t]+(?:--profile[ \\t]+\\S+[ \\t]+)?(?:[A-Za-z0-9_-]{1,40}\\.)?(?:aws_secret_access_key|aws_session_token)[ \\t]+(["']?)([A-Za-z0-9+/=]{16,2000})\\1(?![^\\s"'\\\\])`,
    // base64: a secret key may start with '/', which the value allowlist reads as a path
    { group: 2, entropy: 3 },
  ),
  // Platform CLIs that store secrets: fly secrets set NAME=VALUE, heroku/dokku config:set NAME=VALUE
  // (config values may be plain settings: random-looking values of 16+ characters only).
  rule(
    'secret-flag',
    ['secrets set'],
    `(?<=\\b(?:fly|flyctl)[ \\t]+secrets[ \\t]+set\\b[^\\n\\u0000]{0,300}?[ \\t])[A-Za-z_][A-Za-z0-9_]{0,60}=(["']?)${MIXED}([^\\s"'\\\\$\\u0000][^\\s"'\\\\\\u0000]{5,300})\\1`,
    { group: 2, entropy: 2.5, values: true, find: 'window' },
  ),
  rule(
    'secret-flag',
    ['config:set'],
    `(?<=\\b(?:heroku|dokku)[ \\t]+config:set\\b[^\\n\\u0000]{0,300}?[ \\t])[A-Z_][A-Z0-9_]{0,60}=(["']?)${MIXED}([^\\s"'\\\\$\\u0000][^\\s"'\\\\\\u0000]{15,300})\\1`,
    { group: 2, entropy: 3.5, values: true, find: 'window' },
  ),
  // An Authorization header (or Gitea's webhook `authorization_header`) with a scheme the header
  // rules do not list (Api-Key, Key, OAuth, vendor schemes) or none: the value is the credential.
  // Padding only at the end, so `Credential=...` and `keyId="..."` parameters are not values.
  rule(
    'authorization-header',
    ['authorization'],
    `${ci('authorization')}(?:_${ci('header')})?\\\\?["']?[ \\t]{0,3}(?::|,(?=[ \\t]{0,3}\\\\?["']))[ \\t]{0,3}\\\\?["']?(?:[A-Za-z][A-Za-z0-9_-]{1,30}[ \\t]{1,3})?${MIXED}([A-Za-z0-9+/_.~:-]{16,400}={0,2})(?![A-Za-z0-9+/_.~:=-]|[ \\t]+[A-Za-z]+=)`,
    { entropy: 3 },
  ),
  // ---- Seventh pass: webhook URLs, query codes, provider-named keys ------------------------------
  // A provider named by the key, a random-looking value (NAMED_PROVIDERS above): HETZNER_API=...,
  // "linode": "...", `Opsgenie: <uuid>` (UUIDs too: several of these providers issue them as keys).
  // Not when the name's last part is a lookup (JENKINS_URL, SNYK_ORG_ID), nor a 40-hex value (a SHA).
  rule(
    'provider-key',
    NAMED_PROVIDERS,
    `(?:${NAMED_PROVIDERS.map(ci).join('|')})(?![A-Za-z0-9_-]{0,40}?[_-]${LOOKUP_PART}\\\\?["']?[ \\t]{0,3}(?:=|:))[A-Za-z0-9_-]{0,40}?\\\\?["']?[ \\t]{0,3}(?:=>|:=|=|:)[ \\t]{0,3}(?:\\\\?["'\`])?(?=[A-Za-z_+/=-]{0,199}[0-9])(?=[0-9_+/=-]{0,199}[A-Za-z])(?![0-9a-f]{40}(?![A-Za-z0-9]))(?![0-9]{2,5}/)([A-Za-z0-9_+/=-]{16,200})(?![A-Za-z0-9_+/=.~-])`,
    { group: 1, entropy: 3.3, values: true },
  ),
  // Webhook URLs whose path holds the token: /webhook/<token>, /hooks/<token>, /webhooks/<id>/<token>
  // (chat and CI services, Teams' IncomingWebhook/<key>/). The token segment has letters and digits
  // and is not a UUID (delivery and hook ids);
  // up to two segments (ids, names) may come before it. Numeric hook ids (Gitea's, GitHub's
  // /hooks/123) and words (.git/hooks/pre-commit) are not tokens.
  rule(
    'webhook-url',
    ['/webhook/', '/webhooks/', '/hooks/'],
    `/(?:${ci('web')})?${ci('hook')}s?/(?:(?!${HOOK_LOOKUP_SEGMENT}/)[A-Za-z0-9_.@-]{1,80}/){0,2}(?!${UUID}(?![A-Za-z0-9_-]))(?=[A-Za-z_-]{0,127}[0-9])(?=[0-9_-]{0,127}[A-Za-z])([A-Za-z0-9_-]{20,128})(?![A-Za-z0-9_.-])`,
    { group: 1, entropy: 3.5 },
  ),
  // A webhook path that says what its next segment is (twelfth pass, blind-written tuning corpus):
  // /hooks/token/<value>, /hooks/key/<value>, /webhook/secret/<value>; the value may be percent-encoded
  // and have no digit (an app password). After /hooks/sha/, /hooks/id/, /hooks/ref/ it is a lookup;
  // after /hooks/code/ a hook's name (lower-case words, a number) is not a token.
  rule(
    'webhook-url',
    ['/webhook/', '/webhooks/', '/hooks/'],
    `/(?:${ci('web')})?${ci('hook')}s?/(?:(?:${ci('token')}|(?:${ci('api')}[_-]?)?${ci('key')}|${ci('auth')}|${ci('secret')}|${ci('pass')}(?:${ci('word')})?|${ci('sig')}(?:${ci('nature')})?)/|${ci('code')}/(?![a-z]{1,40}(?:[-_.](?:[a-z]{1,40}|[0-9]{1,6})){0,8}(?![A-Za-z0-9_.~!*+%-])))([A-Za-z0-9_.~!*+%-]{8,400})(?![A-Za-z0-9_.~!*+%-])`,
    { group: 1, entropy: 2.5 },
  ),
  // Teams' (Office 365 connector) incoming webhooks: .../IncomingWebhook/<32 hex>/<uuid>.
  rule('webhook-url', ['/incomingwebhook/'], '/IncomingWebhook/([0-9a-f]{32})/', {
    group: 1,
    entropy: 2.5,
  }),
  // Bot webhooks keyed by a UUID: Feishu/Lark /bot/v2/hook/<uuid>, WeCom webhook/send?key=<uuid>.
  rule('webhook-url', ['/bot/v2/hook/'], `/bot/v2/hook/(${UUID})`, { group: 1, entropy: 0 }),
  rule('webhook-url', ['webhook/send?key='], `webhook/send\\?key=(${UUID})`, { group: 1, entropy: 0 }),
  // IFTTT Maker webhooks: /trigger/<event>/with/key/<key>.
  rule('webhook-url', ['/with/key/'], '/with/key/([A-Za-z0-9_-]{20,64})(?![A-Za-z0-9_-])', {
    group: 1,
    entropy: 3.5,
  }),
  // Values under a section or map that names secrets: an INI/TOML `[secrets]`, `[tokens]`,
  // `[api_keys]`, `[app.credentials]` table of `name = value` lines, a YAML `secrets:` map of
  // `name: value` lines. Every value holds a letter and a digit; the span from the first value to the
  // last is masked (names between included). Not `[ssh_keys]`, `[public_keys]`-like tables.
  rule(
    'secret-assignment',
    ['secrets]', 'tokens]', 'keys]', 'credentials]', 'passwords]'],
    `(?<=\\[(?:(?!(?:public|ssh|gpg|pgp|known|authorized|host|deploy|signing)[_.-])[A-Za-z0-9_.-]{0,30}[_.-])?)(?:${ci('api')}[_-]?)?(?:${ci('secret')}|${ci('token')}|${ci('key')}|${ci('credential')}|${ci('password')})[sS]\\][ \\t]*${NL}${LINE_PREFIX}[A-Za-z0-9_.-]{1,40}[ \\t]{0,3}=[ \\t]{0,3}(?:${Q})?(${SECTION_VALUE}(?:${SECTION_END}[ \\t]*${NL}${LINE_PREFIX}[A-Za-z0-9_.-]{1,40}[ \\t]{0,3}=[ \\t]{0,3}(?:${Q})?${SECTION_VALUE}){0,19})${SECTION_END}`,
    { group: 1, entropy: 3 },
  ),
  rule(
    'secret-assignment',
    ['secrets:', 'tokens:', 'credentials:', 'passwords:', 'api_keys:', 'apikeys:', 'api-keys:'],
    `(?<=(?:^|[^A-Za-z0-9_])(?!(?:public|ssh|gpg|pgp|known|authorized|host|deploy|signing|image[_-]?pull)[_-]?)[A-Za-z0-9_.-]{0,40})(?:${ci('api')}[_-]?)?(?:${ci('secret')}|${ci('token')}|${ci('key')}|${ci('credential')}|${ci('password')})[sS]:[ \\t]*${NL}${LINE_PREFIX}[ \\t]{1,12}[A-Za-z0-9_.-]{1,40}:[ \\t]{1,3}(?:${Q})?(${SECTION_VALUE}(?:${SECTION_END}[ \\t]*${NL}${LINE_PREFIX}[ \\t]{1,12}[A-Za-z0-9_.-]{1,40}:[ \\t]{1,3}(?:${Q})?${SECTION_VALUE}){0,19})${SECTION_END}`,
    { group: 1, entropy: 3 },
  ),
  // Oracle's thin JDBC URL: jdbc:oracle:thin:user/password@host.
  rule('url-credentials', [':thin:'], `:thin:[A-Za-z0-9_$#.]{1,64}/([^\\s@/"'\\\\\\u0000]{3,200})@`, {
    group: 1,
    entropy: 1.5,
    values: true,
  }),

  // ---- Eighth pass: context that generalises ----------------------------------------------------
  // A name whose secret word is followed by more segments (DB_PASSWORD_PROD, TOKEN_GITHUB,
  // SECRET_KEY_DJANGO, PASS_DB, TF_TOKEN_app_terraform_io, secret.key.prod), none of which says the
  // name holds something else (META_PART), assigned a value with a letter and a digit.
  rule(
    'secret-assignment',
    [
      'password_',
      'password-',
      'password.',
      'passwd_',
      'passwd-',
      'pwd_',
      'pass_',
      'secret_',
      'secret.',
      'secret-',
      'token_',
      'token.',
      'token-',
      'passphrase_',
      'apikey_',
      'api_key_',
      'api-key-',
    ],
    `(?<!/[A-Za-z0-9_.-]{0,40})(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')})?|${ci('pwd')}|${ci('secret')}|${ci('token')}|${ci('api')}[_-]?${ci('key')})(?:[_.-](?!${META_PART}(?![A-Za-z0-9]))[A-Za-z0-9]{1,24}){1,3}(?:\\\\?["'][ \\t]{0,3}:|[ \\t]{0,3}(?:=>|:=|=|:(?=[ \\t])))[ \\t]{0,3}(${Q}?)(?![$%{<])${MIXED}([^\\s"'\`\\\\<>,;(){}[\\]\\u0000]{8,200})\\1`,
    { group: 2, entropy: 3, values: true },
  ),
  // A secret word followed by its value with no verb, in one pattern (one regex run per keyword hit):
  // - a password word, a label or nothing, then a password (8+ characters, both cases and a digit):
  //   `**password**: X`, `root pass - X`;
  // - any secret word, then a quoted value or unquoted key material (16+): `token 'X'`, `new token
  //   "X" works`, `**API key**: X`, `client secret - X`, `(token X)`, `TOKEN -> X`, `secret_access_key
  //   X` (rclone, CLI positionals), `"Smtp:Password" "X"` (dotnet user-secrets);
  // - a label ending its line, the value alone on a later line (indented, backticked or fenced):
  //   "New token:\n\n    X", "**API key:**\n```\nX\n```".
  rule(
    'secret-assignment',
    CONTEXT_KEYWORDS,
    `(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')}|${ci('code')})[sS]?(?=[\\s:"'\`*|])(?:\\\\?["'])?(?:\\*\\*|__)?(?::(?:\\*\\*|__)?[ \\t]{0,3}|[ \\t]{1,3}(?:(?:->|=>|-|=|\\|)[ \\t]{1,3})?)(?:\\*\\*|\`)?(${PASS_STRONG})(?![A-Za-z0-9+/=_~!@#%^&*-])|${CONTEXT_WORD}(?:(?=[\\s:"'\`*|])(?:\\\\?["'])?(?:\\*\\*|__)?(?::(?:\\*\\*|__)?[ \\t]{0,3}|[ \\t]{1,3}(?:(?:->|=>|-|=|\\|)[ \\t]{1,3})?)(?:(?:${Q}|\`)${QUOTED_VALUE}(?:${Q}|\`)|(${STRONG}))(?![A-Za-z0-9+/=_~-])|(?:\\*\\*|__)?:(?:\\*\\*|__)?[ \\t]*${NL}(?:${LINE_PREFIX}${NL})?(?:${LINE_PREFIX}\`\`\`[A-Za-z]{0,10}[ \\t]*${NL})?${LINE_PREFIX}(?:\`{1,3}|[ \\t]{2,})?(${STRONG})(?![A-Za-z0-9+/=_~-])))`,
    // Every value starts with MIXED_CASE (a digit before the next white space or quote) at most 37
    // characters on: the word (23: `private_key` + `s` + `_access_key`), a quote, `**`, a separator
    // (8: 3 blanks, `->`, 3 blanks) and the value's quote (2); or a ':' ends the label, at most 25 on.
    { entropy: 3, values: true, needs: { operatorWithin: 26, digitTokenWithin: 37 } },
  ),
  // Prose for the pass phrase words, which the generic keyword's prose does not read: "the
  // passphrase for the backup is X".
  rule(
    'secret-assignment',
    ['passphrase', 'passcode'],
    `${ci('pass')}(?:${ci('phrase')}|${ci('code')})[^\\n\\u0000"=:]{0,40}?[ \\t](?:is|was)[ \\t]*:?[ \\t]*(["'\`]?)${MIXED}([^\\s"'\`<>()\\\\\\u0000]{6,200}?)\\1(?=[\\s.,;)]|$)`,
    { group: 2, entropy: 2.5, values: true },
  ),
  // A header named by the variable, with its scheme: GITEA_AUTH_HEADER: token X, "header": "X-Api-Key: X".
  rule(
    'authorization-header',
    ['_header', '-header', 'header"', "header'", 'header\\"'],
    `[_-]?${ci('header')}\\\\?["']?[ \\t]{0,3}[:=][ \\t]{0,3}\\\\?["']?(?:${ci('token')}|${ci('bearer')}|${ci('basic')}|[Xx]-[A-Za-z-]{1,30}:)[ \\t]{1,3}${MIXED}([A-Za-z0-9+/_.~-]{16,400}={0,2})(?![A-Za-z0-9+/_.~=-])`,
    { group: 1, entropy: 3 },
  ),

  // XML elements keyed by a secret-named attribute: <entry key="db.password">X</entry> (Java
  // properties XML), <string name="api_key">X</string> (Android), <setting name="ClientSecret"
  // ...><value>X</value> (.NET settings).
  rule(
    'secret-assignment',
    ['key="', "key='", 'name="', "name='", 'key=\\"', 'name=\\"'],
    `(?:key|name)=(${Q})(${XML_SECRET_NAME})\\1[^<>\\u0000]{0,120}>(?:[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*<value>)?${MIXED}([^<>"'\\s\\u0000]{6,300})<`,
    { group: 3, entropy: 2.5, values: true },
  ),
  // A CDATA section under a secret-named element: <password><![CDATA[X]]></password>.
  rule(
    'secret-assignment',
    ['<![cdata['],
    `(?<=<${XML_SECRET_NAME}>)<!\\[CDATA\\[${MIXED}([^\\]\\s\\u0000]{6,300})\\]\\]>`,
    { group: 1, entropy: 2.5, values: true },
  ),
  // Command lines whose short flag is a password or key: openssl enc -k PASS / -K HEX, twine/oc/cf/
  // cqlsh/mongodump -p, ssh-keygen -N/-P, lftp -u user,PASS, httpie -a user:PASS, MinIO's mc alias set.
  rule(
    'secret-flag',
    [' -k '],
    `(?<=\\b(?:openssl|enc)\\b[^\\n\\u0000]{0,200}) -[kK][ \\t]{1,3}(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    [' -p '],
    `(?<=(?:^|[\\s;&|(\`"'+>\\u0000])(?:twine|oc|cf|cqlsh|influx|mongo(?:dump|restore|export|import|stat|top|files))[ \\t][^\\n\\u0000]{0,200}) -p[ \\t]{1,3}(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    [' -n ', ' -p '],
    `(?<=\\bssh-keygen\\b[^\\n\\u0000]{0,200}) -[NP][ \\t]{1,3}(["']?)${ARG}\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['lftp'],
    `lftp\\b[^\\n\\u0000]{0,100}?[ \\t]-u[ \\t]{1,3}(["']?)[^\\s,"'\\u0000]{1,64},([^\\s"'\\\\\\u0000]{3,200})\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    [' -a '],
    `(?<=(?:^|[\\s;&|(\`\\u0000])https?(?:[ \\t][^\\n\\u0000]{0,200})?) -a[ \\t]{1,3}(["']?)[^\\s:"'\\u0000]{1,64}:([^\\s"'\\\\\\u0000]{3,200})\\1`,
    { group: 2, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['alias set', 'host add'],
    `(?:alias[ \\t]+set|config[ \\t]+host[ \\t]+add)[ \\t]+[A-Za-z0-9_.-]{1,40}[ \\t]+https?://[^\\s"'\\u0000]{1,200}[ \\t]+(["']?)[^\\s"'\\u0000]{3,128}\\1[ \\t]+(["']?)${ARG}\\2`,
    { group: 3, entropy: 1.5, values: true },
  ),
  // C# auto-properties with an initialiser: public string Password { get; set; } = "X";
  rule(
    'secret-assignment',
    ['{ get;', '{get;'],
    `(?<=${SECRET_NAME}[ \\t]{0,3})\\{[ \\t]*get;[ \\t]*(?:(?:private|protected|internal)[ \\t]+)?(?:set|init);[ \\t]*\\}[ \\t]*=[ \\t]*@?${Q}([^"'\\\\\\n\\u0000]{6,200})${Q}`,
    { group: 1, entropy: 2.5, values: true },
  ),
  // Ruby's ENV.fetch with a block default: ENV.fetch("API_TOKEN") { "X" }.
  rule(
    'secret-assignment',
    ['env.fetch('],
    `ENV\\.fetch\\(\\s{0,3}${Q}(${SECRET_NAME})${Q}\\s{0,3}\\)\\s{0,3}\\{\\s{0,3}(${Q})([^"'\\\\\\n\\u0000]{6,200})\\2\\s{0,3}\\}`,
    { group: 3, entropy: 2.5, values: true },
  ),
  // sbt: Credentials("realm", "host", "user", "X").
  rule(
    'secret-assignment',
    ['credentials('],
    `Credentials\\(\\s{0,3}${Q}[^"'\\\\\\n\\u0000]{1,100}${Q}\\s{0,3},\\s{0,3}${Q}[^"'\\\\\\n\\u0000]{1,200}${Q}\\s{0,3},\\s{0,3}${Q}[^"'\\\\\\n\\u0000]{1,100}${Q}\\s{0,3},\\s{0,3}${Q}([^"'\\\\\\n\\u0000]{6,200})${Q}\\s{0,3}\\)`,
    { group: 1, entropy: 2, values: true },
  ),
  // A secret-named key whose value maps hosts to credentials: composer's auth.json ("bearer",
  // "github-oauth", "gitlab-token": {"host": "X"}).
  rule(
    'secret-assignment',
    [
      'oauth"',
      'bearer"',
      'token"',
      'tokens"',
      'secrets"',
      'credentials"',
      'oauth\\"',
      'bearer\\"',
      'token\\"',
    ],
    `(?:${ci('oauth')}|${ci('bearer')}|${ci('token')}[sS]?|${ci('secret')}[sS]|${ci('credential')}[sS])\\\\?"[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*:[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*\\{[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*\\\\?"[A-Za-z0-9.-]{1,100}\\.[A-Za-z]{2,24}(?::[0-9]{1,5})?\\\\?"[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*:[ \\t]*(?:${NL}${LINE_PREFIX})?[ \\t]*\\\\?"${MIXED}([^"\\\\\\s\\u0000]{12,400})\\\\?"`,
    { group: 1, entropy: 3 },
  ),
  // Ethereum private keys handed to a wallet or listed as Hardhat/Truffle accounts.
  rule(
    'private-key',
    ['wallet(', 'privatekeytoaccount(', 'fromprivatekey(', 'from_key('],
    `(?:Wallet|privateKeyToAccount|fromPrivateKey|from_key)\\(\\s{0,3}${Q}(${ETH_KEY})${Q}`,
    { group: 1, entropy: 3 },
  ),
  rule(
    'private-key',
    ['accounts'],
    `${ci('accounts')}\\\\?["']?\\s{0,3}[:=]\\s{0,3}\\[((?:\\s{0,8}${Q}${ETH_KEY}${Q}\\s{0,8},?){1,20})\\]`,
    { group: 1, entropy: 3 },
  ),
  // A URL with a password inside a URL-encoded value: redirect=https%3A%2F%2Fuser%3APASS%40host.
  rule(
    'url-credentials',
    ['%3a%2f%2f'],
    `%3[Aa]%2[Ff]%2[Ff][^\\s%&"'@/\\u0000]{1,64}%3[Aa]([^\\s&"'@/\\u0000]{3,200}?)%40`,
    { group: 1, entropy: 1.5, values: true },
  ),
  // Several keys under a plural secret name, unquoted: API_KEYS=a,b  api_keys: [a, b]  tokens = [a].
  rule(
    'secret-assignment',
    ['keys', 'tokens', 'secrets', 'passwords'],
    `(?:${ci('key')}|${ci('token')}|${ci('secret')}|${ci('password')})[sS]\\\\?["']?[ \\t]{0,3}(?::|=)[ \\t]{0,3}(?:\\[[ \\t]{0,3}(${LIST_ITEM}(?:[ \\t]{0,3},[ \\t]{0,3}${LIST_ITEM}){0,19})[ \\t]{0,3}\\]|(${LIST_ITEM}(?:,${LIST_ITEM}){1,19}))(?![A-Za-z0-9+/=_.~-])`,
    { entropy: 3 },
  ),
  // A PuTTY key file as a whole (public lines, private lines and the MAC), as a PEM block is.
  rule(
    'putty-private-key',
    ['putty-user-key-file-'],
    `PuTTY-User-Key-File-[1-9]:[ \\t]{0,4}[A-Za-z0-9@.-]{1,60}[ \\t]*${NL}([^\\u0000"]{1,16000}?Private-MAC:[ \\t]{0,4}[0-9a-fA-F]{40,128})`,
    { group: 1, entropy: 0, block: true },
  ),

  // A header set in a web server's or proxy's syntax (no colon): nginx proxy_set_header
  // Authorization "Basic X", Apache RequestHeader set Authorization "Bearer X", HAProxy set-header.
  rule(
    'authorization-header',
    ['authorization '],
    `${ci('authorization')}[ \\t]{1,3}\\\\?["']?(?:${ci('basic')}|${ci('bearer')}|${ci('token')}|${ci('digest')})[ \\t]{1,3}${MIXED}([A-Za-z0-9+/_.~-]{12,400}={0,2})(?![A-Za-z0-9+/_.~=-])`,
    { group: 1, entropy: 3 },
  ),
  // Wi-Fi pre-shared keys: wpa_supplicant psk="X", hostapd wpa_passphrase=X (the latter is a pass word).
  rule(
    'secret-assignment',
    ['psk="', 'psk=\\"', 'psk = "'],
    `${ci('psk')}[ \\t]{0,2}=[ \\t]{0,2}${Q}([^"'\\\\\\n\\u0000]{8,63})${Q}`,
    {
      group: 1,
      entropy: 2.5,
      values: true,
    },
  ),

  // Capability URLs whose path holds the key after an integration, trigger or ingest segment (event
  // APIs' /integration/<key>/enqueue, /triggers/<key>, /ingest/<key>): a segment of 20+ characters
  // with letters and digits, not a UUID and not a 40/64-hex SHA, after up to three other segments.
  rule(
    'webhook-url',
    ['/integration/', '/integrations/', '/trigger/', '/triggers/', '/ingest/', '/incoming/', '/notify/'],
    `/(?:${ci('integration')}s?|${ci('trigger')}s?|${ci('ingest')}|${ci('incoming')}|${ci('notify')})/(?:[A-Za-z0-9_.@-]{1,80}/){0,3}(?!${UUID}(?![A-Za-z0-9_-]))(?!(?:[0-9a-f]{40}|[0-9a-f]{64})(?![A-Za-z0-9_-]))(?=[A-Za-z_-]{0,127}[0-9])(?=[0-9_-]{0,127}[A-Za-z])([A-Za-z0-9_-]{20,128})(?![A-Za-z0-9_.-])`,
    { group: 1, entropy: 3.5 },
  ),
  // A function key in a URL's query (`/api/<function>?code=<key>`, Azure Functions on any host): 40+
  // characters with both cases and a digit; not an OAuth callback's code (a `state=` in the query).
  rule(
    'sas-signature',
    ['?code=', '&code='],
    `(?<=/api/[^\\s"'?#\\u0000]{1,200}(?:\\?[^\\s"'#\\u0000]{0,300})?)(?<!${ci('state')}=[^\\s"'#\\u0000]{0,300})[?&]code=${MIXED_CASE}([A-Za-z0-9_%-]{40,200}(?:={1,2}|%3[Dd]){0,2})(?![A-Za-z0-9_%=-])(?![^\\s"'#\\u0000]{0,400}[?&]${ci('state')}=)`,
    { group: 1, entropy: 3.5 },
  ),

  // A UUID said to be the key in prose (providers that issue UUID keys: Heroku, Postmark, Snyk ...):
  // "the API key is <uuid>", "the token was <uuid>"; not a request, trace or session id.
  rule(
    'secret-assignment',
    ['key is ', 'key was '],
    `(?<=(?:${ci('api')}|${ci('access')}|${ci('secret')})[ _-]?)${ci('key')}[ \\t]+(?:is|was)[ \\t]*:?[ \\t]*(["'\`]?)(${UUID})\\1(?![A-Za-z0-9-])`,
    { group: 2, entropy: 0 },
  ),
  rule(
    'secret-assignment',
    ['token is ', 'token was ', 'secret is ', 'secret was '],
    `(?<!(?:${['request', 'trace', 'cursor', 'page', 'csrf', 'state', 'idempotency', 'sync', 'continuation'].map(ci).join('|')})[ _-]?)(?:${ci('token')}|${ci('secret')})[ \\t]+(?:is|was)[ \\t]*:?[ \\t]*(["'\`]?)(${UUID})\\1(?![A-Za-z0-9-])`,
    { group: 2, entropy: 0 },
  ),
  // A Gitea token (40 hex) handed to a client in code: SetToken("..."), WithToken("..."), .token("..."),
  // and an f-string/template header value `f"token ..."`, `$"token ..."` (a bare 40-hex is never masked).
  rule(
    'authorization-header',
    ['token(', 'f"token ', "f'token ", '$"token ', 'f\\"token ', '$\\"token ', '`token '],
    `(?:${ci('token')}\\(\\s{0,3}${Q}|(?:[f$]${Q}|\`)${ci('token')}[ \\t]{1,3})([0-9a-f]{40})(?![0-9A-Za-z])`,
    { group: 1, entropy: 2.5 },
  ),
  // CLI output aligned in columns: `Token:       <uuid>` (heroku authorizations:create), `Secret:  X`.
  rule(
    'secret-assignment',
    ['token:', 'secret:'],
    `(?:${ci('token')}|${ci('secret')}):[ \\t]{4,24}(${UUID}|${STRONG})(?![A-Za-z0-9+/=_~-])`,
    { group: 1, entropy: 3 },
  ),
  // ---- Twelfth pass: the blind-written tuning corpus (bench/secrets/blind-tuning) --------------------
  // An Authorization header (or Gitea's webhook authorization_header) whose Basic/Bearer value is not
  // in token grammar: a password with symbols given as is (`Basic |.$hUUsd}7q;sE`, `Bearer l-H8#KF...`).
  rule(
    'authorization-header',
    ['authorization'],
    `${ci('authorization')}(?:_${ci('header')})?\\\\{0,3}["']?[ \\t]{0,3}[:=,][ \\t]{0,3}\\\\{0,3}["']?(?:${ci('basic')}|${ci('bearer')}|${ci('token')})[ \\t]{1,3}((?:[^\\s"'\\\\\\u0000]|\\\\+(?![\\\\"'\\s]|u00))(?:[^\\s"'\\\\\\u0000]|\\\\+(?![\\\\"'\\s]|u00)){5,300})(?=\\\\{0,3}["']|[ \\t]|$|\\u0000)`,
    { entropy: 2.5, values: true },
  ),
  // `AUTHORIZATION = "<base64>"`: a variable named for the header holding its credential.
  rule(
    'authorization-header',
    ['authorization'],
    `(?<![A-Za-z])${ci('authorization')}\\\\{0,3}["']?[ \\t]{0,3}(?:=|:)[ \\t]{0,3}(${Q}?)${MIXED}([A-Za-z0-9+/]{16,400}={0,2})\\1(?![A-Za-z0-9+/=])`,
    { group: 2, entropy: 3 },
  ),
  // A Markdown table whose header names a secret column (`| env | secret | owner |`): the first cell
  // of the rows below that holds key material (letters and digits, 12+ characters, random).
  rule(
    'secret-assignment',
    TABLE_SECRET_HEADERS.map((h) => `| ${h} |`),
    `\\|[ \\t]*(?:${TABLE_SECRET_HEADERS.map(ci).join('|')})[ \\t]*\\|[^\\n\\\\\\u0000]{0,200}${NL}${LINE_PREFIX}\\|[-: |]{3,200}${NL}(?:${LINE_PREFIX}\\|[^\\n\\\\\\u0000]{0,400}${NL}){0,8}?${LINE_PREFIX}\\|(?:[^|\\n\\\\\\u0000]{0,80}\\|){0,6}?[ \\t]*(\`?)${MIXED}([A-Za-z0-9+/=_.~-]{12,1000})\\1[ \\t]*\\|`,
    { group: 2, entropy: 3, values: true },
  ),
  // Passwords in other languages: names (PASSWORT=, $wachtwoord =, config.haslo =) and prose with the
  // language's verb ("la contraseña de la base es X", "a senha do admin é X", "das Passwort ist X").
  rule(
    'secret-assignment',
    FOREIGN_PASSWORD_WORDS,
    `${FOREIGN_PASSWORD}[A-Za-z0-9_]{0,20}(?:\\\\?["'])?[ \\t]{0,3}(?:=|:)[ \\t]{0,3}(${Q}?)(?![$%{<])([^\\s"'\`\\\\\\u0000]{6,200})\\1`,
    { group: 2, entropy: 2.5, values: true },
  ),
  rule(
    'secret-assignment',
    FOREIGN_PASSWORD_WORDS,
    `${FOREIGN_PASSWORD}[^\\n\\u0000"|=:]{0,40}?[ \\t](?:es|est|ist|è|é|is|era|war|était|sono|são)[ \\t]*:?[ \\t]{1,3}(?:\\\\?["'\`«])?${MIXED}([^\\s"'\`<>()[\\]{},;|*\\\\\\u0000»][^\\s"'\`|\\\\\\u0000»]{5,199})`,
    { entropy: 2.5, values: true },
  ),

  // Wallet keys: BIP-32 extended private keys (xprv/tprv/yprv/zprv + base58), a WIF key or a BIP-39
  // mnemonic under a name that says so, a JWK's private member `d`.
  rule(
    'crypto-private-key',
    ['xprv', 'tprv', 'yprv', 'zprv'],
    '(?<![A-Za-z0-9])[xtyz]prv[1-9A-HJ-NP-Za-km-z]{100,112}(?![A-Za-z0-9])',
    {
      entropy: 3,
    },
  ),
  rule(
    'crypto-private-key',
    ['wif', 'btc', 'bitcoin'],
    `(?:${ci('wif')}|${ci('btc')}|${ci('bitcoin')})[A-Za-z0-9_]{0,30}(?:\\\\?["'])?(?:[ \\t]{0,3}:[ \\t]{0,3}[A-Za-z]{1,10})?[ \\t]{0,3}(?:=|:)[ \\t]{0,3}(?:${Q})?([5KLc][1-9A-HJ-NP-Za-km-z]{50,51})(?![A-Za-z0-9])`,
    { group: 1, entropy: 3 },
  ),
  rule(
    'crypto-private-key',
    ['mnemonic', 'seed phrase', 'seed_phrase', 'seedphrase', 'recovery phrase', 'recovery_phrase'],
    `(?:${ci('mnemonic')}|${ci('seed')}[ _-]?${ci('phrase')}|${ci('recovery')}[ _-]?${ci('phrase')})[A-Za-z0-9_]{0,20}(?:\\\\?["'])?[ \\t]{0,3}(?:=|:|${ci('is')})[ \\t]{0,3}(?:${Q}|\`)?((?:[a-z]{3,8}[ \\t]){11,23}[a-z]{3,8})(?![A-Za-z])`,
    { group: 1, entropy: 2.5, allow: [NOT_BIP39] },
  ),
  rule(
    'crypto-private-key',
    ['"d":"', '"d": "', '\\"d\\":\\"', '\\\\\\"d\\\\\\":\\\\\\"', '%22d%22%3a%22'],
    `(?:\\\\{0,7}"|%22)d(?:\\\\{0,7}"|%22)[ \\t]?(?::|%3[Aa])[ \\t]?(?:\\\\{0,7}"|%22)(?!(?:[0-9a-f]{40}|[0-9a-f]{64})(?![A-Za-z0-9_-]))${MIXED}([A-Za-z0-9_-]{32,700})(?![A-Za-z0-9_-])`,
    { entropy: 3.5 },
  ),
  // A Google service-account key's `private_key_id` (40 hex; the key file's other half).
  rule(
    'secret-assignment',
    ['private_key_id'],
    `${ci('private_key_id')}\\\\{0,7}"?[ \\t]{0,3}:[ \\t]{0,3}\\\\{0,7}"([0-9a-f]{40})(?![0-9a-f])`,
    { entropy: 2.5 },
  ),
  // Names of keying material the name rules do not read: pepper, PSK, psw/pword, an SNMP community.
  rule(
    'secret-assignment',
    ['pepper', 'psk', 'psw', 'pword'],
    `(?<![A-Za-z])(?:${ci('pepper')}|${ci('psk')}|${ci('psw')}|${ci('pword')})(?![A-Za-z])[A-Za-z0-9_]{0,20}(?:\\\\?["'])?[ \\t]{0,3}(?:\\??=|:)[ \\t]{0,3}(${Q}?)(?![$%{<])${MIXED}([^\\s"'\`\\\\\\u0000]{8,200})\\1`,
    { group: 2, entropy: 2.5, values: true },
  ),
  // `community:` is also a project's community (a name, a year, a link): the value must not read as
  // words joined by separators with a number or version after them.
  rule(
    'secret-assignment',
    ['community'],
    `(?<![A-Za-z])${ci('community')}(?![A-Za-z])[A-Za-z0-9_]{0,20}(?:\\\\?["'])?[ \\t]{0,3}(?:\\??=|:)[ \\t]{0,3}(${Q}?)(?![$%{<])(?!${WORDS_AND_NUMBER}(?![^\\s"'\`\\\\\\u0000]))${MIXED}([^\\s"'\`\\\\\\u0000]{8,200})\\1`,
    { group: 2, entropy: 2.5, values: true },
  ),
  // Apple app-specific passwords (xxxx-xxxx-xxxx-xxxx, lower-case letters) under a password name.
  rule(
    'secret-assignment',
    ['password', 'pass=', 'pass:', 'pwd'],
    `(?:${ci('password')}|${ci('pass')}|${ci('pwd')})[A-Za-z0-9_]{0,20}(?:\\\\?["'])?[ \\t]{0,3}(?:=|:)[ \\t]{0,3}(?:${Q})?([a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4})(?![A-Za-z0-9-])`,
    { group: 1, entropy: 2.5, needs: { operatorWithin: 40 } },
  ),
  // Tool syntax: an LDAP bind password (`-D "cn=..." -w X`), a PAT piped into `az devops login`,
  // `vault operator unseal X`, a Gradle signing config's `storePassword "X"`.
  rule(
    'secret-flag',
    ['-d "cn=', "-d 'cn=", '-d \\"cn=', '-d cn='],
    `-D[ \\t]+(\\\\{0,3}["']?)[A-Za-z]{1,12}=[^"'\\n\\u0000]{1,200}?\\1[ \\t]+-w[ \\t]+(\\\\{0,3}["']?)([^\\s"'\\\\\\u0000-][^\\s"'\\\\\\u0000]{3,255})\\2`,
    { group: 3, entropy: 1.5, values: true },
  ),
  rule(
    'secret-flag',
    ['devops login'],
    `(?<![A-Za-z0-9_])echo[ \\t]+(${Q}?)([^\\s"'$|\\\\\\u0000]{6,200})\\1[ \\t]*\\|[ \\t]*az[ \\t]+devops[ \\t]+login`,
    { group: 2, entropy: 2, find: 'window', values: true },
  ),
  rule(
    'secret-flag',
    ['operator unseal'],
    `${ci('operator')}[ \\t]+${ci('unseal')}[ \\t]+(?:-[a-z-]+(?:=\\S+)?[ \\t]+)*(${Q}?)([A-Za-z0-9+/]{20,100}={0,2})\\1(?![A-Za-z0-9+/=])`,
    { group: 2, entropy: 3 },
  ),
  rule(
    'secret-assignment',
    ['storepassword', 'keypassword'],
    `(?:${ci('store')}|${ci('key')})${ci('password')}[ \\t]+(${Q})([^"'\\\\\\n\\u0000]{6,200})\\1`,
    { group: 2, entropy: 2, values: true },
  ),
  // A Jenkins generic-webhook-trigger URL carries its token in the query.
  rule(
    'webhook-url',
    ['generic-webhook-trigger/invoke?'],
    `generic-webhook-trigger/invoke\\?(?:[^\\s"'#&\\\\\\u0000]{1,100}&){0,4}(?:${ci('token')}|${ci('code')}|${ci('key')}|${ci('secret')})=([^\\s"'#&\\\\\\u0000]{8,400})`,
    { group: 1, entropy: 2.5 },
  ),
  // Keys in provider URLs: Infura /v3/<key>, Alchemy /v2/<key>, Loggly /inputs/<token>/.
  rule('provider-url-key', ['infura.io/v3/'], `${ci('infura')}\\.io/v3/([0-9a-f]{32})(?![0-9A-Za-z])`, {
    group: 1,
    entropy: 3,
  }),
  rule(
    'provider-url-key',
    ['alchemy.com/v2/', 'alchemyapi.io/v2/'],
    `${ci('alchemy')}(?:\\.com|api\\.io)/v2/([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])`,
    { group: 1, entropy: 3 },
  ),
  rule(
    'provider-url-key',
    ['loggly.com/inputs/', 'loggly.com/bulk/'],
    `${ci('loggly')}\\.com/(?:inputs|bulk)/(${UUID})`,
    { group: 1, entropy: 2 },
  ),
  // Prefixes: Flagsmith server keys (ser.), Chromatic project tokens (chpt_), Langfuse secret keys
  // (sk-lf-), Stytch secrets (secret-live-/secret-test-).
  rule(
    'flagsmith-key',
    ['ser.'],
    '(?<![A-Za-z0-9_.-])ser\\.(?=[A-Za-z]{0,39}[0-9])[A-Za-z0-9]{20,40}(?![A-Za-z0-9])',
    {
      entropy: 3.3,
      needs: { digitTokenWithin: 4 },
    },
  ),
  rule('chromatic-token', ['chpt_'], '(?<![A-Za-z0-9_])chpt_[0-9a-f]{14,40}(?![A-Za-z0-9])', {
    entropy: 2.5,
  }),
  rule('langfuse-key', ['sk-lf-'], `(?<![A-Za-z0-9_])sk-lf-(?:${UUID}|[A-Za-z0-9]{20,64})(?![A-Za-z0-9-])`, {
    entropy: 2.5,
  }),
  rule(
    'stytch-secret',
    ['secret-live-', 'secret-test-'],
    '(?<![A-Za-z0-9_-])secret-(?:live|test)-[A-Za-z0-9_=-]{30,80}(?![A-Za-z0-9_=-])',
    { entropy: 3.5 },
  ),
  // Key files the PEM scan does not read: an OpenVPN static key (hex lines between its armour), a
  // minisign secret key (the base64 line after its comment line); and recovery codes listed one per line.
  rule(
    'private-key',
    ['openvpn static key v1-----'],
    `${ci('openvpn')} ${ci('static')} ${ci('key')} V1-----((?:${KEY_LINE_BREAK}[0-9a-fA-F]{32}){1,16})`,
    { entropy: 0, block: true },
  ),
  rule(
    'private-key',
    ['minisign encrypted secret key', 'minisign secret key'],
    `${ci('minisign')} (?:${ci('encrypted')} )?${ci('secret')} ${ci('key')}[^\\n\\\\\\u0000"]{0,40}${KEY_LINE_BREAK}([A-Za-z0-9+/]{80,300}={0,2})`,
    { entropy: 0, block: true },
  ),
  rule(
    'secret-assignment',
    ['recovery', 'backup', 'password'],
    `(?:(?:${ci('recovery')}|${ci('backup')})[ _-]?${ci('codes')}|${ci('password')})[A-Za-z0-9_]{0,10}(?:\\\\{0,7}["'])?[ \\t]{0,3}[:=][ \\t]{0,3}(?:\\\\{0,7}["'\`]|[|>]-?)?(?:${KEY_LINE_BREAK})?((?:[a-z0-9]{4,6}-[a-z0-9]{4,6}(?:${KEY_LINE_BREAK}|[ \\t]*,[ \\t]*|[ \\t]+)){3,24}[a-z0-9]{4,6}-[a-z0-9]{4,6})(?![a-z0-9-])`,
    { entropy: 3 },
  ),
  // Automation webhooks: Zapier catch hooks, Make (Integromat) scenario hooks.
  rule(
    'webhook-url',
    ['hooks.zapier.com/hooks/catch/'],
    'hooks\\.zapier\\.com/hooks/catch/([0-9]{4,12}/[A-Za-z0-9]{5,12})(?![A-Za-z0-9])',
    { group: 1, entropy: 2 },
  ),
  rule(
    'webhook-url',
    ['.make.com/', '.integromat.com/'],
    '(?<=hook\\.[a-z0-9]{2,8}\\.(?:make|integromat)\\.com/)([A-Za-z0-9]{24,40})(?![A-Za-z0-9])',
    { entropy: 3, find: 'window' },
  ),
  // A vault password written to the file Ansible reads it from: echo "X" > ~/.vault_pass
  rule(
    'secret-flag',
    ['vault_pass', 'vault-pass', 'vault_password', 'vault-password'],
    `(?<![A-Za-z0-9_])echo[ \\t]+(${Q}?)([^\\s"'$|>\\\\\\u0000]{6,200})\\1[ \\t]*>{1,2}[ \\t]*[^\\s"'\\u0000]{0,80}${ci('vault')}[_-]${ci('pass')}`,
    { group: 2, entropy: 2, find: 'window', values: true },
  ),
  // A Laravel APP_KEY: `base64:` and 32 bytes of base64.
  rule('laravel-app-key', ['base64:'], '(?<![A-Za-z0-9_])base64:[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])', {
    entropy: 3.5,
  }),
  // An Express signed session cookie (`s:<id>.<signature>`, URL-encoded).
  rule(
    'session-cookie',
    ['s%3a'],
    '(?<![A-Za-z0-9])s%3A[A-Za-z0-9_-]{20,64}\\.[A-Za-z0-9%+/_-]{20,100}(?![A-Za-z0-9%+/_-])',
    { entropy: 3.5 },
  ),
  // A CSV whose header names a secret column (`environment,api_key,owner`): the first cell of the next
  // line that holds key material.
  rule(
    'secret-assignment',
    ['secret', 'key', 'token', 'pass'],
    `(?<=(?:^|[\\n,\\u0000]|\\\\n|\\\\")[A-Za-z0-9_.-]{0,40})(?<!(?:${ci('pub')}|${ci('public')}|${ci('signing')}|${ci('publishable')}|${ci('verify')}|${ci('ssh')}|${ci('gpg')}|${ci('cache')}|${ci('primary')}|${ci('sort')}|${ci('partition')}|${ci('foreign')}|${ci('row')}|${ci('object')}|${ci('idempotency')})[_.-]?)(?:${ci('secret')}|${ci('key')}|${ci('token')}|${ci('pass')}(?:${ci('wd')}|${ci('word')})?)[A-Za-z0-9_]{0,20},[^\\n\\\\\\u0000]{0,200}${NL}${LINE_PREFIX}(?:[^,\\n\\\\\\u0000]{0,40},){1,6}?(\\\\?")?(?!(?:[0-9a-f]{40}|[0-9a-f]{64})(?![A-Za-z0-9+/=_.~#-]))${MIXED}([A-Za-z0-9+/=_.~#-]{20,300})\\1(?=,|[ \\t]*(?:\\r?\\n|\\\\n|$|\\u0000))`,
    { group: 2, entropy: 3, values: true },
  ),
  // SQL: UPDATE ... SET value = 'X' WHERE key|name = '<secret name>'.
  rule(
    'secret-assignment',
    ['set value ='],
    `${ci('set')}[ \\t]+${ci('value')}[ \\t]*=[ \\t]*(${Q})([^"'\\\\\\n\\u0000]{6,300})\\1[ \\t]+${ci('where')}[ \\t]+(?:${ci('key')}|${ci('name')})[ \\t]*=[ \\t]*${Q}${SECRET_NAME}${Q}`,
    { group: 2, entropy: 2.5, values: true },
  ),
  // Logs that print a secret-named setting: `DB_PASSWORD is set to X`, `resolved NOMAD_TOKEN -> X`.
  rule(
    'secret-assignment',
    [' is set to ', ' -> '],
    `(?<=${SECRET_NAME}[ \\t]{0,2})(?<![_.-]${META_PART}[ \\t]{0,2})[ \\t](?:${ci('is')} ${ci('set')} ${ci('to')}|->)[ \\t]{1,3}(\`?)${MIXED}([^\\s"'\`\\\\\\u0000]{8,200})\\1(?=[ \\t]|$|\\u0000|\\\\n)`,
    { group: 2, entropy: 2.5, values: true },
  ),
  // A client built with its key as the one argument: new ApiClient("X"), twilio(sid, "X").
  rule(
    'secret-assignment',
    ['client(', 'twilio('],
    `(?:(?<=new[ \\t]+[A-Z][A-Za-z0-9_.]{0,40})${ci('client')}\\([ \\t]*|(?<![A-Za-z0-9_])${ci('twilio')}\\([ \\t]*[A-Za-z_][A-Za-z0-9_.]{0,40}[ \\t]*,[ \\t]*)(${Q})(?=[^"'\\\\]{0,199}[0-9])(?=[^"'\\\\]{0,199}[A-Za-z])([A-Za-z0-9+/=_.~-]{16,300})\\1[ \\t]*\\)`,
    { group: 2, entropy: 3, values: true },
  ),
  // HTML: <meta name="<secret>" content="X">, <input name="<secret or *-key>" value="X">.
  rule(
    'secret-assignment',
    ['name="', 'name=\\"'],
    `${ci('name')}=(${Q})(?![A-Za-z0-9_.-]{0,40}${ci('author')}s?\\1)(?:${SECRET_NAME}|[A-Za-z0-9_.-]{0,40}[_.-]${ci('key')}|${ci('mnemonic')})\\1[ \\t]{1,8}(?:${ci('content')}|${ci('value')})=(${Q})${MIXED}([^"'\\\\\\n\\u0000]{8,300})\\2`,
    { group: 3, entropy: 3, values: true },
  ),
  // HTML-escaped quotes (Gitea's rendered Markdown and code): `&quot;password&quot;: &quot;X&quot;`,
  // `DB_PASSWORD=&quot;X&quot;`. The value is what is between the entities.
  rule(
    'secret-assignment',
    ['&quot;'],
    `(?<=${SECRET_NAME}(?:&quot;)?[ \\t]{0,3}[:=][ \\t]{0,3})(?<![_.-]${META_PART}(?:&quot;)?[ \\t]{0,3}[:=][ \\t]{0,3})&quot;(?=[^&\\s"'<>\\\\\\u0000]{0,199}[0-9])((?:[^&\\s"'<>\\\\\\u0000]|&(?:amp|lt|gt|apos|#39|#x27);){6,200})&quot;`,
    { group: 1, entropy: 3, values: true },
  ),
  // CLI flags of record keys and WireGuard: cypress run --record --key X, wg set ... private-key <(echo X).
  rule('secret-flag', ['--record --key'], `--record[ \\t]+--key[ \\t]+(${Q}?)([A-Za-z0-9-]{16,100})\\1`, {
    group: 2,
    entropy: 2.5,
  }),
  rule(
    'private-key',
    ['private-key <(echo', 'private-key \\u003c(echo'],
    `${ci('private-key')}[ \\t]+(?:<|\\\\u003c)\\([ \\t]*echo[ \\t]+(${Q}?)([A-Za-z0-9+/]{42,43}=)\\1`,
    { group: 2, entropy: 3 },
  ),
  // Checkout.com secret keys: sk_ (or sk_sbox_/sk_test_) and a UUID.
  rule('checkout-secret', ['sk_'], `(?<![A-Za-z0-9_])sk_(?:sbox_|test_)?${UUID}(?![A-Za-z0-9-])`, {
    entropy: 2.5,
  }),
];
