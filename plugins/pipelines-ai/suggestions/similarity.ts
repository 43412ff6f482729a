// How alike two field names are: the words they are made of (camelCase,
// snake_case, kebab-case, spaces), common abbreviations and synonyms folded to
// one word, then the share of words in common and the likeness of the letters
// (Dice on bigrams); the better of the two.
const SYNONYMS: Record<string, string> = {
  mail: 'email', e: 'email', tel: 'phone', telephone: 'phone', mobile: 'phone', cell: 'phone',
  zip: 'postal', zipcode: 'postal', postcode: 'postal', postalcode: 'postal',
  qty: 'quantity', amt: 'amount', total: 'amount', price: 'amount', cost: 'amount',
  dob: 'birth', birthday: 'birth', birthdate: 'birth', born: 'birth',
  fname: 'first', firstname: 'first', given: 'first', forename: 'first',
  lname: 'last', lastname: 'last', surname: 'last', family: 'last',
  addr: 'address', street: 'address', desc: 'description', descr: 'description',
  ts: 'time', timestamp: 'time', datetime: 'time', at: 'time', date: 'time', when: 'time',
  lat: 'latitude', lng: 'longitude', lon: 'longitude', long: 'longitude',
  no: 'number', num: 'number', nr: 'number', identifier: 'id', key: 'id', code: 'id',
  customer: 'client', cust: 'client', user: 'client', person: 'client',
  nm: 'name', title: 'name', label: 'name',
};

export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((word) => SYNONYMS[word] ?? word);
}

function bigrams(text: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i < text.length - 1; i++) grams.push(text.slice(i, i + 2));
  return grams;
}

function dice(a: string, b: string): number {
  if (a === b) return 1;
  const left = bigrams(a);
  const right = bigrams(b);
  if (!left.length || !right.length) return 0;
  const pool = [...right];
  let common = 0;
  for (const gram of left) {
    const at = pool.indexOf(gram);
    if (at >= 0) {
      common++;
      pool.splice(at, 1);
    }
  }
  return (2 * common) / (left.length + right.length);
}

/** 0 (nothing alike) to 1 (the same words). */
export function nameSimilarity(a: string, b: string): number {
  const left = wordsOf(a);
  const right = wordsOf(b);
  if (!left.length || !right.length) return 0;
  const shared = left.filter((word) => right.includes(word)).length;
  const words = (2 * shared) / (left.length + right.length);
  return Math.max(words, dice(left.join(''), right.join('')));
}

/** snake_case of a name (a target field's name). */
export function snakeCase(name: string): string {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return (/^[a-z_]/.test(snake) ? snake : `f_${snake}`).slice(0, 63) || 'field';
}
