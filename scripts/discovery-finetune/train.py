"""Fine-tunes all-MiniLM-L6-v2 for discovery search: task -> operation texts, contrastive loss with
hard negatives mined from the shipped fused ranking, false negatives masked. Tuning side only."""
import argparse, json, random, sys, time, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
import torch, torch.nn.functional as F
from sentence_transformers import SentenceTransformer
ap = argparse.ArgumentParser()
ap.add_argument('--epochs', type=int, default=3)
ap.add_argument('--lr', type=float, default=2e-5)
ap.add_argument('--batch', type=int, default=48)
ap.add_argument('--real-repeat', type=int, default=3)
ap.add_argument('--syn', type=int, default=1, help='use synthetic tasks')
ap.add_argument('--syn-frac', type=float, default=1.0)
ap.add_argument('--negs', type=int, default=2)
ap.add_argument('--scale', type=float, default=20.0)
ap.add_argument('--seed', type=int, default=17)
ap.add_argument('--out', default=os.path.join(WORK, 'out'))
ap.add_argument('--eval-every', type=int, default=1)
ap.add_argument('--init', default=None, help='start from these weights (a sentence-transformers folder) instead of the base')
ap.add_argument('--syn2', type=float, default=0.0, help='share of the hand-written intents (dump_syn2.json) to use')
ap.add_argument('--syn2-file', default='dump_syn2.json')
ap.add_argument('--sib-negs', type=int, default=0, help='negatives among the expected operation\'s siblings (its opposite action)')
args = ap.parse_args()
random.seed(args.seed); np.random.seed(args.seed); torch.manual_seed(args.seed)
torch.set_num_threads(2)
model = SentenceTransformer(args.init or BASE, device='cpu')
z = dict(np.load(os.path.join(WORK, 'base_vecs.npz')))

def mine(tasks, qv):
    """Hard negatives: the starting model's fused ranking's top operations that are not expected."""
    sim = op_sims(norm(qv), TV0); sc = lex_matrix(tasks) + MINE_WEIGHT * sim
    order = np.argsort(-sc, 1)[:, :12]
    out = []
    for i, t in enumerate(tasks):
        exp = set(t['expected'])
        out.append([OPS[j]['id'] for j in order[i] if OPS[j]['id'] not in exp][:8])
    return out

def examples():
    ex = []
    for s in ('tuning', 'blindA'):
        tasks = D['sets'][s]
        negs = mine(tasks, z['q_' + s])
        for t, n in zip(tasks, negs):
            for _ in range(args.real_repeat):
                ex.append((t['q'], t['expected'], n))
    for name, frac in (('dump_syn.json', args.syn_frac if args.syn else 0), (args.syn2_file, args.syn2)):
        if frac <= 0: continue
        S = json.load(open(os.path.join(WORK, name)))['sets']['synthetic']
        S = [t for t in S if t['q']]
        if frac < 1: S = random.sample(S, int(len(S) * frac))
        qs = encode(model, [t['q'] for t in S])
        negs = mine(S, qs)
        for t, n in zip(S, negs): ex.append((t['q'], t['expected'], n))
    return ex

import re
_ACT = re.compile(r'(un)?(get|list|create|delete|remove|add|put|post|edit|update|check|is|lock|pin|block|dismiss|resolve|'
                  r'publicize|conceal|enable|disable|start|stop|accept|reject|follow|star|subscription|replace|clear|reset)', re.I)
def siblings():
    """Operations that differ from one another only in their action (same route with another method, or an operationId that
    is the same but for its verbs: issueLockIssue / issueUnlockIssue, userCurrentPutStar / userCurrentDeleteStar)."""
    by = {}
    for o in OPS:
        for key in (('r', o['route']), ('n', _ACT.sub('', o['id']).lower())): by.setdefault(key, []).append(o['id'])
    sib = {o['id']: set() for o in OPS}
    for ids in by.values():
        if len(ids) > 8: continue
        for a in ids: sib[a].update(x for x in ids if x != a)
    return {k: sorted(v) for k, v in sib.items()}
SIB = siblings()

def encode(m, texts, bs=128):
    m.eval()
    with torch.no_grad():
        return m.encode(texts, batch_size=bs, convert_to_numpy=True)

def embed_train(texts):
    f = model.tokenize(texts)
    return model(f)['sentence_embedding']  # normalised (Normalize module)

def run_eval(tag):
    tv = encode(model, ALLTEXTS)
    qv = {s: encode(model, [t['q'] for t in D['sets'][s]]) for s in ('tuning', 'blindA', 'blindB')}
    r = {}
    for w in (2.4, 4.0, 5.0):
        r[w] = evaluate(qv, tv, weight=w, alone=(w == 4.0))
    print(tag, json.dumps(r), flush=True)
    return r

if args.init:  # the hard negatives come from the starting model's own ranking
    z['tv'] = encode(model, ALLTEXTS)
    for s_ in ('tuning', 'blindA'): z['q_' + s_] = encode(model, [t['q'] for t in D['sets'][s_]])
MINE_WEIGHT = 4.0 if args.init else 2.4
TV0 = norm(z['tv'])
EX = examples()
print('examples', len(EX), flush=True)
opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
steps = args.epochs * ((len(EX) + args.batch - 1) // args.batch)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, s / max(1, 0.1 * steps)) * max(0.0, (steps - s) / steps))
step = 0
for ep in range(args.epochs):
    model.train()
    random.shuffle(EX)
    t0 = time.time(); tot = 0
    for b in range(0, len(EX), args.batch):
        batch = EX[b:b + args.batch]
        anchors = [q for q, _, _ in batch]
        pos_ops = [random.choice(e) for _, e, _ in batch]
        neg_ops = [random.sample(n, min(args.negs, len(n))) for _, _, n in batch]
        if args.sib_negs:
            for ns, (_, e, _) in zip(neg_ops, batch):
                cand = sorted({x for o in e for x in SIB[o]} - set(e) - set(ns))
                ns += random.sample(cand, min(args.sib_negs, len(cand)))
        cand_ops = pos_ops + [o for ns in neg_ops for o in ns]
        cand_texts = [random.choice(OPS[OPIDX[o]]['texts']) for o in cand_ops]
        a = embed_train(anchors); c = embed_train(cand_texts)
        sim = args.scale * a @ c.T
        mask = torch.zeros_like(sim, dtype=torch.bool)
        for i, (_, e, _) in enumerate(batch):
            es = set(e)
            for j, o in enumerate(cand_ops):
                if j != i and o in es: mask[i, j] = True
        sim = sim.masked_fill(mask, -1e4)
        loss = F.cross_entropy(sim, torch.arange(len(batch)))
        opt.zero_grad(); loss.backward(); opt.step(); sched.step(); step += 1
        tot += loss.item()
    print(f'epoch {ep + 1} loss {tot / ((len(EX) + args.batch - 1) // args.batch):.4f} {time.time() - t0:.0f}s', flush=True)
    if (ep + 1) % args.eval_every == 0 or ep + 1 == args.epochs:
        run_eval(f'eval ep{ep + 1}')
model.save(args.out)
