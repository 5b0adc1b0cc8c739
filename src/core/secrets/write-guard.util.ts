// Write-back guard: an agent that read masked content and writes it back would replace the real
// secret with the mask. Outgoing bodies are searched for the service's own mask marker.
import { indexOfMaskMarker } from './mask-format.util';
import { decodeBase64Text } from './scrub.util';
import { FILE_WRITE_OPERATIONS } from './secret-operations.util';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** JSON path ($.a.b[0]) of the first mask marker in the body (document order), or null. */
export function findMaskMarker(body: unknown, operationId: string): string | null {
  const fileWrite = FILE_WRITE_OPERATIONS.has(operationId);
  const stack: Array<{ v: unknown; path: string; depth: number; b64: boolean }> = [
    { v: body, path: '$', depth: 0, b64: false },
  ];
  while (stack.length > 0) {
    const { v, path, depth, b64 } = stack.pop()!;
    if (typeof v === 'string') {
      if (indexOfMaskMarker(v) >= 0) return path;
      if (b64) {
        const text = decodeBase64Text(v);
        if (text !== null && indexOfMaskMarker(text) >= 0) return path;
      }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ v: v[i], path: childPath(path, i), depth: depth + 1, b64: false });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        // File bodies carry base64 `content` at the top level (create/update) or in files[] (changeFiles).
        const isFileContent =
          fileWrite && key === 'content' && (depth === 0 || (depth === 2 && path.startsWith('$.files[')));
        stack.push({
          v: child,
          path: childPath(path, key),
          depth: depth + 1,
          b64: isFileContent || key === 'content_base64',
        });
      }
      // Keys last on the stack, so they are checked before the values of the same object.
      for (let i = entries.length - 1; i >= 0; i--) {
        if (indexOfMaskMarker(entries[i]![0]) >= 0) return childPath(path, entries[i]![0]);
      }
    }
  }
  return null;
}
