// Field normalizers of identity rules, written twice, identically: as a SQL
// expression (matching runs in PostgreSQL) and in JavaScript (previews, tests
// that prove the two agree). Both avoid locale-dependent functions: accents
// and accented capitals go through one fixed translate table, letters are
// lowered as ASCII (lower(... COLLATE "C")), whitespace is an explicit class.
// Normalizers always apply in one canonical order (NFC, whitespace, accents,
// case, email, phone) whatever order a rule lists them in; an empty result is
// null (an empty value never matches).
import { badRequest } from 'agent-platform/sdk';

/** Accented letters and the letters they become (Latin-1 and Latin Extended-A, the common ones). */
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåĀāĂăĄąÇçĆćĈĉĊċČčĎďĐđÈÉÊËèéêëĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħÌÍÎÏìíîïĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľĿŀŁłÑñŃńŅņŇňÒÓÔÕÖØòóôõöøŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųŴŵÝýÿŶŷŸŹźŻżŽž';
const UNACCENTED = 'AAAAAAaaaaaaAaAaAaCcCcCcCcCcDdDdEEEEeeeeEeEeEeEeEeGgGgGgGgHhHhIIIIiiiiIiIiIiIiIiJjKkLlLlLlLlLlNnNnNnNnOOOOOOooooooOoOoOoRrRrRrSsSsSsSsTtTtTtUUUUuuuuUuUuUuUuUuUuWwYyyYyYZzZzZz';
/** Accented capitals and their small letters, so that case folding does not need the accents gone. */
const ACCENTED_UPPER = 'ÀÁÂÃÄÅĀĂĄÇĆĈĊČĎĐÈÉÊËĒĔĖĘĚĜĞĠĢĤĦÌÍÎÏĨĪĬĮĴĶĹĻĽĿŁÑŃŅŇÒÓÔÕÖØŌŎŐŔŖŘŚŜŞŠŢŤŦÙÚÛÜŨŪŬŮŰŲŴÝŶŸŹŻŽ';
const ACCENTED_LOWER = 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýŷÿźżž';
/** What counts as whitespace: ASCII space, tab, newline, carriage return, form feed, vertical tab, no-break space. */
const SPACES = ' \t\n\r\f\v\u00a0';

export const NORMALIZER_PATTERN = /^(case|accents|whitespace|phone(:[1-9][0-9]{0,2})?|email(:gmail)?)$/;
const ORDER = ['whitespace', 'accents', 'case', 'email', 'phone'];

function mapOf(from: string, to: string): Map<string, string> {
  const a = [...from];
  const b = [...to];
  if (a.length !== b.length) throw new Error('normalizer tables differ in length');
  return new Map(a.map((c, i) => [c, b[i]]));
}
const unaccent = mapOf(ACCENTED, UNACCENTED);
const lowerAccented = mapOf(ACCENTED_UPPER, ACCENTED_LOWER);
const translateJs = (s: string, map: Map<string, string>) => [...s].map((c) => map.get(c) ?? c).join('');

/** Checks normalizer names (400 IDENTITY_NORMALIZER_UNKNOWN) and puts them in their canonical order. */
export function canonicalNormalizers(normalizers: string[] = []): string[] {
  for (const n of normalizers) {
    if (!NORMALIZER_PATTERN.test(n)) {
      throw badRequest(`Unknown normalizer ${JSON.stringify(n)}: use case, accents, whitespace, phone, phone:<country code>, email or email:gmail`, 'IDENTITY_NORMALIZER_UNKNOWN');
    }
  }
  const kinds = new Set(normalizers.map((n) => n.split(':')[0]));
  if (kinds.size !== normalizers.length) throw badRequest('A normalizer is listed twice', 'IDENTITY_NORMALIZER_UNKNOWN');
  return [...normalizers].sort((x, y) => ORDER.indexOf(x.split(':')[0]) - ORDER.indexOf(y.split(':')[0]));
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const spaceClass = `'[ \\t\\n\\r\\f\\v' || chr(160) || ']+'`;

/**
 * A SQL expression (text, or null) normalizing `columnSql` (a text
 * expression). ASCII values (octet length = character length, cheap to test)
 * skip the NFC and translate steps, which cannot change them: most keys
 * (e-mails, phones, codes) are ASCII, and translate over a long table is
 * the costly part of matching.
 */
export function normalizeSql(columnSql: string, normalizers: string[]): string {
  const steps = canonicalNormalizers(normalizers);
  const value = `(${columnSql})::text`;
  const full = pipelineSql(`normalize(${value}, NFC)`, steps, false);
  const ascii = pipelineSql(value, steps, true);
  return `nullif(CASE WHEN octet_length(${value}) = char_length(${value}) THEN ${ascii} ELSE ${full} END, '')`;
}

function pipelineSql(start: string, steps: string[], ascii: boolean): string {
  let e = start;
  for (const n of steps) {
    const [kind, option] = n.split(':');
    if (kind === 'whitespace') e = `btrim(regexp_replace(${e}, ${spaceClass}, ' ', 'g'), ' ')`;
    else if (kind === 'accents' && !ascii) e = `translate(${e}, ${quote(ACCENTED)}, ${quote(UNACCENTED)})`;
    else if (kind === 'case') e = `lower(${ascii ? e : `translate(${e}, ${quote(ACCENTED_UPPER)}, ${quote(ACCENTED_LOWER)})`} COLLATE "C")`;
    else if (kind === 'email') e = emailSql(e, option === 'gmail');
    else if (kind === 'phone') e = phoneSql(e, option);
  }
  return e;
}

function emailSql(value: string, gmail: boolean): string {
  const e = `lower(btrim(${value}, ${quote(SPACES)}) COLLATE "C")`;
  if (!gmail) return e;
  return `(SELECT CASE WHEN x ~ '^[^@]+@(gmail|googlemail)\\.com$' THEN replace(split_part(split_part(x, '@', 1), '+', 1), '.', '') || '@gmail.com' ELSE x END FROM (SELECT ${e} AS x) email)`;
}

function phoneSql(value: string, countryCode: string | undefined): string {
  const national = countryCode ? `${quote(countryCode)} || regexp_replace(replace(d, '+', ''), '^0', '')` : `replace(d, '+', '')`;
  return `(SELECT CASE WHEN d LIKE '+%' THEN replace(d, '+', '') WHEN d LIKE '00%' THEN substr(replace(d, '+', ''), 3) ELSE ${national} END`
    + ` FROM (SELECT regexp_replace(${value}, '[^0-9+]', '', 'g') AS d) phone)`;
}

/** The same normalization in JavaScript: scalars only (objects and arrays are null, as in SQL). */
export function normalize(value: unknown, normalizers: string[]): string | null {
  if (value === null || value === undefined || typeof value === 'object') return null;
  let s = String(value).normalize('NFC');
  for (const n of canonicalNormalizers(normalizers)) {
    const [kind, option] = n.split(':');
    if (kind === 'whitespace') s = s.replace(/[ \t\n\r\f\v\u00a0]+/g, ' ').replace(/^ +| +$/g, '');
    else if (kind === 'accents') s = translateJs(s, unaccent);
    else if (kind === 'case') s = asciiLower(translateJs(s, lowerAccented));
    else if (kind === 'email') s = emailJs(s, option === 'gmail');
    else if (kind === 'phone') s = phoneJs(s, option);
  }
  return s === '' ? null : s;
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function emailJs(value: string, gmail: boolean): string {
  const x = asciiLower(value.replace(/^[ \t\n\r\f\v\u00a0]+|[ \t\n\r\f\v\u00a0]+$/g, ''));
  if (!gmail || !/^[^@]+@(gmail|googlemail)\.com$/.test(x)) return x;
  return `${x.split('@')[0].split('+')[0].replace(/\./g, '')}@gmail.com`;
}

function phoneJs(value: string, countryCode: string | undefined): string {
  const d = value.replace(/[^0-9+]/g, '');
  const digits = d.replace(/\+/g, '');
  if (d.startsWith('+')) return digits;
  if (d.startsWith('00')) return digits.slice(2);
  return countryCode ? countryCode + digits.replace(/^0/, '') : digits;
}
