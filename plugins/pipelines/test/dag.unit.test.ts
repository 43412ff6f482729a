// The pure part of DAG validation (dag/graph.ts): edges from inputs, duplicate
// ids and outputs, unknown step references, cycles by their steps and the
// topological order. No database: the datasets are the service's to check.
import t from 'tap';
import { analyzeGraph, isDatasetRef, topologicalOrder } from '../dag/graph.ts';

t.test('the graph alone: order, cycles by their steps, duplicates, missing step references', async (t) => {
  const ok = analyzeGraph([
    { id: 'c', output: 'derived.a.c', inputs: ['a', 'b'] },
    { id: 'a', output: 'derived.a.a', inputs: ['raw.a.x'] },
    { id: 'b', output: 'derived.a.b', inputs: ['derived.a.a'] },
  ]);
  t.same(ok.errors, []);
  t.same(ok.order, ['a', 'b', 'c'], 'dependencies first; declaration order among ready steps');
  t.same([...ok.external.keys()], ['raw.a.x']);

  const cyclic = analyzeGraph([
    { id: 'a', output: 'derived.a.a', inputs: ['c'] },
    { id: 'b', output: 'derived.a.b', inputs: ['a'] },
    { id: 'c', output: 'derived.a.c', inputs: ['b'] },
    { id: 'self', output: 'derived.a.s', inputs: ['self'] },
    { id: 'free', output: 'derived.a.f', inputs: [] },
  ]);
  t.same(cyclic.errors.filter((e) => e.code === 'DAG_CYCLE').map((e) => e.steps), [['a', 'b', 'c'], ['self']]);
  t.same(cyclic.order, ['free'], 'the steps of a cycle are left out of the order');

  const dup = analyzeGraph([
    { id: 'a', output: 'derived.a.same', inputs: ['ghost'] },
    { id: 'b', output: 'derived.a.same', inputs: [] },
  ]);
  t.same(dup.errors.map((e) => [e.code, e.steps]), [['DUPLICATE_OUTPUT', ['a', 'b']], ['MISSING_INPUT', ['a']]]);
});

t.test('a dataset id has a dot, a step reference has none', async (t) => {
  t.equal(isDatasetRef('raw.acme.orders'), true);
  t.equal(isDatasetRef('clean'), false);
});

t.test('error messages name the steps and what they read or write', async (t) => {
  const { errors } = analyzeGraph([
    { id: 'a', output: 'derived.a.x', inputs: ['nowhere'] },
    { id: 'a', output: null, inputs: [] },
    { id: 'b', output: 'derived.a.x', inputs: [] },
    { id: 'p', output: 'derived.a.p', inputs: ['q'] },
    { id: 'q', output: 'derived.a.q', inputs: ['p'] },
  ]);
  t.same(errors, [
    { code: 'DUPLICATE_STEP', message: 'two steps have the id a', steps: ['a'] },
    { code: 'DUPLICATE_OUTPUT', message: 'steps a, b all write derived.a.x', steps: ['a', 'b'] },
    { code: 'MISSING_INPUT', message: 'step a reads nowhere, which is no step of the pipeline nor a dataset id', steps: ['a'] },
    { code: 'DAG_CYCLE', message: 'steps p -> q form a cycle', steps: ['p', 'q'] },
  ]);
});

t.test('a step reading another step\'s output dataset depends on it; other datasets are external, with their readers', async (t) => {
  const graph = analyzeGraph([
    { id: 'clean', output: 'derived.acme.clean', inputs: ['raw.acme.orders', 'raw.acme.orders'] },
    { id: 'report', output: 'derived.acme.report', inputs: ['derived.acme.clean', 'clean', 'raw.acme.orders'] },
    { id: 'unresolved', output: null, inputs: ['raw.acme.customers'] },
  ]);
  t.same(graph.errors, []);
  t.same(graph.dependsOn.get('report'), ['clean'], 'the dataset and the step reference are one dependency');
  t.same(graph.dependsOn.get('clean'), []);
  t.same([...graph.external], [['raw.acme.orders', ['clean', 'clean', 'report']], ['raw.acme.customers', ['unresolved']]]);
  t.same(graph.order, ['clean', 'report', 'unresolved']);
});

t.test('steps downstream of a cycle never become ready; an empty pipeline has an empty order', async (t) => {
  const graph = analyzeGraph([
    { id: 'x', output: 'derived.a.x', inputs: ['y'] },
    { id: 'y', output: 'derived.a.y', inputs: ['x'] },
    { id: 'after', output: 'derived.a.after', inputs: ['x'] },
    { id: 'free', output: 'derived.a.free', inputs: [] },
  ]);
  t.same(graph.order, ['free']);
  t.same(graph.errors.map((e) => e.code), ['DAG_CYCLE'], 'only the steps of the cycle are the cycle');
  t.same(analyzeGraph([]), { errors: [], order: [], dependsOn: new Map(), external: new Map() });
});

t.test('topologicalOrder: declaration order among ready steps, duplicate ids once, unknown dependencies never ready', async (t) => {
  const dependsOn = new Map([['b', ['a']], ['c', []], ['a', []], ['d', ['ghost']]]);
  t.same(topologicalOrder(['b', 'c', 'a', 'c', 'd'], dependsOn), ['c', 'a', 'b']);
  t.same(topologicalOrder(['z'], new Map()), ['z'], 'a step with no entry depends on nothing');
});
