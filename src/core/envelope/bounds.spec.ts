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

  it('names a list cut deep inside the data by its whole pointer, list by list', () => {
    const data = { a: [{ b: { 'c/d': [1, 2, 3] } }, { b: { 'c/d': [4, 5, 6] } }], e: { f: [7, 8, 9] } };
    const { text } = applyBounds(envelope(data), { maxItems: 2, maxChars: 100_000 });
    const out = JSON.parse(text) as { truncated: { items: Array<{ path: string }> } };
    expect(out.truncated.items.map((i) => i.path).sort()).toEqual(['/a/0/b/c~1d', '/a/1/b/c~1d', '/e/f']);
  });

  it('carries nothing of a walk that threw into the next one (its stacks are kept between calls)', () => {
    const throwing = {
      list: [[1, 2, 3]],
      get broken(): unknown {
        throw new Error('unreadable value');
      },
    };
    expect(() => applyBounds(envelope(throwing), { maxItems: 2, maxChars: 100_000 })).toThrow(
      'unreadable value',
    );
    const { text, truncated } = applyBounds(envelope({ only: [{ x: [1, 2, 3] }] }), {
      maxItems: 2,
      maxChars: 100_000,
    });
    expect(truncated).toBe(true);
    const out = JSON.parse(text) as { truncated: { items: unknown[] } };
    expect(out.truncated.items).toEqual([{ path: '/only/0/x', returned: 2, total: 3 }]);
  });

  it('leaves a result within the limits untouched', () => {
    const data = { items: [1, 2], nested: { deep: [{ x: 1 }] } };
    const { text, truncated } = applyBounds(envelope(data), { maxItems: 5, maxChars: 100_000 });
    expect(truncated).toBe(false);
    expect(JSON.parse(text)).toEqual(envelope(data));
  });

  describe('the list cursor', () => {
    const placeholder = '~cursor~0123456789abcdef'.padEnd(60, '~');
    const value = 'v'.repeat(36);
    const withCursor = (data: unknown[]): Envelope => ({
      ...envelope(data),
      pagination: { page: 1, limit: 3, total_count: 9, next_page: 2, last_page: 3 },
    });
    const cursored = (data: unknown[]) => {
      const e = withCursor(data);
      (e.pagination as Record<string, unknown>).next_cursor = placeholder;
      return e;
    };

    it('is put in place of the placeholder when nothing is cut, in the text the bounds return', () => {
      const r = applyBounds(cursored([1, 2, 3]), {
        maxItems: 5,
        maxChars: 100_000,
        cursor: { placeholder, value },
      });
      expect(r.cursorPlaced).toBe(true);
      expect(r.truncated).toBe(false);
      expect(r.keptItems).toBe(3);
      expect(r.text).not.toContain(placeholder);
      const out = JSON.parse(r.text) as { pagination: { next_cursor: string } };
      expect(out.pagination.next_cursor).toBe(value);
      // The same text as with the placeholder replaced afterwards.
      const before = applyBounds(cursored([1, 2, 3]), { maxItems: 5, maxChars: 100_000 });
      expect(r.text).toBe(before.text.replace(JSON.stringify(placeholder), JSON.stringify(value)));
    });

    it('stays a placeholder when items are cut, for the caller to replace with the cursor after them', () => {
      const r = applyBounds(cursored([1, 2, 3, 4]), {
        maxItems: 2,
        maxChars: 100_000,
        cursor: { placeholder, value },
      });
      expect(r.cursorPlaced).toBeFalsy();
      expect(r.keptItems).toBe(2);
      expect(r.text).toContain(JSON.stringify(placeholder));
    });

    it('is measured with the placeholder length: a text that fits only with the shorter cursor is cut', () => {
      const data = Array.from({ length: 3 }, (_, i) => `item-${i}`);
      const withPlaceholder = applyBounds(cursored(data), { maxItems: 5, maxChars: 100_000 }).text.length;
      // Room for the text with the cursor (shorter) but not with the placeholder.
      const maxChars = withPlaceholder - 1;
      const r = applyBounds(cursored(data), { maxItems: 5, maxChars, cursor: { placeholder, value } });
      const before = applyBounds(cursored(data), { maxItems: 5, maxChars });
      expect(r.cursorPlaced).toBeFalsy();
      expect(r.truncated).toBe(true);
      expect(r.text).toBe(before.text);
      expect(r.keptItems).toBe(before.keptItems);
      // At exactly the placeholder's length, it fits and the cursor is placed.
      const fits = applyBounds(cursored(data), {
        maxItems: 5,
        maxChars: withPlaceholder,
        cursor: { placeholder, value },
      });
      expect(fits.cursorPlaced).toBe(true);
      expect(fits.text.length).toBe(withPlaceholder - (placeholder.length - value.length));
    });
  });
});
