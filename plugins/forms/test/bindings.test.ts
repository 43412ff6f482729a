// Field bindings and the target endpoints: bindings are checked when saved
// (400 naming each binding at fault; a use case leaving a required target
// field unbound is refused on create, update and bindings edit); every transform with good and bad
// input; two GEO_PARSE bindings make one point in longitude, latitude order;
// standard mappings fill fields without bindings; targets list their config
// schema, fields per config, standard mappings and suggestions; a use case's
// target_config is checked against the target's config schema.
import t from 'tap';
import { api, formsPlatform, MODEL, rows } from './helpers.ts';

const binding = (source: string, target: string, transform = 'NONE', params: Record<string, unknown> = {}) =>
  ({ source_field_path: source, target_field_path: target, transform, transform_params: params });

t.test('bindings are checked when saved, each fault named', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);

  const cases: [string, unknown[], RegExp][] = [
    ['a source the form lacks', [binding('nope', 'condition')], /binding 0 \(nope → condition\): nope is not a field of the form version/],
    ['a target the model lacks', [binding('state', 'colour')], /binding 0 \(state → colour\): colour is not a field of the target/],
    ['an auto-filled target', [binding('title', 'reported_by')], /reported_by is filled by the target/],
    ['LOOKUP without a table', [binding('state', 'condition', 'LOOKUP')], /binding 0 .*LOOKUP needs transform_params\.table/],
    ['GEO_PARSE without a component', [binding('coords', 'location', 'GEO_PARSE', { component: 'altitude' })], /GEO_PARSE needs transform_params\.component/],
    ['TO_INT with params', [binding('serialText', 'serial_number', 'TO_INT', { base: 16 })], /TO_INT takes no transform_params/],
    ['a field bound twice', [binding('state', 'condition'), binding('code', 'condition')], /bindings 0, 1: condition is bound more than once/],
    ['half a point', [binding('coords', 'location', 'GEO_PARSE', { component: 'latitude' })], /location takes a point/],
    ['lamp_type without the streetlight config', [binding('lampType', 'lamp_type')], /lamp_type is not a field of the target/],
  ];
  for (const [what, bindings, problem] of cases) {
    const saved = await a.bindings(auth, useCase.id, bindings);
    t.equal(saved.status, 400, what);
    t.equal(saved.body.code, 'BINDINGS_INVALID', what);
    t.match(saved.body.message, problem, what);
  }
  const unknownTransform = await a.bindings(auth, useCase.id, [binding('state', 'condition', 'UPPERCASE')]);
  t.equal(unknownTransform.status, 400, 'an unknown transform is refused by the schema');
  t.same((await a.call('GET', `/api/admin/forms/use-cases/${useCase.id}/bindings`, auth)).body.bindings, [], 'nothing was saved');

  // A required target field with neither a binding nor a standard mapping: refused when saved, never at the first submission.
  const bare = await a.definition(auth, { components: [{ type: 'textfield', key: 'label', label: 'Label', input: true }] });
  const useCasesBefore = (await rows(tp, 'forms_use_cases', 'acme')).length;
  const bareInput = { name: 'bare', form_definition_id: bare.id, target_model: MODEL, target_config: { category: 'bench' }, access: 'public' };
  const unbound = await a.call('POST', '/api/admin/forms/use-cases', auth, bareInput);
  t.equal(unbound.status, 400, 'a use case whose required field nothing feeds is not created');
  t.equal(unbound.body.code, 'REQUIRED_FIELD_UNBOUND');
  t.same(unbound.body.fields, ['name']);
  t.match(unbound.body.message, /Required target fields have no binding or standard mapping: name/);
  const withBadBinding = await a.call('POST', '/api/admin/forms/use-cases', auth, { ...bareInput, bindings: [binding('nope', 'condition')] });
  t.equal(withBadBinding.body.code, 'BINDINGS_INVALID', 'a binding at fault is named, the unbound field with it');
  t.match(withBadBinding.body.problems, [/nope is not a field of the form version/, /required target fields without a binding or standard mapping: name/]);
  t.equal((await rows(tp, 'forms_use_cases', 'acme')).length, useCasesBefore, 'nothing saved');
  const bareCase = await a.call('POST', '/api/admin/forms/use-cases', auth, { ...bareInput, bindings: [binding('label', 'name')] });
  t.equal(bareCase.status, 201, 'created with its bindings');
  t.same((await a.call('GET', `/api/admin/forms/use-cases/${bareCase.body.id}/bindings`, auth)).body.bindings,
    [binding('label', 'name')], 'saved with it');
  const missing = await a.bindings(auth, bareCase.body.id, []);
  t.equal(missing.status, 400, 'the bindings edit refuses it too');
  t.equal(missing.body.code, 'REQUIRED_FIELD_UNBOUND');
  t.same(missing.body.fields, ['name']);
  t.equal((await a.call('GET', `/api/admin/forms/use-cases/${bareCase.body.id}/bindings`, auth)).body.bindings.length, 1, 'the saved bindings stay');

  // A change that leaves a required field unbound: the standard mapping's source is not in the new form.
  const titled = await a.useCase(auth, definition.id);
  const moved = await a.call('PUT', `/api/admin/forms/use-cases/${titled.id}`, auth, { form_definition_id: bare.id });
  t.equal(moved.status, 400);
  t.equal(moved.body.code, 'REQUIRED_FIELD_UNBOUND');
  t.same(moved.body.fields, ['name']);
  t.equal((await a.call('GET', `/api/admin/forms/use-cases/${titled.id}`, auth)).body.form_definition_id, definition.id, 'nothing changed');
  const movedWithBindings = await a.call('PUT', `/api/admin/forms/use-cases/${titled.id}`, auth, { form_definition_id: bare.id, bindings: [binding('label', 'name')] });
  t.equal(movedWithBindings.status, 200, 'bindings given with the change are checked against it and saved');
  t.equal(movedWithBindings.body.form_definition_id, bare.id);
  t.equal((await a.call('GET', `/api/admin/forms/use-cases/${titled.id}/bindings`, auth)).body.bindings.length, 1);

  // A use case change the saved bindings no longer fit is refused.
  const streetlight = await a.useCase(auth, definition.id, { target_config: { category: 'streetlight' } });
  t.equal((await a.bindings(auth, streetlight.id, [binding('lampType', 'lamp_type')])).status, 200, 'a dynamic field of the config');
  const reconfigured = await a.call('PUT', `/api/admin/forms/use-cases/${streetlight.id}`, auth, { target_config: { category: 'bench' } });
  t.equal(reconfigured.status, 400);
  t.equal(reconfigured.body.code, 'BINDINGS_INVALID');

  // target_config against the target's config schema.
  for (const [config, field] of [[{ category: 'castle' }, 'category'], [{}, 'category'], [{ category: 'bench', colour: 'red' }, 'colour'], [{ category: 'bench', needs_photo: 'yes' }, 'needs_photo']] as const) {
    const created = await a.call('POST', '/api/admin/forms/use-cases', auth, { name: 'x', form_definition_id: definition.id, target_model: MODEL, target_config: config, access: 'public' });
    t.equal(created.status, 400, JSON.stringify(config));
    t.equal(created.body.code, 'TARGET_CONFIG_INVALID');
    t.ok(created.body.fields.includes(`target_config.${field}`), `names target_config.${field}`);
  }
  const unknownTarget = await a.call('POST', '/api/admin/forms/use-cases', auth, { name: 'x', form_definition_id: definition.id, target_model: 'shop.Order', access: 'public' });
  t.equal(unknownTarget.status, 400);
  t.equal(unknownTarget.body.code, 'TARGET_NOT_FOUND');
  const created = await a.call('POST', '/api/admin/forms/use-cases', auth, { name: 'x', form_definition_id: definition.id, target_model: MODEL, target_config: { category: 'bin' }, access: 'public' });
  t.same(created.body.target_config, { category: 'bin', needs_photo: false }, 'defaults fill the config');
});

t.test('each transform with good and bad input; GEO_PARSE pairs make a [longitude, latitude] point', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);
  const saved = await a.bindings(auth, useCase.id, [
    binding('code', 'name'),
    binding('serialText', 'serial_number', 'TO_INT'),
    binding('state', 'condition', 'LOOKUP', { table: { ok: 'good', broken: 'needs repair' } }),
    binding('coords', 'location', 'GEO_PARSE', { component: 'longitude' }),
    binding('coords', 'location', 'GEO_PARSE', { component: 'latitude' }),
  ]);
  t.equal(saved.status, 200, JSON.stringify(saved.body));
  t.equal(saved.body.bindings.length, 5);

  const good = await a.submit(auth, useCase.id, { title: 'ignored: name is bound', code: 'BN-001', serialText: ' 0042 ', state: 'broken', coords: '41.1496, -8.6109' });
  t.equal(good.status, 201, JSON.stringify(good.body));
  t.match(good.body.hydration.object, {
    name: 'BN-001', serial_number: 42, condition: 'needs repair', location: { type: 'Point', coordinates: [-8.6109, 41.1496] },
  }, 'NONE as is (over the standard mapping), TO_INT, LOOKUP, and one point from two GEO_PARSE bindings, longitude first');
  const [asset] = await rows(tp, 'assets', 'acme');
  t.same(asset.location, { type: 'Point', coordinates: [-8.6109, 41.1496] });

  const bad: [string, Record<string, unknown>, string, RegExp][] = [
    ['TO_INT of text', { serialText: '12a' }, 'serialText', /serial_number \(TO_INT\): "12a" is not an integer/],
    ['TO_INT of a fraction', { serialText: '1.5' }, 'serialText', /not an integer/],
    ['LOOKUP of a value not in the table', { state: 'missing' }, 'state', /condition \(LOOKUP\): "missing" is not in the lookup table/],
    ['GEO_PARSE of text without coordinates', { coords: 'near the church' }, 'coords', /location \(GEO_PARSE\): .* holds no (longitude|latitude)/],
    ['GEO_PARSE out of range', { coords: '95, 10' }, 'coords', /latitude 95 is outside -90\.\.90/],
  ];
  for (const [what, values, path, message] of bad) {
    const sent = await a.submit(auth, useCase.id, { title: 'A bench', code: 'BN-002', ...values });
    t.equal(sent.status, 422, what);
    t.equal(sent.body.code, 'TRANSFORM_FAILED', what);
    t.match(sent.body.errors, [{ path, message }], what);
  }
  t.equal((await rows(tp, 'forms_submissions', 'acme')).length, 1, 'refused submissions keep nothing');
  t.equal((await rows(tp, 'assets', 'acme')).length, 1);

  // Empty sources give no value: optional fields stay empty, a required one is the target's 422.
  const sparse = await a.submit(auth, useCase.id, { title: 'A bench', code: 'BN-003' });
  t.equal(sparse.status, 201);
  t.match(sparse.body.hydration.object, { name: 'BN-003', serial_number: null, condition: null, location: null });
  const noName = await a.submit(auth, useCase.id, { title: 'has a title, but name is bound to code' });
  t.equal(noName.status, 422);
  t.equal(noName.body.code, 'HYDRATION_FAILED');
  t.match(noName.body.errors, [{ path: 'name', message: /required by assets\.Asset \(from code, which is empty\)/ }]);
});

t.test('standard mappings without bindings; the target endpoints', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id);
  const sent = await a.submit(auth, useCase.id, { title: 'Bench by the river', location: { latitude: '38.7223', longitude: -9.1393 } });
  t.equal(sent.status, 201, JSON.stringify(sent.body));
  t.match(sent.body.hydration.object, { name: 'Bench by the river', location: { type: 'Point', coordinates: [-9.1393, 38.7223] } },
    'title → name and location.latitude/longitude → location with no binding saved');

  const targets = await a.call('GET', '/api/admin/forms/targets', auth);
  t.equal(targets.status, 200);
  t.match(targets.body.items, [{ model: MODEL, label: 'Asset', description: /street asset/, config_schema: [{ key: 'category', type: 'choice', required: true }, { key: 'needs_photo', type: 'boolean' }] }]);
  const fields = await a.call('GET', `/api/admin/forms/targets/${MODEL}/fields?config=${encodeURIComponent(JSON.stringify({ category: 'streetlight' }))}`, auth);
  t.equal(fields.status, 200);
  t.same(fields.body.items.map((field: { key: string; category: string }) => `${field.key}:${field.category}`),
    ['name:required', 'serial_number:optional', 'condition:optional', 'location:optional', 'photos:optional', 'reported_by:auto_filled', 'lamp_type:dynamic']);
  const [category, needsPhoto] = targets.body.items[0].config_schema;
  t.ok('default' in category && category.default === null, 'a config item without a default carries default: null');
  t.equal(needsPhoto.default, false, 'and one with a default carries it');
  t.equal(fields.body.items[0].help_text, 'Up to 100 characters');
  t.ok(fields.body.items.slice(1).every((field: Record<string, unknown>) => 'help_text' in field && field.help_text === null),
    'a field without help text carries help_text: null');
  t.equal((await a.call('GET', `/api/admin/forms/targets/${MODEL}/fields?config=${encodeURIComponent('{"category":"castle"}')}`, auth)).status, 400);
  t.equal((await a.call('GET', `/api/admin/forms/targets/${MODEL}/fields?config=not-json`, auth)).status, 400);
  t.equal((await a.call('GET', '/api/admin/forms/targets/shop.Order/fields', auth)).status, 404);
  const standard = await a.call('GET', `/api/admin/forms/targets/${MODEL}/standard-mappings`, auth);
  t.same(standard.body.items, [
    { source_path: 'title', target_field: 'name' },
    { source_path: 'photos', target_field: 'photos' },
    { source_path: 'location.latitude', target_field: 'location', component: 'latitude' },
    { source_path: 'location.longitude', target_field: 'location', component: 'longitude' },
  ]);
  const suggestions = await a.call('POST', `/api/admin/forms/targets/${MODEL}/suggestions`, auth, { config: { category: 'streetlight' }, form_definition_id: definition.id });
  t.equal(suggestions.status, 200, JSON.stringify(suggestions.body));
  t.same(suggestions.body.items, [
    { source_field_path: 'lampType', target_field_path: 'lamp_type', transform: 'NONE', transform_params: {} },
  ], 'form fields matched by key or label (lampType ~ Lamp type; serial is not serial_number); standard-mapped fields left out');
  t.equal((await a.bindings(auth, (await a.useCase(auth, definition.id, { target_config: { category: 'streetlight' } })).id, suggestions.body.items)).status, 200,
    'suggestions can be saved as they are');
});
