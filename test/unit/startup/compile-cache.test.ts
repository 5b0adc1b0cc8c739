// The entry point turns on Node's compile cache before it loads anything else (on Node >= 22.1;
// a no-op on Node 20), so every module of the service is compiled once per build, not per start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { enableCompileCache } from '../../../src/infra/runtime/compile-cache';

describe('compile cache', () => {
  it('is enabled where Node has it, and reported as it is', () => {
    const calls: unknown[] = [];
    const withStatus = (status: number) => ({
      enableCompileCache: (...args: unknown[]) => {
        calls.push(args);
        return { status };
      },
    });
    expect(enableCompileCache({})).toBe('unsupported');
    expect(enableCompileCache(withStatus(1))).toBe('enabled');
    expect(enableCompileCache(withStatus(2))).toBe('enabled'); // NODE_COMPILE_CACHE already did it
    expect(enableCompileCache(withStatus(3))).toBe('disabled'); // NODE_DISABLE_COMPILE_CACHE
    expect(enableCompileCache(withStatus(0))).toBe('failed'); // e.g. a read-only temporary directory
    expect(
      enableCompileCache({
        enableCompileCache: () => {
          throw new Error('boom');
        },
      }),
    ).toBe('failed');
    // The directory is Node's choice (NODE_COMPILE_CACHE, else the temporary directory).
    expect(calls).toEqual([[], [], [], []]);
  });

  it('is the first thing the entry point imports', () => {
    const source = readFileSync(join(__dirname, '../../../src/main.ts'), 'utf8');
    const firstImport = /^import\s[^;]*;/m.exec(source)?.[0];
    expect(firstImport).toBe("import './infra/runtime/compile-cache';");
  });
});
