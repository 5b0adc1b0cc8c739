// cleanJson walks every value of a result with stacks it keeps between calls: each walk must see
// its own data only, also after a walk that threw halfway.
import { cleanJson, emptyCounts } from './hygiene';

describe('cleanJson', () => {
  it('makes hidden characters visible in authored text and only counts them elsewhere', () => {
    const counts = emptyCounts();
    const data = { title: 'a\u200Bb', sha: 'c\u200Bd', items: [{ body: 'x\u202Ey' }] };
    const cleaned = cleanJson(data, counts) as typeof data;
    expect(cleaned).toEqual({ title: 'a[U+200B]b', sha: 'c\u200Bd', items: [{ body: 'x[U+202E]y' }] });
    expect(counts).toEqual({ invisible: 2, bidi: 1, tag_characters: 0, html_comments: 0 });
  });

  it('carries nothing of a walk that threw into the next one', () => {
    const leftover = { title: 'hidden\u200Bmark' };
    const throwing = {
      a: leftover,
      get b(): string {
        throw new Error('unreadable value');
      },
    };
    expect(() => cleanJson(throwing, emptyCounts())).toThrow('unreadable value');
    const counts = emptyCounts();
    expect(cleanJson({ note: 'plain' }, counts)).toEqual({ note: 'plain' });
    expect(counts).toEqual(emptyCounts());
    expect(leftover.title).toBe('hidden\u200Bmark');
  });
});
