"""Synthetic tasks as people and agents ask them (ADR 0020, revision 6): each hand-written intent of
intents.py with its slots filled several times, said tersely, as a question, as a request, with the
repository named first or last, with jargon; seeded. Writes $FT_WORK/synth2.json (or the file named third); a fourth argument r7 adds revision 7's intents,
r9 revision 7's and revision 9's."""
import json, os, random, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from intents import INTENTS, INTENTS_R7, INTENTS_R9, TWINS
R7 = len(sys.argv) > 4 and sys.argv[4] in ('r7', 'r9')  # revision 7: every operation's intents, twins expected
R9 = len(sys.argv) > 4 and sys.argv[4] == 'r9'  # revision 9: more intents for the operations that had two or three
if R7: INTENTS = {**INTENTS, **INTENTS_R7}
else: TWINS = {}
if R9: INTENTS = {k: INTENTS.get(k, []) + INTENTS_R9.get(k, []) for k in {**INTENTS, **INTENTS_R9}}
WORK = os.environ.get('FT_WORK', '/tmp/discovery-ft')
per = int(sys.argv[1]) if len(sys.argv) > 1 else 3
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 23)
OWNERS = ['acme', 'octo', 'bob', 'infra', 'mycorp', 'devs', 'kestrel', 'northwind']
REPOS = ['web', 'api', 'cli', 'docs', 'webapp', 'backend', 'core', 'site', 'tools', 'mobile', 'billing', 'sdk']
USERS = ['bob', 'alice', 'carol', 'dave', 'erin', 'frank', 'mallory', 'jdoe', 'priya', 'sam']
ORGS = ['acme', 'octo-org', 'mycorp', 'devs', 'platform', 'northwind']
TEAMS = ['qa', 'backend', 'release-managers', 'devops', 'reviewers', 'owners']
NAMES = ['payments', 'legacy', 'DEPLOY_KEY', 'NPM_TOKEN', 'docs', 'bug', 'kubernetes', 'Home', 'ci', 'v2', 'onboarding', 'needs-review']
BRANCHES = ['main', 'develop', 'feature/login', 'release/2.0', 'hotfix-12', 'master']
TAGS = ['v1.2.0', 'v2.0', 'v0.9.1', 'v3.1.4']
FILES = ['README.md', 'src/main.go', 'docs/index.md', '.gitea/workflows/ci.yml', 'package.json', 'Makefile', 'config/app.yaml']
SHAS = ['9f8e7d6', 'a1b2c3d', 'deadbeef', '4e5f6a7b']
WRAP = ['{x}', '{x}', '{x}', 'how do I {x}?', 'can you {x}?', 'please {x}', 'I need to {x}', 'quick: {x}', '{x} please',
        'could you {x} for me', "what's the API to {x}", 'is there a way to {x}?', 'help me {x}', 'agent task: {x}']
JARGON = [(r'\bpull request\b', ['PR', 'MR', 'merge request']), (r'\brepository\b', ['repo']), (r'\borganization\b', ['org']),
          (r'\bissue\b', ['ticket', 'bug']), (r'\bPR\b', ['pull request', 'MR', 'pr']), (r'\brepo\b', ['repository', 'project'])]
def repo():
    o, r = rng.choice(OWNERS), rng.choice(REPOS)
    return rng.choice([f'{o}/{r}', f'{o}/{r}', f'{o}/{r}', f'the {r} repo', f'repo {o}/{r}', f'{r}', f'our {r} repository'])
def fill(t):
    slots = {'r': repo, 'n': lambda: str(rng.randint(1, 400)), 'u': lambda: rng.choice(USERS), 'o': lambda: rng.choice(ORGS),
             'b': lambda: rng.choice(BRANCHES), 't': lambda: rng.choice(TAGS), 'f': lambda: rng.choice(FILES),
             'team': lambda: rng.choice(TEAMS), 'k': lambda: rng.choice(NAMES), 'sha': lambda: rng.choice(SHAS)}
    return re.sub(r'\{(\w+)\}', lambda m: slots[m.group(1)](), t)
def one(t):
    x = fill(t)
    for pat, alts in JARGON:
        if re.search(pat, x) and rng.random() < 0.3: x = re.sub(pat, rng.choice(alts), x, count=1)
    if not x.endswith('?') and rng.random() < 0.5: x = rng.choice(WRAP).format(x=x)
    if rng.random() < 0.15 and ' in ' in x:  # the repository first: "acme/web: list the open PRs"
        head, _, tail = x.rpartition(' in ')
        if '/' in tail and ' ' not in tail.strip(): x = f'{tail.strip(" ?")}: {head}'
    if rng.random() < 0.4: x = x.lower()
    return re.sub(r'\s+', ' ', x).strip()
out = []
for op, templates in INTENTS.items():
    for t in templates:
        seen = set()
        for _ in range(per * 3):
            x = one(t)
            if x in seen: continue
            seen.add(x); out.append({'task': x, 'expected': [op] + TWINS.get(op, [])})
            if len(seen) >= per: break
json.dump(out, open(os.path.join(WORK, sys.argv[3] if len(sys.argv) > 3 else 'synth2.json'), 'w'), indent=0)
print(len(out))
for t in rng.sample(out, 20): print(t['task'], '->', t['expected'][0])
