"""Exports a fine-tuned MiniLM (sentence-transformers folder) to ONNX with the shipped model's
inputs/outputs (input_ids, attention_mask, token_type_ids -> last_hidden_state), then stores the
embedding tables and the linear weights as int8 with one fp32 scale per row/column (Cast + Mul,
like the shipped file): weight-only, so the runtime computes in fp32 after folding them.
Usage: export.py <sentence-transformers folder> <out.int8.onnx> [seed: stochastic rounding instead of nearest]"""
import sys, numpy as np, onnx, torch
from onnx import helper, numpy_helper as nh, TensorProto
from transformers import AutoModel
src, dst = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(int(sys.argv[3])) if len(sys.argv) > 3 else None  # a seed: stochastic rounding
class Wrap(torch.nn.Module):
    def __init__(self, inner):
        super().__init__(); self.inner = inner
    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
inner = AutoModel.from_pretrained(src, attn_implementation='eager').eval()
m = Wrap(inner)
ids = torch.ones(2, 9, dtype=torch.long)
fp32 = dst.replace('.int8.onnx', '.fp32.onnx')
torch.onnx.export(m, (ids, ids, torch.zeros_like(ids)), fp32, input_names=['input_ids', 'attention_mask', 'token_type_ids'],
                  output_names=['last_hidden_state'], opset_version=17, dynamo=False,
                  dynamic_axes={k: {0: 'batch', 1: 'sequence'} for k in ['input_ids', 'attention_mask', 'token_type_ids', 'last_hidden_state']})
g = onnx.load(fp32)
inits = {t.name: t for t in g.graph.initializer}
targets = {}
for n in g.graph.node:
    if n.op_type == 'MatMul' and n.input[1] in inits and len(inits[n.input[1]].dims) == 2: targets[n.input[1]] = 0
    if n.op_type == 'Gather' and n.input[0] in inits and len(inits[n.input[0]].dims) == 2 and inits[n.input[0]].dims[0] > 100: targets[n.input[0]] = 1
new_inits, new_nodes = [], []
for name, axis in targets.items():
    w = nh.to_array(inits[name]).astype(np.float32)
    scale = np.abs(w).max(axis=axis, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    # Rounding to nearest (the default) or, with a seed, stochastic rounding (ADR 0020, revision 9): a short epoch
    # from weights rebuilt by dequantize.py moves each weight by less than half a quantisation step, so rounding to
    # nearest puts almost every one back where it started; rounding up with probability equal to the remainder
    # keeps the update in expectation.
    q = np.floor(w / scale + rng.random(w.shape, dtype=np.float32)) if rng is not None else np.round(w / scale)
    q = np.clip(q, -127, 127).astype(np.int8)
    g.graph.initializer.remove(inits[name])
    new_inits += [nh.from_array(q, name + '_q'), nh.from_array(scale.astype(np.float32), name + '_scale')]
    new_nodes += [helper.make_node('Cast', [name + '_q'], [name + '_f'], to=TensorProto.FLOAT),
                  helper.make_node('Mul', [name + '_f', name + '_scale'], [name])]
g.graph.initializer.extend(new_inits)
nodes = new_nodes + list(g.graph.node)
del g.graph.node[:]
g.graph.node.extend(nodes)
onnx.checker.check_model(g)
onnx.save(g, dst)
print('quantised', len(targets), 'tensors ->', dst)
