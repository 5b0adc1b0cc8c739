"""Synthetic discovery tasks from the swagger operations, by rules (seeded)."""
import json, os, random, re, sys
D = json.load(open(os.path.join(os.environ.get('FT_WORK', '/tmp/discovery-ft'), 'dump.json')))
OPS = D['operations']
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 17)
OWNERS = ['acme', 'octo', 'bob', 'team-x', 'infra', 'mycorp', 'devs']
REPOS = ['web', 'api', 'cli', 'docs', 'infra', 'webapp', 'backend', 'core', 'site', 'tools']
USERS = ['bob', 'alice', 'carol', 'dave', 'erin', 'frank', 'mallory']
ORGS = ['acme', 'octo-org', 'mycorp', 'devs', 'platform']
VERBS = {
    'get': ['get', 'show', 'show me', 'fetch', 'view', 'look up', 'what is', 'display', 'read', 'see', 'pull up', 'check', ''],
    'list': ['list', 'show all', 'show me', 'get all', 'what are', 'which are', 'list all', 'enumerate', 'give me', 'browse', 'all', ''],
    'create': ['create', 'add', 'make', 'new', 'set up', 'open', 'register', 'add a new', 'start'],
    'delete': ['delete', 'remove', 'drop', 'nuke', 'get rid of', 'kill', 'trash', 'wipe', 'destroy', 'purge', 'erase'],
    'update': ['update', 'edit', 'change', 'modify', 'tweak', 'adjust', 'rename', 'fix'],
    'check': ['check', 'is', 'does', 'verify', 'whether', 'check if'],
}
SUMMARY_VERB = {'get': 'get', 'gets': 'get', 'returns': 'get', 'return': 'get', 'retrieve': 'get', 'list': 'list', 'lists': 'list',
                'search': 'list', 'create': 'create', 'creates': 'create', 'add': 'create', 'delete': 'delete', 'deletes': 'delete',
                'remove': 'delete', 'update': 'update', 'edit': 'update', 'modify': 'update', 'check': 'check', 'whether': 'check'}
OWN_VERBS = {'rename': ['rename'], 'render': ['render'], 'mark': ['mark'], 'block': ['block', 'ban'], 'unblock': ['unblock', 'unban'],
    'reruns': ['rerun', 're-run', 'run again', 'retry'], 'merge': ['merge', 'land'], 'cancel': ['cancel', 'abort', 'stop'],
    'downloads': ['download', 'get'], 'replace': ['replace', 'overwrite', 'set'], 'sync': ['sync', 'update'], 'accept': ['accept'],
    'reject': ['reject', 'decline'], 'run': ['run', 'trigger', 'kick off'], 'adopt': ['adopt'], 'publicize': ['publicize', 'make public', 'show'],
    'conceal': ['conceal', 'hide', 'make private'], 'link': ['link'], 'unlink': ['unlink'], 'migrate': ['migrate', 'import', 'mirror'],
    'disable': ['disable', 'turn off'], 'enable': ['enable', 'turn on'], 'apply': ['apply'], 'fork': ['fork', 'copy'], 'test': ['test', 'trigger', 'ping'],
    'set': ['set', 'change'], 'make': ['make'], 'lock': ['lock'], 'unlock': ['unlock'], 'pin': ['pin'], 'unpin': ['unpin'], 'moves': ['move', 'reorder'],
    'start': ['start'], 'stop': ['stop'], 'subscribe': ['subscribe to', 'watch', 'follow'], 'unsubscribe': ['unsubscribe from', 'stop watching', 'mute'],
    'reset': ['reset', 'clear'], 'resolve': ['resolve', 'mark resolved'], 'unresolve': ['unresolve', 'reopen'], 'reply': ['reply to', 'answer'],
    'submit': ['submit', 'send'], 'dismiss': ['dismiss'], 'reparent': ['reparent', 'change the parent of'], 'watch': ['watch', 'subscribe to'],
    'unwatch': ['unwatch', 'stop watching'], 'transfer': ['transfer', 'move', 'hand over'], 'follow': ['follow'], 'unfollow': ['unfollow', 'stop following'],
    'verify': ['verify', 'check'], 'star': ['star', 'bookmark', 'favourite'], 'unstar': ['unstar', 'remove the star from']}
METHOD_VERB = {'GET': 'get', 'POST': 'create', 'PUT': 'update', 'PATCH': 'update', 'DELETE': 'delete'}
JARGON = [
    (r'\bpull requests\b', ['PRs', 'MRs', 'pull requests', 'merge requests', 'prs']),
    (r'\bpull request\b', ['PR', 'MR', 'pull request', 'merge request', 'pr']),
    (r'\brepositories\b', ['repos', 'repositories', 'projects']),
    (r'\brepository\b', ['repo', 'repository', 'project']),
    (r'\borganizations\b', ['orgs', 'organizations', 'organisations']),
    (r'\borganization\b', ['org', 'organization', 'organisation']),
    (r'\bissues\b', ['issues', 'tickets', 'bugs']),
    (r'\bissue\b', ['issue', 'ticket', 'bug']),
    (r'\baccess tokens?\b', ['PAT', 'access token', 'api token', 'token']),
    (r'\bwebhooks?\b', ['webhook', 'hook']),
    (r'\bworkflow runs?\b', ['pipeline', 'workflow run', 'CI run', 'build']),
    (r'\bGPG\b', ['GPG', 'PGP', 'gpg']),
    (r'\bSSH\b', ['ssh', 'SSH']),
]
def jargon(s):
    for pat, alts in JARGON:
        if re.search(pat, s, re.I) and rng.random() < 0.6:
            s = re.sub(pat, rng.choice(alts), s, flags=re.I)
    return s
def fill(op):
    """Mentions for the route's parameters."""
    m = {}
    o, r = rng.choice(OWNERS), rng.choice(REPOS)
    m['repo'] = rng.choice([f'{o}/{r}', f'{o}/{r}', f'the {r} repo', f'repo {o}/{r}', f'{r}'])
    m['index'] = rng.choice([f'#{rng.randint(1, 400)}', f'{rng.randint(1, 400)}', f'number {rng.randint(1, 400)}'])
    m['username'] = rng.choice(USERS)
    m['org'] = rng.choice(ORGS)
    m['id'] = str(rng.randint(1, 999))
    m['tag'] = rng.choice(['v1.2.0', 'v2.0', 'v0.9.1', 'release-3'])
    m['branch'] = rng.choice(['main', 'develop', 'feature/login', 'release/2.0'])
    m['sha'] = rng.choice(['9f8e7d6', 'a1b2c3d', 'deadbeef', 'HEAD'])
    m['filepath'] = rng.choice(['README.md', 'src/main.go', 'docs/index.md', '.gitea/workflows/ci.yml'])
    return m
def scope_phrase(op, m):
    route = op['route']
    if route.startswith('/repos/{owner}/{repo}'):
        return rng.choice([f'in {m["repo"]}', f'for {m["repo"]}', f'on {m["repo"]}', f'of {m["repo"]}', ''])
    if route.startswith('/orgs/{org}'):
        return rng.choice([f'in org {m["org"]}', f'for the {m["org"]} org', f'of {m["org"]}', f'in {m["org"]}', 'for our organization'])
    if route.startswith('/users/{username}'):
        return rng.choice([f'of {m["username"]}', f"{m['username']}'s", f'for user {m["username"]}', f'that {m["username"]} has'])
    if route.startswith('/user/') or route == '/user':
        return rng.choice(['my', 'mine', 'for me', 'of my account', 'for the logged in user', 'I have'])
    if route.startswith('/admin'):
        return rng.choice(['as admin', 'on the whole instance', 'site-wide', 'as site administrator', 'across the server', 'server-wide'])
    return ''
def obj_phrase(op):
    s = op['summary'] or ' '.join(op['texts'][2].split()[1:])
    words = s.split()
    if words and (words[0].lower() in SUMMARY_VERB or words[0].lower() in OWN_VERBS):
        words = words[1:]
    s = ' '.join(words)
    s = re.split(r'[.;(]', s)[0]
    s = re.sub(r"\b(the given|a given|given|the specified|specified|an? |the )\b", '', s, flags=re.I)
    s = re.sub(r'\s+', ' ', s).strip(' .')
    return s
def ids(op, m):
    extra = []
    ps = set(op['params'])
    if 'index' in ps:
        thing = 'PR' if '/pulls' in op['route'] else rng.choice(['issue', 'ticket'])
        extra.append(f'{thing} {m["index"]}')
    if 'tag' in ps: extra.append(m['tag'])
    if 'branch' in ps: extra.append(f'branch {m["branch"]}')
    if 'sha' in ps or 'ref' in ps: extra.append(m['sha'] if 'sha' in ps else m['branch'])
    if 'filepath' in ps: extra.append(m['filepath'])
    if 'username' in ps and not op['route'].startswith('/users/{username}'): extra.append(m['username'])
    if 'id' in ps and rng.random() < 0.5: extra.append(m['id'])
    return extra
CHATTY = ['can you {x}?', 'could you please {x}', 'I need to {x}', "I'd like to {x}", 'please {x}', 'hey, {x} for me',
          'how do I {x}?', 'is there a way to {x}?', 'help me {x}', 'quick one: {x}', 'we want to {x}']
def one(op):
    m = fill(op)
    first = (op['summary'].split() or [''])[0].lower()
    kind = SUMMARY_VERB.get(first) or METHOD_VERB[op['method']]
    if first in OWN_VERBS:
        verb = rng.choice(OWN_VERBS[first])
    else:
        verb = rng.choice(VERBS[kind])
    obj = jargon(obj_phrase(op))
    scope = scope_phrase(op, m)
    parts = ids(op, m)
    if scope in ('my', "%s's" % m['username']) and rng.random() < 0.7:
        body = f'{verb} {scope} {obj}'
    else:
        body = f'{verb} {obj} {scope}'
    if parts and rng.random() < 0.8:
        body += ' ' + ' '.join(rng.sample(parts, min(len(parts), rng.randint(1, 2))))
    form = rng.random()
    if form < 0.25:  # terse: drop the verb for reads
        if kind in ('get', 'list'):
            body = f'{obj} {scope}' if rng.random() < 0.5 else body
        body = re.sub(r'\b(a|an|the)\b ', '', body)
    elif form < 0.5:
        body = rng.choice(CHATTY).format(x=body)
    body = re.sub(r'\s+', ' ', body).strip()
    if rng.random() < 0.5: body = body.lower()
    return body
out = []
per = int(sys.argv[1]) if len(sys.argv) > 1 else 10
for op in OPS:
    seen = set()
    for _ in range(per * 3):
        t = one(op)
        if t in seen: continue
        seen.add(t)
        out.append({'task': t, 'expected': [op['id']]})
        if len(seen) >= per: break
json.dump(out, open(os.path.join(os.environ.get('FT_WORK', '/tmp/discovery-ft'), 'synth.json'), 'w'), indent=0)
print(len(out))
for t in rng.sample(out, 30): print(t['task'], '->', t['expected'][0])
