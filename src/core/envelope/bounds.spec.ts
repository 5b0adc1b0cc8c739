import { applyBounds } from './bounds';
import type { Envelope } from './envelope';

const envelope = (data: unknown): Envelope => ({
  identity: { login: 'svc', mode: 'service', sudo: null },
  request: { method: 'GET', path: '/x' },
  status: 200,
  untrusted_content: 'banner',
  data,
});

describe('applyBounds', () => {
  it('cuts the top-level list and nested lists, naming each by JSON pointer', () => {
    const data = [{ 'a/b~c': [1, 2, 3], tags: ['x'] }, { 'a/b~c': [4] }, { n: null }];
    const { text, truncated } = applyBounds(envelope(data), { maxItems: 2, maxChars: 100_000 });
    const out = JSON.parse(text) as { data: unknown[]; truncated: { items: unknown[] } };
    expect(truncated).toBe(true);
    expect(out.data).toEqual([{ 'a/b~c': [1, 2], tags: ['x'] }, { 'a/b~c': [4] }]);
    expect(out.truncated.items).toEqual([
      { path: '/', returned: 2, total: 3 },
      { path: '/0/a~1b~0c', returned: 2, total: 3 },
    ]);
    expect(data).toHaveLength(3); // the caller's value is not cut in place at the top level
  });

  it('leaves a result within the limits untouched', () => {
    const data = { items: [1, 2], nested: { deep: [{ x: 1 }] } };
    const { text, truncated } = applyBounds(envelope(data), { maxItems: 5, maxChars: 100_000 });
    expect(truncated).toBe(false);
    expect(JSON.parse(text)).toEqual(envelope(data));
  });
});
