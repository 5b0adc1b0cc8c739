// Every refusal decision of the call path, as pure functions (issue 11): what the global
// configuration (DISABLED_TOOLS, TOOLSETS, READ_ONLY) and the call's organisation allow, for
// generated tools, the raw tool and the discovery meta-tools alike. Each input is one step of
// decideToolCall; an organisation's further rules (read-only, repositories, quotas) are added as
// fields of OrgRules and one more step, without touching the callers.

/**
 * What is being called: a generated tool (operation), the raw tool, or a discovery meta-tool. An
 * operation is known by its name and by its method and route; `referenceName` is the name the
 * reference (bundled) description gives the same method and route when the catalogue's own
 * description (SPEC_SOURCE=live) names it differently, so a renamed operation keeps its rules.
 */
export type PolicySubject =
  | { kind: 'operation'; name: string; method: string; route: string; tags: string[]; referenceName?: string }
  | { kind: 'raw' | 'meta'; name: string };

/** The global floor: the service's own configuration. */
export type GlobalRules = { disabledTools: string[]; toolsets: string[]; readOnly: boolean };

/** The rules of the call's organisation (from the PolicyProvider), on top of the floor. */
export type OrgRules = { org: string | null; disabledTools: string[] };

export type PolicyInputs = { global: GlobalRules; org?: OrgRules | null };

export type PolicyDecision =
  | { allowed: true }
  | {
      allowed: false;
      kind: 'tool_disabled' | 'read_only';
      /** Which input refused: the global configuration or the organisation's policy. */
      source: 'global' | 'org';
      /** The rule that matched (a DISABLED_TOOLS pattern, `TOOLSETS`, `READ_ONLY`). */
      rule: string;
      /** The reason, as the caller reads it. */
      message: string;
    };

const ALLOWED: PolicyDecision = { allowed: true };

// Compiled globs, shared by every call (org policies add per-org patterns to the global ones).
const compiled = new Map<string, RegExp>();

/** Case-insensitive glob match: `*` any run of characters, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let re = compiled.get(glob);
  if (re) return re;
  re = compileGlob(glob);
  if (compiled.size >= 10_000) compiled.clear();
  compiled.set(glob, re);
  return re;
}

function compileGlob(glob: string): RegExp {
  const escaped = glob
    .trim()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

/** The first pattern that matches `name`, or null. */
export function matchesAny(name: string, patterns: string[]): string | null {
  for (const pattern of patterns) {
    if (pattern.trim() && globToRegExp(pattern).test(name)) return pattern;
  }
  return null;
}

/**
 * "METHOD /route" with parameter names blanked ("DELETE /repos/{}/{}"): how a rule names an
 * operation whatever a description calls it or its parameters.
 */
export function routeKey(method: string, route: string): string {
  return `${method.trim().toUpperCase()} ${route.trim().replace(/\{[^}]*\}/g, '{}')}`;
}

const ROUTE_PATTERN = /^\s*([A-Za-z]+|\*)\s+(\/\S*)\s*$/;

/** A pattern written as a method and route ("delete /repos/{owner}/{repo}", "* /admin/*"). */
export function isRoutePattern(pattern: string): boolean {
  return ROUTE_PATTERN.test(pattern);
}

/** The first pattern that names the subject by its name, its reference name, or its method and route. */
export function matchSubject(subject: PolicySubject, patterns: string[]): string | null {
  const byName = matchesAny(subject.name, patterns);
  if (byName || subject.kind !== 'operation') return byName;
  if (subject.referenceName && subject.referenceName !== subject.name) {
    const byReference = matchesAny(subject.referenceName, patterns);
    if (byReference) return byReference;
  }
  const key = routeKey(subject.method, subject.route);
  for (const pattern of patterns) {
    const route = ROUTE_PATTERN.exec(pattern);
    if (route && globToRegExp(routeKey(route[1] as string, route[2] as string)).test(key)) return pattern;
  }
  return null;
}

/** The global floor alone: what may be listed, searched and described. */
export function decideGlobal(subject: PolicySubject, rules: GlobalRules): PolicyDecision {
  const pattern = matchSubject(subject, rules.disabledTools);
  if (pattern)
    return {
      allowed: false,
      kind: 'tool_disabled',
      source: 'global',
      rule: pattern,
      message: `tool ${subject.name} is disabled by the administrator (DISABLED_TOOLS: ${pattern})`,
    };
  // Toolsets and read-only concern Gitea operations; the raw tool is judged as the operation it reaches.
  if (subject.kind !== 'operation') return ALLOWED;
  const toolsets = rules.toolsets.map((t) => t.trim().toLowerCase()).filter(Boolean);
  if (toolsets.length && !subject.tags.some((tag) => toolsets.includes(tag.toLowerCase()))) {
    return {
      allowed: false,
      kind: 'tool_disabled',
      source: 'global',
      rule: 'TOOLSETS',
      message: `tool ${subject.name} (toolset ${subject.tags.join(', ') || 'none'}) is not in the enabled TOOLSETS`,
    };
  }
  if (rules.readOnly && subject.method !== 'GET') {
    return {
      allowed: false,
      kind: 'read_only',
      source: 'global',
      rule: 'READ_ONLY',
      message: `tool ${subject.name} changes data and the service runs with READ_ONLY=true`,
    };
  }
  return ALLOWED;
}

/** The organisation's own rules. */
export function decideOrg(subject: PolicySubject, rules: OrgRules): PolicyDecision {
  const pattern = matchSubject(subject, rules.disabledTools);
  if (!pattern) return ALLOWED;
  return {
    allowed: false,
    kind: 'tool_disabled',
    source: 'org',
    rule: pattern,
    message: rules.org
      ? `tool ${subject.name} is disabled for organization ${rules.org}`
      : `tool ${subject.name} is disabled by policy (${pattern})`,
  };
}

/** The decision for one call: the global floor first, then the organisation's rules. */
export function decideToolCall(subject: PolicySubject, inputs: PolicyInputs): PolicyDecision {
  const floor = decideGlobal(subject, inputs.global);
  if (!floor.allowed || !inputs.org) return floor;
  return decideOrg(subject, inputs.org);
}
