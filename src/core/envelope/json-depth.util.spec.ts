import { jsonDepthExceeds } from './json-depth.util';

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonDepthExceeds', () => {
  it('compares the nesting depth with the limit', () => {
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
  });

  it('ignores brackets inside strings, including after escaped quotes and backslashes', () => {
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a"[[[[\\"[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'ends with a backslash\\' }) + nested(3), 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify(['\\\\"', '[[[[']), 1)).toBe(false);
  });

  it('stops at an unterminated string', () => {
    expect(jsonDepthExceeds('["abc', 1)).toBe(false);
    expect(jsonDepthExceeds('[["abc\\"', 1)).toBe(true);
  });

  it('handles long runs of escaped backslashes and quotes', () => {
    const text = JSON.stringify(['\\'.repeat(200_000) + '"'.repeat(1000), [[[]]]]);
    expect(jsonDepthExceeds(text, 3)).toBe(true);
    expect(jsonDepthExceeds(text, 4)).toBe(false);
  });
});
