// Relay connections in both directions over a keyset source (an in-memory
// list standing in for a store's keyset query), and over a whole array.
import t from 'tap';
import { arrayConnection, decodeCursor, encodeCursor, keysetConnection, type KeysetPage } from '../../core/graphql/connection.ts';

const rows = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));

/** What a store does: rows after the cursor in order, or before it nearest first. */
function source() {
  const fetched: KeysetPage<number>[] = [];
  return {
    fetched,
    keyOf: (row: { id: number }) => row.id,
    validKey: (key: unknown) => Number.isInteger(key),
    async fetch(page: KeysetPage<number>) {
      fetched.push(page);
      if (page.direction === 'forward') return rows.filter((row) => page.cursor === undefined || row.id > page.cursor).slice(0, page.limit);
      return rows.filter((row) => page.cursor === undefined || row.id < page.cursor).reverse().slice(0, page.limit);
    },
    count: () => rows.length,
  };
}

const ids = (connection: { edges: { node: { id: number } }[] }) => connection.edges.map((edge) => edge.node.id);

t.test('forward pages with first/after', async (t) => {
  const first = await keysetConnection({ first: 3 }, source());
  t.same(ids(first), [1, 2, 3]);
  t.same(first.pageInfo, { hasNextPage: true, hasPreviousPage: false, startCursor: encodeCursor(1), endCursor: encodeCursor(3) });
  t.equal(await first.totalCount(), 7);
  const last = await keysetConnection({ first: 3, after: encodeCursor(6) }, source());
  t.same(ids(last), [7]);
  t.match(last.pageInfo, { hasNextPage: false, hasPreviousPage: true });
});

t.test('backward pages with last/before, in list order', async (t) => {
  const end = await keysetConnection({ last: 3 }, source());
  t.same(ids(end), [5, 6, 7], 'last alone: the end of the list');
  t.match(end.pageInfo, { hasNextPage: false, hasPreviousPage: true, startCursor: encodeCursor(5), endCursor: encodeCursor(7) });
  const before = await keysetConnection({ last: 3, before: end.pageInfo.startCursor }, source());
  t.same(ids(before), [2, 3, 4]);
  t.match(before.pageInfo, { hasNextPage: true, hasPreviousPage: true });
  const start = await keysetConnection({ last: 3, before: before.pageInfo.startCursor }, source());
  t.same(ids(start), [1]);
  t.match(start.pageInfo, { hasNextPage: true, hasPreviousPage: false });
});

t.test('clear errors for bad arguments, and nothing read', async (t) => {
  const s = source();
  await t.rejects(keysetConnection({ first: 2, before: encodeCursor(3) }, s), { message: /not both/, extensions: { code: 'BAD_USER_INPUT' } });
  await t.rejects(keysetConnection({ last: 101 }, s), { message: 'last must be between 0 and 100' });
  await t.rejects(keysetConnection({ first: -1 }, s), { message: 'first must be between 0 and 100' });
  await t.rejects(keysetConnection({ after: 'not base64 json' }, s), { message: 'Malformed cursor' });
  await t.rejects(keysetConnection({ after: encodeCursor('x') }, s), { message: 'Malformed cursor' }, 'a key of the wrong shape');
  t.same(s.fetched, []);
  const empty = await keysetConnection({ first: 0 }, s);
  t.same(ids(empty), []);
  t.same(s.fetched, [], 'first: 0 reads nothing');
});

t.test('composite keys round-trip', async (t) => {
  const key: [string, number] = ['2026-11-29T10:00:00.000Z', 4];
  t.same(decodeCursor(encodeCursor(key)), key);
});

t.test('arrays page by position both ways', async (t) => {
  const first = arrayConnection(rows, { first: 2, after: encodeCursor(2) }, (row) => row.id);
  t.same(ids(first), [3, 4]);
  t.match(first.pageInfo, { hasNextPage: true, hasPreviousPage: true });
  const back = arrayConnection(rows, { last: 2, before: encodeCursor(3) }, (row) => row.id);
  t.same(ids(back), [1, 2]);
  t.match(back.pageInfo, { hasNextPage: true, hasPreviousPage: false });
  t.equal(await back.totalCount(), 7);
  t.throws(() => arrayConnection(rows, { after: encodeCursor(99) }, (row) => row.id), { message: 'Malformed cursor' });
});
