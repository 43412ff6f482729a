// compiledStatement (core/db/compiled.ts): built and compiled once, each call
// sends the same SQL with its own values in the named parameters' places.
import t from 'tap';
import type { CompiledQuery, QueryResult } from 'kysely';
import { compiledStatement } from '../../core/db/compiled.ts';

t.test('one compilation, the values of each call', async (t) => {
  let builds = 0;
  const statement = compiledStatement<{ id: number; name: string }, { id: number }>((db, param) => {
    builds++;
    return db.selectFrom('clients').select(['id']).where('id', '=', param('id')).where('name', '=', param('name')).where('client_key', '=', 'fixed');
  });
  const sent: CompiledQuery[] = [];
  const runner = {
    async executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> {
      sent.push(query);
      return { rows: [{ id: sent.length }] as R[] };
    },
  };
  t.same(await statement(runner, { id: 7, name: 'a' }), [{ id: 1 }], 'the runner\'s rows');
  t.same(await statement(runner, { id: 8, name: 'b' }), [{ id: 2 }]);
  t.equal(builds, 1, 'built once');
  t.equal(sent[0].sql, 'select "id" from "clients" where "id" = $1 and "name" = $2 and "client_key" = $3');
  t.equal(sent[1].sql, sent[0].sql, 'the same SQL');
  t.same(sent.map((q) => q.parameters), [[7, 'a', 'fixed'], [8, 'b', 'fixed']], 'each call\'s values, literals kept');
});
