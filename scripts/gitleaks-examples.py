#!/usr/bin/env python3
"""Writes gitleaks' own true- and false-positive examples (MIT, https://github.com/gitleaks/gitleaks)
into the TUNING corpus: bench/secrets/gitleaks/examples.json.

gitleaks' rule generators (cmd/generate/config/rules/*.go) hand their examples to utils.Validate,
many of them generated per run (utils.GenerateSampleSecrets). To collect them, Validate and
ValidateWithPaths in a gitleaks checkout were patched to append, per rule, the examples and the
secret gitleaks itself reports for each true positive to a JSON-lines file, and the generator was
run once (`GL_DUMP=/tmp/gl-examples.jsonl go run ./cmd/generate/config /tmp/out.toml`). This script
turns that file into the corpus. Every string is stored base64-encoded, so the repository holds no
secret-shaped literal (test/unit/secrets/corpus.test.ts checks the .ts files for them).

    python3 scripts/gitleaks-examples.py /tmp/gl-examples.jsonl <commit> > bench/secrets/gitleaks/examples.json
"""
import base64
import json
import sys

b64 = lambda s: base64.b64encode(s.encode("utf-8")).decode("ascii")


def main():
    path, commit = sys.argv[1], sys.argv[2]
    rules = []
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        tps = [
            {"text": b64(t["text"]), "secrets": [b64(s) for s in sorted(set(t["secrets"]))]}
            for t in (d.get("tps") or [])
            if t.get("secrets")
        ]
        fps = [b64(f) for f in (d.get("fps") or [])]
        rules.append({"rule": d["id"], "tps": tps, "fps": fps})
    rules.sort(key=lambda r: r["rule"])
    json.dump(
        {
            "source": "https://github.com/gitleaks/gitleaks",
            "commit": commit,
            "license": "MIT, Copyright (c) 2019 Zachary Rice (see NOTICE)",
            "encoding": "every text and secret is base64 of its UTF-8 bytes",
            "rules": rules,
        },
        sys.stdout,
        indent=0,
        separators=(",", ":"),
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
