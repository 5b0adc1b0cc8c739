// BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2 was trained with it: lower case, accents
// stripped, words split at white space and punctuation, then each word cut greedily into the
// longest pieces of the vocabulary ("##" marks a piece inside a word). Written here because the one
// tokenizer the model needs is small, and the npm tokenizer libraries bring a model hub with them.
import { readFileSync } from 'node:fs';

const CONTROL = /\p{Cc}|\p{Cf}/u;
const SPACE = /\s/u;
const PUNCTUATION = /\p{P}/u;
const MAX_WORD_CHARS = 100;

function isPunctuation(ch: string, cp: number): boolean {
  // BERT counts every ASCII non-letter, non-digit as punctuation ($, +, ^, ` and the like too).
  if (
    (cp >= 33 && cp <= 47) ||
    (cp >= 58 && cp <= 64) ||
    (cp >= 91 && cp <= 96) ||
    (cp >= 123 && cp <= 126)
  ) {
    return true;
  }
  return PUNCTUATION.test(ch);
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

export class WordPieceTokenizer {
  private readonly vocab = new Map<string, number>();
  readonly cls: number;
  readonly sep: number;
  readonly unk: number;

  /** `vocabulary`: the lines of vocab.txt (a token per line, its id the line number). */
  constructor(vocabulary: string[]) {
    vocabulary.forEach((token, id) => {
      if (token && !this.vocab.has(token)) this.vocab.set(token, id);
    });
    const id = (t: string) => {
      const v = this.vocab.get(t);
      if (v === undefined) throw new Error(`vocabulary has no ${t}`);
      return v;
    };
    this.cls = id('[CLS]');
    this.sep = id('[SEP]');
    this.unk = id('[UNK]');
  }

  static fromFile(path: string): WordPieceTokenizer {
    return new WordPieceTokenizer(readFileSync(path, 'utf8').split(/\r?\n/));
  }

  /** The words before WordPiece: lower case, no accents, punctuation and CJK as words of their own. */
  basicTokens(text: string): string[] {
    const cleaned = text
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '')
      .toLowerCase();
    const out: string[] = [];
    let word = '';
    const flush = () => {
      if (word) out.push(word);
      word = '';
    };
    for (const ch of cleaned) {
      const cp = ch.codePointAt(0)!;
      if (SPACE.test(ch)) {
        flush();
        continue;
      }
      if (cp === 0 || cp === 0xfffd || CONTROL.test(ch)) continue;
      if (isPunctuation(ch, cp) || isCjk(cp)) {
        flush();
        out.push(ch);
        continue;
      }
      word += ch;
    }
    flush();
    return out;
  }

  /** Token ids with [CLS] first and [SEP] last, at most `maxTokens` in all. */
  encode(text: string, maxTokens = 128): number[] {
    const ids = [this.cls];
    const limit = Math.max(2, maxTokens) - 1;
    for (const word of this.basicTokens(text)) {
      if (ids.length >= limit) break;
      ids.push(...this.pieces(word));
    }
    ids.length = Math.min(ids.length, limit);
    ids.push(this.sep);
    return ids;
  }

  private pieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > MAX_WORD_CHARS) return [this.unk];
    const out: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      // A word with a part that is in no piece is one unknown token, as in BERT.
      if (found === undefined) return [this.unk];
      out.push(found);
      start = end;
    }
    return out;
  }
}

/**
 * The whole words of a WordPiece vocabulary (lower case, letters only, no "##" pieces): real words
 * the discovery search's typo corrector leaves alone ("main", "text", "node").
 */
export function vocabularyWords(vocabulary: string[]): Set<string> {
  return new Set(vocabulary.filter((t) => /^[a-z]+$/.test(t)));
}
