// Layer-2 secret patterns. Every rule is anchored on a literal (found by one combined scan), then
// confirmed by a sticky regex whose quantifiers are all bounded and never nested, so the work per
// anchor is bounded and the whole scan is linear in the input.

export type PatternMatch = { start: number; end: number; kind: string; reveal: number };

/** A rule tried where its anchor literal occurs; returns the secret's span or null. */
export type AnchoredRule = {
  kind: string;
  anchor: string;
  /** Characters of the secret that the mask may show (its public prefix). */
  reveal: number;
  match: (text: string, at: number) => [number, number] | null;
  /**
   * Every match starts with at least this many token characters ([A-Za-z0-9_-]) from `at`, its
   * anchor's included (0: not known). The scanner looks for such rules in runs of token characters.
   */
  tokenRun: number;
};

const isWordCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

/** True when the character before `at` cannot be part of the same token. */
export function boundaryBefore(text: string, at: number): boolean {
  return at === 0 || !isWordCode(text.charCodeAt(at - 1)) || afterEscape(text, at);
}

/** In serialised JSON a newline or tab before a token is the escape \n or \t: a boundary too. */
export function afterEscape(text: string, at: number): boolean {
  if (at < 2 || text.charCodeAt(at - 2) !== 92) return false;
  const c = text.charCodeAt(at - 1);
  return c === 110 || c === 116 || c === 114 || c === 98 || c === 102; // n t r b f
}

/** The random part of a real token has many distinct characters; placeholders like xxxx do not. */
export function looksRandom(s: string, from = 0): boolean {
  const seen = new Set<number>();
  const need = Math.min(8, Math.max(3, Math.floor((s.length - from) / 4)));
  for (let i = from; i < s.length; i++) {
    seen.add(s.charCodeAt(i));
    if (seen.size >= need) return !/example|xxxx|your_|0000000/i.test(s);
  }
  return false;
}

const TOKEN_CODE = /^[A-Za-z0-9_-]$/;
/**
 * How many token characters a prefixed rule's matches start with: the anchor's, when they all are,
 * and the least count of the body's first character class when every character it takes is one.
 */
function tokenRunOf(anchor: string, body: string): number {
  if (!/^[A-Za-z0-9_-]+$/.test(anchor)) return 0;
  const m = /^(\[[^\]]+\]|[A-Za-z0-9_-])\{(\d+)/.exec(body);
  if (m === null) return anchor.length;
  const cls = new RegExp(`^${m[1]!}$`);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (cls.test(ch) && !TOKEN_CODE.test(ch)) return anchor.length;
  }
  return anchor.length + Number(m[2]);
}

/**
 * Letters in random case rather than a word or an identifier: at least 12, and one of
 * - upper-case letters after lower-case ones and runs of upper-case letters, both twice (camelCase,
 *   PascalCase and ACRONYMCase names have one or the other, rarely both twice);
 * - letters drawn at random from both cases (a 16-character base62 secret without a digit, one draw
 *   in twenty): the case changes in 3 of 5 characters; or in every second one beside a run of two
 *   capitals; or at least every fourth one with four lower-case consonants together. The words of an
 *   identifier do not (getUserByIdAndName, ReadFromVaultPlease: their consonants meet only across a
 *   word's capital, and capitals stand together only in acronyms, whose case then changes seldom).
 */
export function randomLetters(v: string): boolean {
  if (v.length < 12 || !/^[A-Za-z]+$/.test(v)) return false;
  let lowerUpper = 0;
  let upperUpper = 0;
  let changes = 0;
  let upper = 0;
  let run = 0;
  let longRun = false;
  for (let i = 0; i < v.length; i++) {
    const b = v.charCodeAt(i);
    const up = b <= 90;
    if (up) upper++;
    if (i > 0) {
      const a = v.charCodeAt(i - 1);
      if (up) {
        if (a >= 97) lowerUpper++;
        else upperUpper++;
      }
      if (up !== a <= 90) changes++;
    }
    if (up || VOWELS.includes(v[i]!)) run = 0;
    else if (++run >= 4) longRun = true;
  }
  if (!looksRandom(v)) return false;
  if (lowerUpper >= 2 && upperUpper >= 2) return true;
  if (upper < 2 || v.length - upper < 2) return false;
  return (
    changes * 5 >= v.length * 3 ||
    (changes * 2 >= v.length && upperUpper >= 1) ||
    (longRun && changes >= 4 && changes * 4 >= v.length)
  );
}
// (Assigned values, and the words allowlist of keyword-rules.ts's value rules, read through this.)
const VOWELS = 'aeiou';

// A prefixed token: sticky regex at the anchor, word boundary before, no token character after.
function prefixed(
  kind: string,
  anchor: string,
  body: string,
  reveal = anchor.length,
  randomFrom = anchor.length,
): AnchoredRule {
  const re = new RegExp(`${escape(anchor)}${body}(?![A-Za-z0-9_-])`, 'y');
  return {
    kind,
    anchor,
    reveal,
    tokenRun: tokenRunOf(anchor, body),
    match(text, at) {
      if (!boundaryBefore(text, at)) return null;
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) return null;
      return looksRandom(m[0], randomFrom) ? [at, at + m[0].length] : null;
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const B = '[A-Za-z0-9]';
const W = '[A-Za-z0-9_-]';

export const ANCHORED_RULES: AnchoredRule[] = [
  // Cloud providers
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA'].map((p) =>
    prefixed('aws-access-key-id', p, '[A-Z0-9]{16}'),
  ),
  prefixed('google-api-key', 'AIza', `${W}{35}`),
  prefixed('google-oauth-secret', 'GOCSPX-', `${W}{28}`),
  prefixed('google-oauth-token', 'ya29.', `[A-Za-z0-9_.-]{30,2048}`),
  azureClientSecret(),
  prefixed('digitalocean-token', 'dop_v1_', '[a-f0-9]{64}'),
  prefixed('digitalocean-token', 'doo_v1_', '[a-f0-9]{64}'),
  prefixed('alibaba-access-key', 'LTAI', `${B}{12,24}`),
  // Forges
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((p) => prefixed('github-token', p, `${B}{36,251}`)),
  prefixed('github-fine-grained-pat', 'github_pat_', '[A-Za-z0-9_]{50,255}'),
  ...['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glsoat-', 'gloas-', 'glft-'].map((p) =>
    prefixed('gitlab-token', p, `${W}{20,64}`),
  ),
  prefixed('gitlab-runner-token', 'GR1348941', `${W}{20,64}`),
  prefixed('gitea-oauth-secret', 'gto_', '[a-z0-9]{40,64}'),
  prefixed('bitbucket-app-password', 'ATBB', `[A-Za-z0-9_=.-]{28,64}`),
  prefixed('atlassian-api-token', 'ATATT3', `[A-Za-z0-9_=-]{60,300}`),
  // Chat
  ...['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-'].map((p) =>
    prefixed('slack-token', p, `[A-Za-z0-9-]{10,250}`),
  ),
  prefixed('slack-app-token', 'xapp-', `[A-Za-z0-9-]{20,250}`),
  // Slack's rotating configuration tokens: xoxe.xoxp-1-... / xoxe.xoxb-1-...
  ...['xoxe.xoxp-', 'xoxe.xoxb-'].map((p) => prefixed('slack-token', p, `[A-Za-z0-9-]{20,250}`)),
  slackWebhook(),
  teamsWebhook(),
  mattermostWebhook(),
  discordWebhook(),
  // Discord bot tokens start with the base64 of a snowflake id, so with one of these pairs.
  ...['MT', 'Mj', 'Mz', 'ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'].map((p) =>
    prefixed('discord-bot-token', p, `${B}{22,26}\\.${W}{6}\\.${W}{27,40}`, 0, 0),
  ),
  telegramBotToken(),
  // Messaging and e-mail
  prefixed('twilio-api-key', 'SK', '[0-9a-f]{32}'),
  sendgrid(),
  prefixed('mailgun-key', 'key-', '[0-9a-f]{32}'),
  mailchimp(),
  // Payments
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'].map((p) => prefixed('stripe-key', p, `${B}{16,247}`)),
  prefixed('stripe-webhook-secret', 'whsec_', `${B}{24,64}`),
  braintree('$production$'),
  braintree('$sandbox$'),
  prefixed('square-token', 'EAAA', `${W}{60}`),
  prefixed('square-token', 'sq0atp-', `${W}{22}`),
  prefixed('square-token', 'sq0csp-', `${W}{43}`),
  // Package registries
  prefixed('npm-token', 'npm_', `${B}{36}`),
  prefixed('pypi-token', 'pypi-AgEIcHlwaS5vcmc', `${W}{50,300}`, 5),
  prefixed('pypi-token', 'pypi-AgENdGVzdC5weXBpLm9yZw', `${W}{50,300}`, 5),
  prefixed('nuget-key', 'oy2', '[a-z0-9]{43}'),
  prefixed('dockerhub-token', 'dckr_pat_', `${W}{27,64}`),
  prefixed('dockerhub-token', 'dckr_oat_', `${W}{27,64}`),
  prefixed('rubygems-token', 'rubygems_', '[a-f0-9]{48}'),
  prefixed('shopify-token', 'shpat_', '[a-fA-F0-9]{32}'),
  // AI providers
  prefixed('anthropic-key', 'sk-ant-', `${W}{80,200}`),
  prefixed('openai-key', 'sk-proj-', `${W}{40,250}`),
  prefixed('openai-key', 'sk-svcacct-', `${W}{40,250}`),
  prefixed('openai-key', 'sk-admin-', `${W}{40,250}`),
  prefixed('openai-key', 'sk-', `${B}{20}T3BlbkFJ${B}{20}`),
  prefixed('openai-key', 'sk-', `${B}{48}`),
  prefixed('huggingface-token', 'hf_', `${B}{34,40}`),
  prefixed('huggingface-token', 'api_org_', `${B}{34}`),
  prefixed('groq-key', 'gsk_', `${B}{52}`),
  prefixed('replicate-token', 'r8_', `${B}{37}`),
  prefixed('together-key', 'tgp_v1_', `${W}{40,64}`),
  // Infrastructure
  prefixed('hashicorp-vault-token', 'hvs.', `${W}{24,200}`),
  prefixed('hashicorp-tf-token', 'atlasv1.', `${W}{60,100}`, 8, 8),
  prefixed('age-secret-key', 'AGE-SECRET-KEY-1', '[A-Z0-9]{58}', 15),
  // Observability (issue 12; shapes from the vendors' key documentation and public detector lists)
  prefixed('newrelic-key', 'NRAK-', '[A-Z0-9]{27}'),
  prefixed('newrelic-key', 'NRII-', `${W}{32}`),
  prefixed('newrelic-key', 'NRJS-', '[a-f0-9]{19}'),
  prefixed('grafana-token', 'glc_', '[A-Za-z0-9+/]{32,400}={0,2}'),
  prefixed('grafana-token', 'glsa_', `${B}{32}_[a-f0-9]{8}`),
  prefixed('sentry-token', 'sntrys_', '[A-Za-z0-9+/=_-]{60,400}'),
  prefixed('sentry-token', 'sntryu_', '[a-f0-9]{64}'),
  prefixed('dynatrace-token', 'dt0c01.', '[A-Z0-9]{24}\\.[A-Z0-9]{64}'),
  ...['hcaik_', 'hcxik_', 'hcamk_', 'hcxmk_'].map((p) => prefixed('honeycomb-key', p, '[a-z0-9]{20,80}')),
  // Secrets managers
  ...['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'].map((p) =>
    prefixed('doppler-token', p, `(?:[a-z0-9_-]{1,30}\\.)?${B}{40,44}`),
  ),
  prefixed('1password-token', 'ops_eyJ', '[A-Za-z0-9+/=_-]{100,2000}', 7),
  prefixed('hashicorp-vault-token', 'hvb.', `${W}{24,300}`),
  prefixed('hashicorp-vault-token', 'hvr.', `${W}{24,300}`),
  prefixed('pulumi-token', 'pul-', '[a-f0-9]{40}'),
  // Data platforms and SaaS APIs
  prefixed('databricks-token', 'dapi', '[a-f0-9]{32}(?:-[0-9])?'),
  prefixed('supabase-token', 'sbp_', '[a-f0-9]{40}'),
  prefixed('supabase-token', 'sb_secret_', `${W}{20,64}`),
  ...['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'].map((p) =>
    prefixed('planetscale-token', p, '[A-Za-z0-9_.-]{32,64}'),
  ),
  prefixed('hubspot-token', 'pat-na1-', '[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}'),
  prefixed('hubspot-token', 'pat-eu1-', '[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}'),
  prefixed('airtable-token', 'pat', `${B}{14}\\.[a-f0-9]{64}`),
  prefixed('notion-token', 'secret_', `${B}{43}`),
  prefixed('notion-token', 'ntn_', `${B}{40,50}`),
  prefixed('linear-key', 'lin_api_', `${B}{40}`),
  prefixed('contentful-token', 'CFPAT-', `${W}{43}`),
  prefixed('mapbox-token', 'sk.eyJ', '[A-Za-z0-9_.-]{50,400}'),
  prefixed('figma-token', 'figd_', `${W}{40}`),
  prefixed('dbt-token', 'dbtc_', `${W}{30,80}`),
  prefixed('dbt-token', 'dbtu_', `${W}{30,80}`),
  prefixed('neon-key', 'napi_', '[a-z0-9]{60,70}'),
  prefixed('postman-key', 'PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}'),
  // PaaS and cloud
  prefixed('heroku-key', 'HRKU-', `${W}{40,80}`),
  prefixed('netlify-token', 'nfp_', `${B}{36,40}`),
  ...['fm1r_', 'fm1a_', 'fm2_'].map((p) => prefixed('flyio-token', p, '[A-Za-z0-9+/=_-]{50,2000}')),
  prefixed('flyio-token', 'fo1_', `${W}{43}`),
  prefixed('render-key', 'rnd_', `${B}{32}`),
  prefixed('scalingo-token', 'tk-us-', `${W}{48}`),
  prefixed('scaleway-key', 'SCW', '[A-Z0-9]{17}'),
  prefixed('tencent-key', 'AKID', `${B}{32}`),
  prefixed('yandex-key', 'AQVN', `${W}{35,38}`),
  // CI, quality, registries
  ...['sqp_', 'squ_', 'sqa_'].map((p) => prefixed('sonar-token', p, '[a-f0-9]{40}')),
  prefixed('buildkite-token', 'bkua_', '[a-f0-9]{40}'),
  prefixed('circleci-token', 'CCIPAT_', `${B}{22}_[a-f0-9]{40}`),
  prefixed('circleci-token', 'CCIPRJ_', `${B}{22}_[a-f0-9]{40}`),
  prefixed('sourcegraph-token', 'sgp_', '(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}'),
  prefixed('jfrog-token', 'AKCp', `${B}{69}`),
  prefixed('jfrog-token', 'cmVmdGtuOjAxOj', `${B}{30,100}`, 8),
  prefixed('tailscale-key', 'tskey-', `(?:auth|api|client|scim|webhook)-${B}{6,20}-${B}{20,60}`),
  prefixed('octopus-key', 'API-', '[A-Z0-9]{25,32}'),
  prefixed('crates-token', 'cio', `${B}{32}`),
  prefixed('clojars-token', 'CLOJARS_', '[a-z0-9]{60}'),
  // Mail, AI, payments
  prefixed('brevo-key', 'xkeysib-', `[a-f0-9]{64}-${B}{16}`),
  prefixed('brevo-key', 'xsmtpsib-', `[a-f0-9]{64}-${B}{16}`),
  prefixed('mandrill-key', 'md-', `${W}{22}`),
  prefixed('resend-key', 're_', '[A-Za-z0-9_]{24,40}'),
  prefixed('perplexity-key', 'pplx-', `${B}{48}`),
  prefixed('xai-key', 'xai-', `${B}{70,90}`),
  prefixed('openrouter-key', 'sk-or-v1-', '[a-f0-9]{64}'),
  prefixed('langsmith-key', 'lsv2_pt_', '[a-f0-9]{32}_[a-f0-9]{10}'),
  prefixed('langsmith-key', 'lsv2_sk_', '[a-f0-9]{32}_[a-f0-9]{10}'),
  prefixed('pinecone-key', 'pcsk_', '[A-Za-z0-9_]{50,100}'),
  prefixed('elevenlabs-key', 'sk_', '[a-f0-9]{48}'),
  prefixed('deepseek-key', 'sk-', '[a-f0-9]{32}'),
  prefixed('razorpay-key', 'rzp_live_', `${B}{14}`),
  prefixed('razorpay-key', 'rzp_test_', `${B}{14}`),
  prefixed('flutterwave-key', 'FLWSECK-', '[a-f0-9]{32}-X'),
  prefixed('flutterwave-key', 'FLWSECK_TEST-', '[a-f0-9]{32}-X'),
  ...['access-production-', 'access-sandbox-', 'access-development-'].map((p) =>
    prefixed('plaid-token', p, '[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}'),
  ),
  prefixed('gocardless-token', 'live_', `${W}{40}`),
  prefixed('mollie-key', 'live_', `${B}{30}`),
  prefixed('mollie-key', 'test_', `${B}{30}`),
  ...['shpss_', 'shpca_', 'shppa_'].map((p) => prefixed('shopify-token', p, '[a-fA-F0-9]{32}')),
  prefixed('jwt', 'eyJ', `${W}{10,1000}\\.eyJ${W}{10,8000}\\.${W}{10,1000}`, 3),
  // Last for every start: a prefix nobody enumerated (issue 12, eighth pass).
  ...vendorTokens(),
];

function azureClientSecret(): AnchoredRule {
  // Entra ID client secrets: 3 chars, a digit, "Q~", then 31-34 chars.
  const re = /[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/y;
  const head = /[A-Za-z0-9_~.]{3}[0-9]/y;
  return {
    kind: 'azure-client-secret',
    anchor: 'Q~',
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      const start = at - 4;
      if (start < 0) return null;
      head.lastIndex = start;
      if (!head.test(text) || !boundaryBefore(text, start)) return null;
      re.lastIndex = at + 2;
      const m = re.exec(text);
      return m && looksRandom(m[0]) ? [start, at + 2 + m[0].length] : null;
    },
  };
}

function braintree(anchor: string): AnchoredRule {
  const re = new RegExp(`access_token${escape(anchor)}[a-z0-9]{16}\\$[a-f0-9]{32}(?![A-Za-z0-9])`, 'y');
  return {
    kind: 'paypal-braintree-token',
    anchor,
    reveal: 12 + anchor.length,
    tokenRun: 0,
    match(text, at) {
      const start = at - 12;
      if (start < 0 || !boundaryBefore(text, start)) return null;
      re.lastIndex = start;
      const m = re.exec(text);
      return m ? [start, start + m[0].length] : null;
    },
  };
}

function slackWebhook(): AnchoredRule {
  const re = /T[A-Z0-9]{8,12}\/B[A-Z0-9]{8,12}\/[A-Za-z0-9]{20,32}/y;
  const anchor = '/services/';
  return {
    kind: 'slack-webhook',
    anchor,
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      if (!text.startsWith('hooks.slack.com', at - 15)) return null;
      re.lastIndex = at + anchor.length;
      const m = re.exec(text);
      return m ? [at + anchor.length, at + anchor.length + m[0].length] : null;
    },
  };
}

function discordWebhook(): AnchoredRule {
  const re = /[0-9]{17,20}\/([A-Za-z0-9_-]{60,68})/y;
  const anchor = '/api/webhooks/';
  return {
    kind: 'discord-webhook',
    anchor,
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      re.lastIndex = at + anchor.length;
      const m = re.exec(text);
      if (!m || !looksRandom(m[1]!)) return null;
      const end = at + anchor.length + m[0].length;
      return [end - m[1]!.length, end];
    },
  };
}

function telegramBotToken(): AnchoredRule {
  // Anchored on the "AA" that starts the secret half; the bot id before the colon is checked backwards.
  const tail = /AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/y;
  return {
    kind: 'telegram-bot-token',
    anchor: 'AA',
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      if (at < 9 || text.charCodeAt(at - 1) !== 58) return null;
      let s = at - 1;
      while (s > 0 && at - 1 - s < 10 && text.charCodeAt(s - 1) >= 48 && text.charCodeAt(s - 1) <= 57) s--;
      if (at - 1 - s < 8 || !boundaryBefore(text, s)) return null;
      tail.lastIndex = at;
      const m = tail.exec(text);
      return m && looksRandom(m[0]) ? [s, at + m[0].length] : null;
    },
  };
}

function sendgrid(): AnchoredRule {
  const re = /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/y;
  return {
    kind: 'sendgrid-key',
    anchor: 'SG.',
    reveal: 3,
    tokenRun: 0,
    match(text, at) {
      if (!boundaryBefore(text, at)) return null;
      re.lastIndex = at;
      const m = re.exec(text);
      return m && looksRandom(m[0], 3) ? [at, at + m[0].length] : null;
    },
  };
}

function mailchimp(): AnchoredRule {
  const hex = /[0-9a-f]{32}/y;
  const dc = /-us[0-9]{1,2}(?![A-Za-z0-9_])/y;
  return {
    kind: 'mailchimp-key',
    anchor: '-us',
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      const start = at - 32;
      if (start < 0 || !boundaryBefore(text, start)) return null;
      hex.lastIndex = start;
      if (!hex.test(text)) return null;
      dc.lastIndex = at;
      const m = dc.exec(text);
      return m ? [start, at + m[0].length] : null;
    },
  };
}

function teamsWebhook(): AnchoredRule {
  // <tenant>.webhook.office.com/webhookb2/<group>@<tenant>/IncomingWebhook/<id>/<owner>[/<key>]
  const re =
    /[A-Za-z0-9@._-]{20,120}\/IncomingWebhook\/[A-Za-z0-9]{20,40}\/[A-Za-z0-9-]{20,60}(?:\/[A-Za-z0-9_-]{10,80})?/y;
  const anchor = '/webhookb2/';
  return {
    kind: 'teams-webhook',
    anchor,
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      re.lastIndex = at + anchor.length;
      const m = re.exec(text);
      return m ? [at + anchor.length, at + anchor.length + m[0].length] : null;
    },
  };
}

function mattermostWebhook(): AnchoredRule {
  // Incoming webhooks are /hooks/<26 lower-case letters and digits>; Gitea's own hook ids are numbers.
  const re = /[a-z0-9]{26}(?![A-Za-z0-9_-])/y;
  const anchor = '/hooks/';
  return {
    kind: 'mattermost-webhook',
    anchor,
    reveal: 0,
    tokenRun: 0,
    match(text, at) {
      re.lastIndex = at + anchor.length;
      const m = re.exec(text);
      return m && /[0-9]/.test(m[0]) && /[a-z]/.test(m[0]) && looksRandom(m[0])
        ? [at + anchor.length, at + anchor.length + 26]
        : null;
    },
  };
}

// ---- Eighth pass: a vendor's prefix nobody enumerated ---------------------------------------------
// Most providers' keys are a short lower-case prefix, a separator, perhaps a marker (live, test, sk,
// pat ...) and a long random body: acme_live_<random>, zq_<random>, vnd-key-<random>. Tried last for
// tokens starting with two lower-case letters (after every provider rule of that start), on the tokens
// the separator scan finds. The body must read as random base62: upper- and lower-case letters and
// digits, high entropy, not CamelCase words (test_shouldReturn401WhenTokenIsMissing); and the prefix
// must not be one of the object ids of payment, AI and identity APIs (Stripe's pi_/cs_/evt_, OpenAI's
// call_/asst_/msg_, Clerk's user_), of public keys (pk_, phc_) or of test fixtures.
// The body may carry a short check segment after it (`_<random>_<crc>`).
const VENDOR_TOKEN_RE =
  /([a-z]{2,12})([_-])(?:([a-z]{2,8})\2)?([A-Za-z0-9]{20,100})(?:[_-][A-Za-z0-9]{4,12})?(?![A-Za-z0-9_-])/y;
const VENDOR_PREFIX_DENY = new Set(
  (
    'pk pub public publishable phc phc_ cus ch pi pm evt sub in ii txn tok tr po py re cs seti si src card ' +
    'ba btok acct price prod plan coupon promo inv invoice ord order item cart sku cust sess session user ' +
    'usr users org orgs team proj project acc account msg message call file files asst thread run runs ' +
    'batch vs step ft ftjob chatcmpl cmpl resp req request evt event job task build node id uid guid ' +
    'ref img image asset chunk index main vendor app test tests spec fixture fixtures mock fake dummy ' +
    'sample example demo stub seed trace span log cache key hash sha etag rev commit tag ver version nonce ' +
    // this service's own dynamically registered OAuth client ids (dcr_<random>): public, and shown
    // in every envelope's identity.client
    'dcr'
  ).split(' '),
);

// Markers that say the random part names a stored thing rather than opens anything: CI cache keys
// (`npm-cache-<random>`, actions/cache and Gitea runners), build and layer ids.
const VENDOR_MARKER_DENY = new Set(
  'cache hash sha etag chunk index build ref rev commit tag ver version image img asset trace span log run job step file lock deps layer'.split(
    ' ',
  ),
);

// Values that are random by design and not credentials: OAuth state, nonces, PKCE, CSRF tokens.
// (`csrf_token`, `xsrf-token`: the word token after the marker does not make one a credential.)
const NONCE_BEFORE_RE =
  /(?:state|nonce|challenge|verifier|csrf|_csrf|xsrf)(?:[_-]?token)?["']?\s{0,3}[=:]\s{0,3}["']?$/i;

/** Shannon entropy of s in bits per character. */
function entropy(s: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) counts.set(s.charCodeAt(i), (counts.get(s.charCodeAt(i)) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/** Random base62 rather than words: mixed case and digits, high entropy, few letters in word runs. */
export function randomBase62(body: string): boolean {
  if (!/[0-9]/.test(body) || !/[a-z]/.test(body) || !/[A-Z]/.test(body)) return false;
  if (entropy(body) < 3.7) return false;
  // Letters in runs of a capital and 3+ lower-case letters (Return, Token, Missing): most of a
  // CamelCase name (85-95 %), rarely 70 % of random base62 of 24+ characters (under 1 in 1,000).
  let inWords = 0;
  for (const m of body.matchAll(/[A-Z]?[a-z]{3,}/g)) if (m[0].length >= 4) inWords += m[0].length;
  return inWords < 0.7 * body.length && looksRandom(body);
}

function vendorTokens(): AnchoredRule[] {
  const match = (text: string, at: number): [number, number] | null => {
    if (!boundaryBefore(text, at)) return null;
    VENDOR_TOKEN_RE.lastIndex = at;
    const m = VENDOR_TOKEN_RE.exec(text);
    if (m === null || VENDOR_PREFIX_DENY.has(m[1]!) || !randomBase62(m[4]!)) return null;
    if (m[3] !== undefined && VENDOR_MARKER_DENY.has(m[3])) return null;
    // Two letters alone could be the start of any random base64url value (an OAuth state, a nonce):
    // a two-letter prefix needs a marker (zq_live_...).
    if (m[1]!.length < 3 && m[3] === undefined) return null;
    if (NONCE_BEFORE_RE.test(text.slice(Math.max(0, at - 24), at))) return null;
    return [at, at + m[0].length];
  };
  const rules: AnchoredRule[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const a of letters)
    for (const b of letters)
      rules.push({ kind: 'vendor-token', anchor: a + b, reveal: 0, tokenRun: 0, match });
  return rules;
}
