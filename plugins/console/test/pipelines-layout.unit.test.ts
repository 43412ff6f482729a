// The Pipelines section's graph layout (app/sections/pipelines/layout.ts):
// edges from step ids and output datasets, layers by the longest path from
// the roots, and the edge that closes a cycle drawn back up.
import t from 'tap';
import { edgesOf, layoutOf, NODE } from '../app/sections/pipelines/layout.ts';

const sql = (id: string, inputs: string[]) => ({ id, sql: 'SELECT 1 AS x', output: `${id}_out`, inputs });

t.test('edges: a step id, an inline step\'s output dataset, a transform\'s output dataset', async (t) => {
  const transforms = new Map([['north', { id: 'north', name: 'north', output_dataset: 'derived.acme.north' }]]);
  const steps = [sql('a', ['raw.acme.orders']), sql('b', ['a']), { id: 'n', transform_name: 'north', inputs: [] }, sql('c', ['derived.acme.b_out', 'derived.acme.north', 'nowhere'])];
  t.same(edgesOf(steps, transforms), [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'n', to: 'c' }]);
});

t.test('layers: the longest path from a root', async (t) => {
  // a → b → d and a → d: d sits below b, not beside it.
  const layout = layoutOf([sql('a', []), sql('b', ['a']), sql('d', ['a', 'b']), sql('e', [])]);
  t.same(layout.nodes.map((n) => [n.id, n.layer]), [['a', 0], ['b', 1], ['d', 2], ['e', 0]]);
  t.ok(layout.edges.every((e) => !e.back), 'no cycle, no back edge');
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  t.equal(at.get('a')!.y, at.get('e')!.y, 'one layer, one row');
  t.ok(at.get('a')!.x + NODE.width < at.get('e')!.x, 'side by side without overlap');
  t.equal(layout.height, NODE.margin * 2 + 3 * NODE.height + 2 * NODE.gapY);
});

t.test('a cycle: the edge that closes it is a back edge; every step is placed', async (t) => {
  const layout = layoutOf([sql('a', ['c']), sql('b', ['a']), sql('c', ['b'])]);
  t.same(layout.nodes.map((n) => [n.id, n.layer]), [['a', 0], ['b', 1], ['c', 2]]);
  t.same(layout.edges.filter((e) => e.back), [{ from: 'c', to: 'a', back: true }]);
});
