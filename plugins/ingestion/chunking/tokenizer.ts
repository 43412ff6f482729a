// Token counting for chunk sizing with the configured BPE encoding
// (INGESTION_TOKENIZER, cl100k_base by default), fully offline (gpt-tokenizer
// ships its ranks). Words are counted once each and cached: a corpus repeats
// its words, and counting a word with its leading space matches how the
// encoding's pre-tokenizer splits running text.

export interface TokenCounter {
  /** Tokens of a whole string. */
  count(text: string): number;
  /** Tokens a word adds to running text (counted with a leading space; cached). */
  word(word: string): number;
}

type Encoding = { countTokens(text: string): number };

const encodings = new Map<string, Promise<Encoding>>();

function loadEncoding(name: string): Promise<Encoding> {
  let found = encodings.get(name);
  if (!found) {
    const loaders: Record<string, () => Promise<Encoding>> = {
      cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
      o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
      p50k_base: () => import('gpt-tokenizer/encoding/p50k_base'),
      r50k_base: () => import('gpt-tokenizer/encoding/r50k_base'),
    };
    const load = loaders[name];
    if (!load) throw new Error(`unknown tokenizer ${name}`);
    found = load();
    encodings.set(name, found);
  }
  return found;
}

const WORD_CACHE_LIMIT = 200_000;

export async function createTokenCounter(name: string): Promise<TokenCounter> {
  const encoding = await loadEncoding(name);
  const cache = new Map<string, number>();
  return {
    count: (text) => (text === '' ? 0 : encoding.countTokens(text)),
    word(word) {
      let tokens = cache.get(word);
      if (tokens === undefined) {
        tokens = encoding.countTokens(` ${word}`);
        if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
        cache.set(word, tokens);
      }
      return tokens;
    },
  };
}
