// Picks the Postgres text-search configuration of a piece of text: Portuguese
// or English, by counting each language's most frequent function words (and
// Portuguese diacritics). Cheap and good enough for stemming choice; text with
// no signal falls back to the document's language, then to English.

const ENGLISH = new Set(('the of and to in is that it for was on are as with be by this at from or have an not which but '
  + 'they you his her their were has been can will would there what all if when we our more these also its into than').split(' '));
const PORTUGUESE = new Set(('de que não o a os as do da dos das em no na nos nas um uma uns umas para com por se ao aos '
  + 'é são foi ser está estão pelo pela pelos pelas mais como mas ou seu sua seus suas ele ela eles elas isso este esta '
  + 'também já quando muito nem entre depois sem mesmo até há isso essa esse').split(' '));

export type TextSearchConfig = 'english' | 'portuguese';

/** The configuration, or undefined when the text carries too little signal to tell. */
export function detectLanguage(text: string): TextSearchConfig | undefined {
  let english = 0;
  let portuguese = 0;
  const words = text.slice(0, 20000).toLowerCase().match(/[\p{L}]+/gu) ?? [];
  for (const word of words) {
    if (ENGLISH.has(word)) english++;
    if (PORTUGUESE.has(word)) portuguese++;
  }
  // ã õ ç are frequent in Portuguese and rare in English text.
  portuguese += (text.slice(0, 20000).match(/[ãõç]/gi) ?? []).length * 0.5;
  if (english + portuguese < 3) return undefined;
  return portuguese > english ? 'portuguese' : 'english';
}

export function languageOf(text: string, fallback: TextSearchConfig | undefined): TextSearchConfig {
  return detectLanguage(text) ?? fallback ?? 'english';
}
