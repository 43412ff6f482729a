// Server-side validation of a submission against its exact form version, by
// Form.io's engine: required, pattern, select values, min/max and
// conditional fields each give a 422 with [{path, message}] and keep
// nothing; a hidden conditional field is not required and not kept; a
// tenant's pattern runs on the linear-time engine (a catastrophic one for
// V8's backtracking answers at once); forms carrying code are refused when
// saved. The same engine is offered to other plugins as validateAgainstForm.
import t from 'tap';
import type { FormsApi } from '../api.ts';
import { api, assetForm, formsPlatform, rows } from './helpers.ts';

t.test('Form.io validation: required, pattern, select, min/max, conditional', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['required', { serial: 3 }, 'title', /required/i],
    ['pattern', { title: 'Bench', code: 'ab-12' }, 'code', /pattern/i],
    ['select value the form does not offer', { title: 'Bench', state: 'exploded' }, 'state', /.+/],
    ['min', { title: 'Bench', serial: 0 }, 'serial', /greater than or equal to 1|cannot be less than 1/i],
    ['max', { title: 'Bench', serial: 1_000_000 }, 'serial', /less than or equal to 999999|cannot be greater than 999999/i],
    ['conditional field shown and empty', { title: 'Bench', hasLamp: true }, 'lampType', /required/i],
    ['a key the form does not have', { title: 'Bench', colour: 'red' }, 'colour', /not a field/],
  ];
  for (const [what, payload, path, message] of cases) {
    const sent = await a.submit(auth, useCase.id, payload);
    t.equal(sent.status, 422, `${what}: ${JSON.stringify(sent.body)}`);
    t.equal(sent.body.code, 'FORM_VALIDATION_FAILED', what);
    const error = sent.body.errors?.find((e: { path: string }) => e.path === path);
    t.ok(error, `${what}: an error at ${path} (${JSON.stringify(sent.body.errors)})`);
    t.match(error?.message, message, what);
  }
  t.equal((await rows(tp, 'forms_submissions', 'acme')).length, 0, 'nothing is stored for a refused payload');
  t.equal((await rows(tp, 'assets', 'acme')).length, 0);

  // Every problem at once, each with its path.
  const many = await a.submit(auth, useCase.id, { code: 'x', state: 'nope' });
  t.equal(many.status, 422);
  t.same(new Set(many.body.errors.map((e: { path: string }) => e.path)), new Set(['title', 'code', 'state']));

  // A conditional field that is hidden is neither required nor kept.
  const hidden = await a.submit(auth, useCase.id, { title: 'Bench 1', hasLamp: false, lampType: 'sodium' });
  t.equal(hidden.status, 201, JSON.stringify(hidden.body));
  const [stored] = await rows(tp, 'forms_submissions', 'acme');
  t.notOk('lampType' in stored.payload_json && stored.payload_json.lampType, 'the hidden field\'s value is cleared');
  t.equal(stored.payload_json.title, 'Bench 1');
  const shown = await a.submit(auth, useCase.id, { title: 'Lamp 1', hasLamp: true, lampType: 'LED', code: 'LP-001', state: 'broken', serial: 5 });
  t.equal(shown.status, 201, JSON.stringify(shown.body));
});

t.test('tenant patterns run on the linear-time engine; forms carrying code are refused when saved', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  // (a+)+b against "aaaa…!" takes V8's backtracking engine 2^n steps; RE2 is linear.
  const form = { components: [{ type: 'textfield', key: 'name', label: 'Name', input: true, validate: { pattern: '(a+)+b' } }] };
  const definition = await a.definition(auth, form);
  // The form has no title (the standard mapping's source): name is bound as the use case is created.
  const useCase = await a.useCase(auth, definition.id, {
    target_config: { category: 'bench' }, bindings: [{ source_field_path: 'name', target_field_path: 'name', transform: 'NONE' }],
  });
  const evil = await a.submit(auth, useCase.id, { name: `${'a'.repeat(5000)}!` });
  t.equal(evil.status, 422, 'answered (it would never return on a backtracking engine)');
  t.match(evil.body.errors, [{ path: 'name' }]);
  t.equal((await a.submit(auth, useCase.id, { name: 'aaab' })).status, 201, 'a value matching the pattern passes');

  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['a backreference RE2 cannot run', { validate: { pattern: '(a)\\1' } }, /name: validate\.pattern/],
    ['a lookahead', { validate: { pattern: '(?=a)a' } }, /name: validate\.pattern/],
    ['JavaScript validation', { validate: { custom: 'valid = input === "x"' } }, /name: validate\.custom \(JavaScript\)/],
    ['JSONLogic validation', { validate: { json: { '==': [1, 1] } } }, /name: validate\.json/],
    ['a custom conditional', { customConditional: 'show = true' }, /name: customConditional/],
    ['a calculated value', { calculateValue: 'value = 1' }, /name: calculateValue/],
    ['a custom default', { customDefaultValue: 'value = 1' }, /name: customDefaultValue/],
    ['logic', { logic: [{ name: 'x', trigger: { type: 'javascript', javascript: 'result = true' } }] }, /name: logic/],
  ];
  for (const [what, extra, problem] of refused) {
    const schema = { components: [{ type: 'textfield', key: 'name', label: 'Name', input: true, ...extra }] };
    const created = await a.call('POST', '/api/admin/forms/definitions', auth, { name: `refused ${what}`, schema });
    t.equal(created.status, 400, what);
    t.equal(created.body.code, 'FORM_SCHEMA_INVALID', what);
    t.match(created.body.problems, [problem], what);
  }
  const url = await a.call('POST', '/api/admin/forms/definitions', auth, {
    name: 'url source', schema: { components: [{ type: 'select', key: 'pick', label: 'Pick', input: true, dataSrc: 'url', data: { url: 'http://169.254.169.254/' } }] },
  });
  t.equal(url.status, 400, 'a select fetching from a URL is refused');
  t.match(url.body.problems, [/pick: dataSrc "url"/]);
});

t.test('validateAgainstForm: the same engine for other plugins (occurrence types)', async (t) => {
  const { tp } = await formsPlatform(t);
  const forms = (tp.platform.server.plugins as unknown as { forms: { api: FormsApi } }).forms.api;
  const ok = forms.validateAgainstForm(assetForm(), { title: 'Bench', state: 'ok' });
  t.same(ok.errors, []);
  t.equal(ok.data.title, 'Bench');
  const bad = forms.validateAgainstForm(assetForm(), { state: 'exploded', code: 'nope' });
  t.same(new Set(bad.errors.map((error) => error.path)), new Set(['title', 'state', 'code']));
  let refused: unknown;
  try {
    forms.validateAgainstForm({ components: [{ type: 'textfield', key: 'a', validate: { custom: 'valid = true' } }] }, {});
  } catch (err) {
    refused = err;
  }
  t.match(refused, { output: { statusCode: 400, payload: { code: 'FORM_SCHEMA_INVALID' } } }, 'a schema with code is refused, not run');
  t.same(forms.formSchemaProblems({ components: [{ type: 'textfield', key: 'a' }, { type: 'number', key: 'a' }] }), ['duplicate keys: a']);
});
