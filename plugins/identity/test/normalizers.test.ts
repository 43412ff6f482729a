// The normalizers are written twice (SQL for matching, JavaScript for
// previews): both give the same result for every input, including accents in
// both compositions, odd whitespace, phone and e-mail formats.
import pg from 'pg';
import t from 'tap';
import { identityPlatform } from './helpers.ts';

const INPUTS = [
  'José Álvarez', 'JOSÉ  ÁLVAREZ', 'jose\u0301 alvarez', '  Ærø Øresund  ', 'Łódź Śląsk', 'ÇÃO\tção\u00a0x', 'İstanbul ıi', '', '   ',
  '+351 912 345 678', '00351912345678', '912-345-678', '0161 496 0000', '(+44) 161 496 0000',
  ' Jose.Alvarez+News@GMail.com ', 'a.b+c@googlemail.com', 'A.B+C@example.com', 'no-at-sign', "o'brien", 42, true, 3.5,
];
const SETS = [[], ['case'], ['accents'], ['whitespace'], ['case', 'accents', 'whitespace'], ['phone'], ['phone:351'], ['email'], ['email:gmail'], ['whitespace', 'email:gmail']];

t.test('normalizeSql and normalize agree', async (t) => {
  const { tp } = await identityPlatform(t);
  const api = tp.platform.server.plugins.identity.api;
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  for (const normalizers of SETS) {
    for (const input of INPUTS) {
      const { rows } = await client.query(`SELECT ${api.normalizeSql('$1::text', normalizers)} AS v`, [String(input)]);
      t.equal(rows[0].v, api.normalize(input, normalizers), `${JSON.stringify(input)} ${normalizers.join(',')}`);
    }
  }
});
