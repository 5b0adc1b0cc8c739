#!/usr/bin/env python3
"""Ports gitleaks' default rules (MIT, https://github.com/gitleaks/gitleaks) to the masking engine.

    python3 scripts/port-gitleaks-rules.py <gitleaks.toml> <commit> > src/core/secrets/gitleaks-rules.generated.ts
    npx prettier --write src/core/secrets/gitleaks-rules.generated.ts

Each rule keeps its id, keywords, secret group, entropy threshold and allowlists (regexes with their
target, stopwords, AND/OR condition); path-only allowlists are dropped (a tool result has no file
path). Go RE2 syntax is rewritten to JavaScript: inline (?i) / (?i:...) / (?-i:...) become explicit
case alternatives (JavaScript has no inline flags on Node 20), (?s:...) makes '.' match newlines,
(?P<n>...) becomes (?<n>...), [[:alnum:]] and the other POSIX classes become ranges, \\z becomes an
end-of-text look-ahead, and Go's '.' (anything but \\n) is written [^\\n].

Rules left out: `pkcs12-file` (a file-name rule, no content pattern), `private-key` (the engine's
own PEM block scan covers every PRIVATE KEY block, bounded and linear) and `hashicorp-tf-password`
(meant for .tf files only; without a path it is any `password = "..."`, which the engine's keyword
rule covers, and its secret includes the quotes).
"""
import json
import sys
import tomllib

SKIP = {"pkcs12-file", "private-key", "hashicorp-tf-password"}

POSIX = {
    "alnum": "A-Za-z0-9",
    "alpha": "A-Za-z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "space": "\\t\\n\\v\\f\\r ",
    "xdigit": "0-9A-Fa-f",
    "word": "A-Za-z0-9_",
    "punct": "!-\\/:-@\\[-`{-~",
}


def swap_range(lo, hi):
    """Other-case counterpart of a range of letters, or None."""
    if "a" <= lo <= hi <= "z":
        return lo.upper(), hi.upper()
    if "A" <= lo <= hi <= "Z":
        return lo.lower(), hi.lower()
    return None


def convert_class(p, i, ci):
    """p[i] == '['; returns (js_class, next_index)."""
    j = i + 1
    out = "["
    if j < len(p) and p[j] == "^":
        out += "^"
        j += 1
    items = []  # (lo, hi) for ranges/single chars, or raw escape strings
    first = True
    while j < len(p):
        ch = p[j]
        if ch == "]" and not first:
            j += 1
            break
        first = False
        if p.startswith("[:", j):
            end = p.index(":]", j)
            items.append(("raw", POSIX[p[j + 2 : end]]))
            if ci and p[j + 2 : end] in ("lower", "upper"):
                items.append(("raw", "A-Za-z"))
            j = end + 2
            continue
        if ch == "\\":
            esc = p[j : j + 2]
            if esc == "\\x":
                esc = p[j : j + 4]
            j += len(esc)
            # a range whose low end is an escape (rare): keep as written
            if j < len(p) - 1 and p[j] == "-" and p[j + 1] != "]":
                hi = p[j + 1]
                if hi == "\\":
                    hi = p[j + 1 : j + 3]
                items.append(("raw", esc + "-" + hi))
                j += 1 + len(hi)
                continue
            items.append(("raw", esc))
            continue
        if ch == "[":
            items.append(("raw", "\\["))
            j += 1
            continue
        if j + 2 < len(p) and p[j + 1] == "-" and p[j + 2] != "]":
            lo, hi = ch, p[j + 2]
            if hi == "\\":
                hi2 = p[j + 2 : j + 4]
                items.append(("raw", esc_char(lo) + "-" + hi2))
                j += 4
                continue
            items.append(("range", lo, hi))
            j += 3
            continue
        items.append(("range", ch, ch))
        j += 1
    for it in items:
        if it[0] == "raw":
            out += it[1]
            continue
        _, lo, hi = it
        out += esc_char(lo) if lo == hi else esc_char(lo) + "-" + esc_char(hi)
        if ci:
            sw = swap_range(lo, hi)
            if sw:
                out += sw[0] if sw[0] == sw[1] else sw[0] + "-" + sw[1]
    return out + "]", j


def esc_char(c):
    return "\\" + c if c in "]\\^-[/" else c


def to_js(p):
    """Go RE2 pattern -> JavaScript pattern source (no flags needed)."""
    out = []
    # stack of (ci, dotall) per open group; the top is the current state
    stack = [(False, False)]
    i = 0
    while i < len(p):
        ci, dotall = stack[-1]
        ch = p[i]
        if ch == "\\":
            esc = p[i : i + 2]
            if esc == "\\z":
                out.append("(?![\\s\\S])")
            elif esc == "\\A":
                out.append("^")
            elif esc == "\\x":
                out.append(p[i : i + 4])
                i += 4
                continue
            elif esc == "\\/":
                out.append("\\/")
            else:
                out.append(esc)
            i += 2
            continue
        if ch == "[":
            cls, i = convert_class(p, i, ci)
            out.append(cls)
            continue
        if ch == "(":
            if p.startswith("(?i)", i):
                stack[-1] = (True, dotall)
                i += 4
                continue
            if p.startswith("(?s)", i):
                stack[-1] = (ci, True)
                i += 4
                continue
            if p.startswith("(?-i:", i):
                stack.append((False, dotall))
                out.append("(?:")
                i += 5
                continue
            if p.startswith("(?i:", i):
                stack.append((True, dotall))
                out.append("(?:")
                i += 4
                continue
            if p.startswith("(?s:", i):
                stack.append((ci, True))
                out.append("(?:")
                i += 4
                continue
            if p.startswith("(?P<", i):
                end = p.index(">", i)
                out.append("(?<" + p[i + 4 : end] + ">")
                stack.append((ci, dotall))
                i = end + 1
                continue
            if p.startswith("(?:", i):
                out.append("(?:")
                stack.append((ci, dotall))
                i += 3
                continue
            if p.startswith("(?", i):
                raise ValueError("unsupported group at %d in %s" % (i, p))
            out.append("(")
            stack.append((ci, dotall))
            i += 1
            continue
        if ch == ")":
            stack.pop()
            out.append(")")
            i += 1
            continue
        if ch == ".":
            out.append("[\\s\\S]" if dotall else "[^\\n]")
            i += 1
            continue
        if ch == "/":
            out.append("\\/")
            i += 1
            continue
        if ci and ch.isalpha() and ch.isascii():
            out.append("[" + ch.lower() + ch.upper() + "]")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


SEMI_GENERIC = "(?i)[\\w.-]{0,50}?(?:"
LITERAL_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_-~=")


def classify(rule):
    """How the engine finds the rule's matches from a keyword hit (see ported-rules.util.ts):
    'prefix' when the pattern starts with a literal that every keyword begins (the pattern is tried
    right at the keyword), 'assign' for gitleaks' semi-generic `name = value` pattern (tried only when
    an assignment operator follows the keyword), else 'window' (tried around the keyword)."""
    p = rule["regex"]
    if p.startswith(SEMI_GENERIC):
        # only when the keywords name the identifier (not when they are the value's prefix, as
        # lob's live_/test_ or New Relic's NRAK): the engine checks for an operator after them
        depth, j = 1, len(SEMI_GENERIC)
        while j < len(p) and depth > 0:
            depth += {"(": 1, ")": -1}.get(p[j], 0)
            j += 1
        ident = "".join(ch for ch in p[len(SEMI_GENERIC) : j].lower() if ch.isalnum() or ch in "_-.")
        kws = [k.lower() for k in rule.get("keywords", [])]
        if kws and (rule["id"] == "generic-api-key" or all(k.replace("\\", "") in ident for k in kws)):
            return "assign"
        return "window"
    i = 0
    while True:
        if p.startswith("(?i)", i):
            i += 4
        elif p.startswith("\\b", i):
            i += 2
        elif p.startswith("(", i) and not p.startswith("(?", i):
            i += 1
        else:
            break
    if p.startswith("(?:", i):
        alts = top_alternatives(p, i + 3)
    else:
        alts = [p[i:]]
    lits = [literal_prefix(a) for a in alts]
    kws = [k.lower() for k in rule.get("keywords", [])]
    if kws and all(lits) and all(
        any(l.lower().startswith(k) or k.startswith(l.lower()) for l in lits) for k in kws
    ) and all(any(l.lower().startswith(k) or k.startswith(l.lower()) for k in kws) for l in lits):
        return "prefix"
    return "window"


def top_alternatives(p, i):
    """The top-level alternatives of the group whose body starts at p[i]."""
    alts, depth, start, j = [], 0, i, i
    while j < len(p):
        c = p[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            j = p.index("]", j + 2) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                alts.append(p[start:j])
                return alts
            depth -= 1
        elif c == "|" and depth == 0:
            alts.append(p[start:j])
            start = j + 1
        j += 1
    return [p[i:]]


def literal_prefix(a):
    """The literal characters an alternative starts with ('' when it starts with a class)."""
    lit, i = "", 0
    while i < len(a):
        c = a[i]
        if c == "\\" and i + 1 < len(a) and a[i + 1] in ".$-_":
            lit, i = lit + a[i + 1], i + 2
        elif c.lower() in LITERAL_CHARS:
            lit, i = lit + c, i + 1
        else:
            break
    # a quantifier right after makes the last character optional
    if i < len(a) and a[i] in "?*{":
        lit = lit[:-1]
    return lit


# The operator part of gitleaks' semi-generic pattern (as to_js writes it) and its tail.
JS_MID = "(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}"
NEAR_MID = "[^\\n\\u0000]{0,40}?[\\s'\"\\x60=:(,>]"
NEAR_TAIL = "(?=[\\x60'\"\\s;.,)<]|\\\\[nr]|$)"
NO_NEAR = {"generic-api-key", "hashicorp-tf-password"}


def near(rule_id, js):
    """The 'near' form of a semi-generic pattern: the provider's name, then within 40 characters on
    the same line a delimiter and the value (prose: "the Algolia admin key is ..."), ending at a
    delimiter or sentence punctuation. '' when the rule has no such form."""
    if rule_id in NO_NEAR or JS_MID not in js:
        return ""
    head, tail = js.split(JS_MID, 1)
    # the value group runs to the tail group gitleaks puts last: (?:[\x60'"\s;]|\\[nr]|$)
    cut = tail.rfind("(?:[\\x60'\"\\s;]")
    if cut < 0:
        return ""
    return head + NEAR_MID + tail[:cut] + NEAR_TAIL


def allowlists(rule):
    out = []
    for al in rule.get("allowlists", []):
        regexes = [to_js(x) for x in al.get("regexes", [])]
        stopwords = [w.lower() for w in al.get("stopwords", [])]
        if not regexes and not stopwords:
            continue  # path- or commit-only allowlist
        if al.get("paths") and al.get("condition") == "AND":
            continue  # needs a file path to apply
        out.append(
            {
                "target": al.get("regexTarget", "secret"),
                "and": al.get("condition") == "AND",
                "regexes": regexes,
                "stopwords": stopwords,
            }
        )
    return out


def main():
    path, commit = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    rules = []
    for r in cfg["rules"]:
        if r["id"] in SKIP or "regex" not in r:
            continue
        rules.append(
            {
                "id": r["id"],
                "keywords": sorted({k.lower() for k in r.get("keywords", [])}),
                "regex": to_js(r["regex"]),
                "group": r.get("secretGroup", 0),
                "entropy": r.get("entropy", 0),
                "allow": allowlists(r),
                "find": classify(r),
                "near": near(r["id"], to_js(r["regex"])) if classify(r) == "assign" else "",
            }
        )
    g = cfg["allowlist"]
    glob = {"regexes": [to_js(x) for x in g.get("regexes", [])], "stopwords": [w.lower() for w in g.get("stopwords", [])]}
    w = sys.stdout.write
    w("// GENERATED by scripts/port-gitleaks-rules.py from gitleaks' config/gitleaks.toml; do not edit.\n")
    w("// Source: https://github.com/gitleaks/gitleaks, commit %s.\n" % commit)
    w("// gitleaks is MIT licensed: Copyright (c) 2019 Zachary Rice (full text in NOTICE).\n")
    w("// Each rule: id, keywords (lower case; the rule runs only where one occurs), the pattern rewritten\n")
    w("// from Go RE2 to JavaScript, the secret group (0: the first non-empty group), the Shannon entropy\n")
    w("// the secret must exceed (0: none), and the rule's allowlists.\n")
    w("export type PortedAllowlist = { target: 'secret' | 'match' | 'line'; and: boolean; regexes: string[]; stopwords: string[] };\n")
    w("export type PortedRuleSource = { id: string; keywords: string[]; regex: string; group: number; entropy: number; allow: PortedAllowlist[]; find: 'prefix' | 'assign' | 'window'; near: string };\n\n")
    w("export const GITLEAKS_COMMIT = %s;\n\n" % json.dumps(commit))
    w("export const GITLEAKS_GLOBAL_ALLOW = %s as const;\n\n" % json.dumps(glob, indent=1))
    w("export const GITLEAKS_RULES: PortedRuleSource[] = %s;\n" % json.dumps(rules, indent=1))


if __name__ == "__main__":
    main()
