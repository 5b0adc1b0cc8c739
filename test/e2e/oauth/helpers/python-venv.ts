// The Python `mcp` package for the e2e tests: a virtual environment under .cache/ created on first
// use (pip from PyPI, pinned), reused afterwards. Fails loudly when Python or PyPI is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const PYTHON_MCP_VERSION = '2.3.0';

export function pythonWithMcp(): string {
  const venv = join(__dirname, '..', '..', '..', '..', '.cache', 'py-mcp-venv');
  const python = join(venv, 'bin', 'python');
  const marker = join(venv, `.mcp-${PYTHON_MCP_VERSION}`);
  if (!existsSync(marker)) {
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(python, ['-m', 'pip', 'install', '-q', `mcp==${PYTHON_MCP_VERSION}`], { stdio: 'inherit' });
    execFileSync('touch', [marker]);
  }
  return python;
}
