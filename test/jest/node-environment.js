// Jest's Node environment, with one change: the test realm's Float32Array is Node's own. A native
// addon (onnxruntime-node, the sentence encoder of discovery search) creates its output arrays in
// Node's realm, and the runtime's JavaScript checks them with `instanceof Float32Array` in the
// test's realm, which would refuse every result. Nothing else is shared.
const { TestEnvironment } = require('jest-environment-node');

class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.Float32Array = Float32Array;
  }
}

module.exports = NodeEnvironment;
