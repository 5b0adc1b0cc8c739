// Types for wink-porter2-stemmer (CommonJS, ships none): one function, word in, Porter2 stem out.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
