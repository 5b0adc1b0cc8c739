import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
import onnxruntime as ort
from transformers import AutoTokenizer
tok = AutoTokenizer.from_pretrained(BASE)
so = ort.SessionOptions(); so.intra_op_num_threads = 2
sess = ort.InferenceSession(sys.argv[1], so, providers=['CPUExecutionProvider'])
def emb(texts):
    out = []
    for i in range(0, len(texts), 64):
        b = tok(texts[i:i+64], padding=True, truncation=True, max_length=128, return_tensors='np')
        h = sess.run(['last_hidden_state'], {'input_ids': b['input_ids'].astype(np.int64), 'attention_mask': b['attention_mask'].astype(np.int64), 'token_type_ids': np.zeros_like(b['input_ids'], dtype=np.int64)})[0]
        m = b['attention_mask'][..., None]; out.append((h * m).sum(1) / m.sum(1))
    return np.concatenate(out)
tv = emb(ALLTEXTS); qv = {s: emb([t['q'] for t in D['sets'][s]]) for s in ('tuning','blindA','blindB')}
for w in (2.0, 2.4, 2.8, 3.2, 4.0, 5.0):
    for p in (0.5,):
        print(w, p, evaluate(qv, tv, weight=w, power=p, alone=(w==2.4)), flush=True)
