// Arguments as stored in the audit record: secret fields replaced, exact secrets redacted, and
// recognisable secrets masked (audit records are as durable as logs and must carry none).
import { isBodySecretField, MIN_BODY_SECRET_LENGTH } from './body-secrets.util';
import { ACTION_SECRET_WRITE_OPERATIONS, FILE_WRITE_OPERATIONS } from './secret-operations.util';
import { decodeBase64Text, REDACTED, scrubResult, scrubText } from './scrub.util';

export function redactArguments(args: unknown, exactSecrets: string[], operationId: string): unknown {
  const actionWrite = ACTION_SECRET_WRITE_OPERATIONS.has(operationId);
  const fileWrite = FILE_WRITE_OPERATIONS.has(operationId);
  const collected: string[] = [];
  // base64 file contents being written: decoded, scrubbed and re-encoded once all secrets are known
  const fileContents: Array<{ obj: Record<string, unknown>; key: string; text: string }> = [];
  const isSecretKey = (key: string): boolean => isBodySecretField(key) || (actionWrite && key === 'data');
  // First pass (explicit stack, any depth): copy with secret fields replaced, remembering their values.
  const holder: unknown[] = [];
  const stack: Array<{ v: unknown; into: Record<string | number, unknown>; at: string | number }> = [
    { v: args, into: holder as unknown as Record<number, unknown>, at: 0 },
  ];
  while (stack.length > 0) {
    const { v, into, at } = stack.pop()!;
    if (Array.isArray(v)) {
      const arr: unknown[] = new Array<unknown>(v.length);
      into[at] = arr;
      v.forEach((item, i) => stack.push({ v: item, into: arr as unknown as Record<number, unknown>, at: i }));
    } else if (v !== null && typeof v === 'object') {
      const obj: Record<string, unknown> = {};
      into[at] = obj;
      for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
        if (typeof child === 'string' && child.length > 0 && isSecretKey(key)) {
          if (child.length >= MIN_BODY_SECRET_LENGTH || (actionWrite && key === 'data'))
            collected.push(child);
          obj[key] = REDACTED;
        } else {
          obj[key] = null;
          const text =
            fileWrite && key === 'content' && typeof child === 'string' ? decodeBase64Text(child) : null;
          if (text !== null) fileContents.push({ obj, key, text });
          stack.push({ v: child, into: obj, at: key });
        }
      }
    } else {
      into[at] = v;
    }
  }
  const ctx = { exactSecrets: [...exactSecrets, ...collected], mode: 'mask' as const, skipPatterns: false };
  for (const f of fileContents) {
    const r = scrubText(f.text, ctx);
    if (r.redactions > 0 || r.masks > 0) f.obj[f.key] = Buffer.from(r.value, 'utf8').toString('base64');
  }
  return scrubResult(holder[0], ctx).value;
}
