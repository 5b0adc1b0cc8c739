// The WordPiece tokenizer of the discovery search's sentence encoder (src/infra/embeddings/
// wordpiece.ts) on the model's own vocabulary (models/all-minilm-l6-v2/vocab.txt).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelDirectory } from '../../../src/infra/embeddings/minilm-encoder';
import { WordPieceTokenizer } from '../../../src/infra/embeddings/wordpiece';

const vocabulary = readFileSync(join(modelDirectory()!, 'vocab.txt'), 'utf8').split(/\r?\n/);
const tokenizer = new WordPieceTokenizer(vocabulary);
const tokens = (text: string, max?: number) => tokenizer.encode(text, max).map((id) => vocabulary[id]);

describe('WordPieceTokenizer (BERT uncased)', () => {
  it('cuts words into the longest pieces of the vocabulary, between [CLS] and [SEP]', () => {
    expect(tokens("Unstar acme/webapp's README.md please")).toEqual([
      '[CLS]',
      'un',
      '##star',
      'ac',
      '##me',
      '/',
      'web',
      '##app',
      "'",
      's',
      'read',
      '##me',
      '.',
      'md',
      'please',
      '[SEP]',
    ]);
  });

  it('lower-cases, strips accents and splits punctuation off', () => {
    expect(tokenizer.basicTokens('Café, RÉSUMÉ!  (draft)\tPR#12')).toEqual([
      'cafe',
      ',',
      'resume',
      '!',
      '(',
      'draft',
      ')',
      'pr',
      '#',
      '12',
    ]);
  });

  it('gives a word with no pieces one unknown token, and CJK characters one token each', () => {
    expect(tokens('\u{1F600}')).toEqual(['[CLS]', '[UNK]', '[SEP]']);
    expect(tokenizer.basicTokens('仓库')).toEqual(['仓', '库']);
  });

  it('keeps at most maxTokens tokens, [SEP] last', () => {
    const ids = tokens('list the open pull requests of the repository', 5);
    expect(ids).toEqual(['[CLS]', 'list', 'the', 'open', '[SEP]']);
  });

  it('drops control characters', () => {
    expect(tokenizer.basicTokens('star\u0000 the\u200b repo')).toEqual(['star', 'the', 'repo']);
  });
});
