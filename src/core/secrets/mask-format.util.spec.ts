import { formatMask, indexOfMaskMarker } from './mask-format.util';

describe('mask marker', () => {
  it('keeps the kind, a short public prefix and the length, not the secret', () => {
    const secret = ['gh', 'p_'].join('') + 'Z'.repeat(10) + 'abcdefghijklmnopqrstuvwxyz';
    const m = formatMask('github-token', secret, 4);
    expect(m).toBe(`[[aegis-masked:github-token:${secret.slice(0, 4)}...:${secret.length}]]`);
    expect(m).not.toContain(secret.slice(4, 12));
  });

  it('never shows more than a third of a short secret', () => {
    expect(formatMask('x', 'abcdef', 8)).toBe('[[aegis-masked:x:ab...:6]]');
  });

  it('is found exactly: complete markers only', () => {
    const m = formatMask('private-key', 'k'.repeat(900), 0);
    expect(indexOfMaskMarker(`before ${m} after`)).toBe(7);
    expect(indexOfMaskMarker('docs mention [[aegis-masked: but no marker')).toBe(-1);
    expect(indexOfMaskMarker('[[aegis-masked:KIND:x...:1]]')).toBe(-1); // kind is lower-case
    expect(indexOfMaskMarker('[[aegis-masked:[[aegis-masked:k:...:3]]')).toBe(15);
  });
});
