// The tools configuration the ToolService e2e suites start from (full catalogue, nothing
// disabled, small MAX_BINARY_BYTES so the binary limit is easy to cross).
import type { AppConfig } from '../../../src/config/app-config';

export const E2E_TOOLS_CONFIG: AppConfig['tools'] = {
  specSource: 'bundled',
  toolsets: [],
  mode: 'full',
  readOnly: false,
  disabledTools: [],
  allowSudo: false,
  maxResponseItems: 100,
  maxResponseChars: 200_000,
  maxBinaryBytes: 4096,
};
