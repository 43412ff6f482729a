// Binding the parameters of tenant SQL (analysis/parameters.ts): the Nth
// declared entry is $N, an entry is a JSON Schema declaration or a bare value,
// values given by name replace defaults and are validated.
import t from 'tap';
import { bindParameters } from '../analysis/parameters.ts';

t.test('declarations and bare values bind in declaration order, with their casts', async (t) => {
  const bound = bindParameters({ min: { type: 'number', default: 5 }, region: 'north', limit: 10, tags: ['a'], on: true, meta: { a: 1 } }, { region: 'south' }, 6);
  t.same(bound, {
    values: [5, 'south', 10, '["a"]', true, '{"a":1}'],
    casts: ['numeric', 'text', 'bigint', 'jsonb', 'boolean', 'jsonb'],
    errors: [],
  });
  t.same(bindParameters(), { values: [], casts: [], errors: [] });
  t.same(bindParameters({ ratio: 0.5, nothing: null }), { values: [0.5, null], casts: ['numeric', 'text'], errors: [] },
    'a fractional bare value is a number; a bare null is a string that is null');
});

t.test('each problem is an error with its code and message', async (t) => {
  t.same(bindParameters({}, { ghost: 1 }).errors, [{ code: 'SQL_PARAMETER_UNKNOWN', message: 'Parameter "ghost" is not declared' }]);
  t.same(bindParameters({ 'bad-name': 1 }).errors, [{ code: 'SQL_PARAMETER_INVALID', message: 'Parameter name "bad-name" must match ^[A-Za-z_][A-Za-z0-9_]{0,62}$' }]);
  t.same(bindParameters({ when: { type: 'date' } }).errors,
    [{ code: 'SQL_PARAMETER_INVALID', message: 'Parameter "when" has type "date"; use string, integer, number, boolean, object or array' }]);
  t.same(bindParameters({ min: { type: 'number' } }).errors, [{ code: 'SQL_PARAMETER_MISSING', message: 'Parameter "min" has no value and no default' }]);
  t.same(bindParameters({ min: { type: 'number', minimum: 1 } }, { min: 0 }).errors, [{ code: 'SQL_PARAMETER_INVALID', message: 'Parameter "min": min must be >= 1' }]);
  t.same(bindParameters({ n: 1 }, { n: 1.5 }).errors, [{ code: 'SQL_PARAMETER_INVALID', message: 'Parameter "n": n must be integer' }], 'a bare integer declares an integer');
  t.same(bindParameters({ n: { type: 'integer', minimum: 'x' } }, { n: 1 }).errors, [{ code: 'SQL_PARAMETER_INVALID', message: 'Parameter "n" has an invalid JSON Schema' }]);
  t.same(bindParameters({ a: 1 }, {}, 3).errors,
    [{ code: 'SQL_PARAMETER_UNDECLARED', message: 'The SQL uses $3 but 1 parameter(s) are declared ($N is the Nth declared parameter)' }]);
});

t.test('an explicit null is a value (no validation); a long bad name is cut in the message', async (t) => {
  t.same(bindParameters({ min: { type: 'number', minimum: 1 } }, { min: null }), { values: [null], casts: ['numeric'], errors: [] });
  const long = `-${'x'.repeat(200)}`;
  t.equal(bindParameters({ [long]: 1 }).errors[0]!.message, `Parameter name "${long.slice(0, 80)}" must match ^[A-Za-z_][A-Za-z0-9_]{0,62}$`);
});
