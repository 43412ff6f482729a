// A submission end to end: validated against its pinned form version,
// stored immutably with its files and hydrated by the example target in one
// transaction (201 with the object), events emitted, read back by admins
// (REST and GraphQL); a definition edited later leaves old submissions on
// their version.
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { api, assetForm, eventsOf, formsPlatform, MODEL, PNG, rows } from './helpers.ts';

t.test('a submission is stored, hydrated and reported; old submissions keep their version', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id, { target_config: { category: 'streetlight' } });

  const photo = await a.upload(auth, PNG, 'lamp.png');
  t.equal(photo.status, 201, JSON.stringify(photo.body));
  t.match(photo.body, { file_token: /^ft_[0-9a-f]{64}$/, name: 'lamp.png', content_type: 'image/png', size: PNG.length });

  const sent = await a.submit(auth, useCase.id, {
    title: 'Lamp post 12', serial: 4411, state: 'ok', code: 'LP-012', hasLamp: true, lampType: 'LED',
    location: { latitude: 41.15, longitude: -8.61 },
    photos: [{ file_token: photo.body.file_token, name: 'whatever.png', content_type: 'image/png', size: 1 }],
  }, { municipality: 'Porto' });
  t.equal(sent.status, 201, JSON.stringify(sent.body));
  t.equal(sent.body.form_version, 1);
  t.equal(sent.body.municipality, 'Porto');
  t.equal(sent.body.hydration.target_model, MODEL);
  t.match(sent.body.hydration.object, {
    id: sent.body.hydration.object_id, name: 'Lamp post 12', category: 'streetlight', reported_by: 'acme-admin', submission_id: sent.body.id,
    location: { type: 'Point', coordinates: [-8.61, 41.15] },
  }, 'standard mappings fill name and location without bindings');
  t.same(sent.body.files.map((file: { name: string; path: string }) => [file.path, file.name]), [['photos[0]', 'lamp.png']]);

  // What is stored: the submission (its file reference now names the stored file), the asset, the photo.
  const [stored] = await rows(tp, 'forms_submissions', 'acme');
  t.equal(stored.form_version, 1);
  t.same(stored.payload_json.photos, [{ file_id: sent.body.files[0].id, name: 'lamp.png', content_type: 'image/png', size: PNG.length }],
    'the token is spent: the server\'s record of the file replaces it');
  t.equal((await rows(tp, 'assets', 'acme')).length, 1);
  t.equal((await rows(tp, 'asset_photos', 'acme'))[0].file_id, sent.body.files[0].id);
  const [file] = await rows(tp, 'forms_files', 'acme');
  t.equal(file.submission_id, sent.body.id);

  const [submitted] = await eventsOf(tp, acme.token, 'form.submitted');
  t.same(submitted.data, { submission_id: sent.body.id, use_case_id: useCase.id, form_definition_id: definition.id, form_version: 1, municipality: 'Porto' });
  const [hydrated] = await eventsOf(tp, acme.token, 'form.hydrated');
  t.same(hydrated.data, { submission_id: sent.body.id, use_case_id: useCase.id, target_model: MODEL, object_id: sent.body.hydration.object_id, attempt: 1 });

  // The definition changes: version 2 drops `code` and makes `serial` required.
  const edited = assetForm2();
  const put = await a.call('PUT', `/api/admin/forms/definitions/${definition.id}`, auth, { schema: edited });
  t.equal(put.status, 200);
  t.equal(put.body.latest_version, 2);
  const second = await a.submit(auth, useCase.id, { title: 'Bench 3', serial: 7 });
  t.equal(second.status, 201, JSON.stringify(second.body));
  t.equal(second.body.form_version, 2, 'a use case on "latest" takes the new version');
  const stale = await a.submit(auth, useCase.id, { title: 'Bench 4', code: 'AB-123', serial: 8 });
  t.equal(stale.status, 422, 'a field of version 1 only is refused under version 2');
  t.match(stale.body.errors, [{ path: 'code', message: /not a field/ }]);

  const old = await a.call('GET', `/api/admin/forms/submissions/${sent.body.id}`, auth);
  t.equal(old.status, 200);
  t.equal(old.body.form_version, 1, 'the old submission keeps its version');
  t.equal(old.body.payload_json.code, 'LP-012');
  t.match(old.body.hydration, { status: 'hydrated', attempts: 1, target_model: MODEL, object_id: sent.body.hydration.object_id });
  t.equal(old.body.files.length, 1);
  const v1 = await a.call('GET', `/api/admin/forms/definitions/${definition.id}/versions/1`, auth);
  t.ok(v1.body.schema.components.some((component: { key: string }) => component.key === 'code'), 'and its version stays readable');

  // Admin reads: filters, pagination, GraphQL.
  const list = await a.call('GET', `/api/admin/forms/submissions?use_case_id=${useCase.id}&limit=1`, auth);
  t.equal(list.body.total, 2);
  t.same(list.body.items.map((item: { id: string }) => item.id), [second.body.id], 'newest first');
  const hydratedOnly = await a.call('GET', '/api/admin/forms/submissions?hydration_status=failed', auth);
  t.equal(hydratedOnly.body.total, 0);
  const future = await a.call('GET', `/api/admin/forms/submissions?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`, auth);
  t.equal(future.body.total, 0);
  const gql = await a.call('POST', '/graphql', auth, {
    query: `{ formSubmissions(first: 1) { edges { node { id formVersion hydrationStatus hydratedModel hydratedObjectId } } pageInfo { hasNextPage endCursor } }
      formSubmission(id: "${sent.body.id}") { id formVersion hydratedModel hydratedObjectId payload } }`,
  });
  t.notOk(gql.body.errors, JSON.stringify(gql.body.errors));
  t.same(gql.body.data.formSubmissions.edges[0].node, { id: second.body.id, formVersion: 2, hydrationStatus: 'HYDRATED', hydratedModel: MODEL, hydratedObjectId: second.body.hydration.object_id });
  t.equal(gql.body.data.formSubmissions.pageInfo.hasNextPage, true);
  const next = await a.call('POST', '/graphql', auth, {
    query: `{ formSubmissions(first: 5, after: "${gql.body.data.formSubmissions.pageInfo.endCursor}") { edges { node { id } } } }`,
  });
  t.same(next.body.data.formSubmissions.edges.map((edge: { node: { id: string } }) => edge.node.id), [sent.body.id]);
  t.match(gql.body.data.formSubmission, { id: sent.body.id, formVersion: 1, hydratedModel: MODEL, payload: { code: 'LP-012' } });
  const back = await a.call('POST', '/graphql', auth, {
    query: `{ formSubmissions(last: 1, filter: {useCaseId: "${useCase.id}", hydrationStatus: HYDRATED, createdAfter: "2000-01-01T00:00:00Z"}) {
      edges { node { id useCaseId useCase { id name targetModel access active archived } formDefinitionId formDefinition { id name latestVersion archived } } }
      pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }`,
  });
  t.notOk(back.body.errors, JSON.stringify(back.body.errors));
  const backPage = back.body.data.formSubmissions;
  t.same(backPage.edges.map((edge: { node: { id: string } }) => edge.node.id), [sent.body.id], 'last: the oldest one, the end of the list');
  t.match(backPage, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 2 });
  t.match(backPage.edges[0].node, {
    useCaseId: useCase.id, useCase: { id: useCase.id, targetModel: MODEL, active: true, archived: false },
    formDefinitionId: definition.id, formDefinition: { id: definition.id, latestVersion: 2, archived: false },
  }, 'its use case and definition as objects');
  const earlier = await a.call('POST', '/graphql', auth, {
    query: `{ formSubmissions(last: 5, before: "${backPage.pageInfo.startCursor}") { edges { node { id } } pageInfo { hasPreviousPage } } }`,
  });
  t.same(earlier.body.data.formSubmissions.edges.map((edge: { node: { id: string } }) => edge.node.id), [second.body.id]);
  const none = await a.call('POST', '/graphql', auth, { query: `{ formSubmissions(filter: {createdBefore: "2000-01-01T00:00:00Z"}) { totalCount } }` });
  t.equal(none.body.data.formSubmissions.totalCount, 0, 'createdBefore bounds them');
  const badUseCase = await a.call('POST', '/graphql', auth, { query: '{ formSubmissions(filter: {useCaseId: "nope"}) { totalCount } }' });
  t.match(badUseCase.body.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }]);

  // The CLI lists them too, without payloads.
  const cli = await runCli(['forms', 'submissions', '--tenant', 'acme', '--json'], { platform: tp });
  t.equal(cli.code, 0, cli.stderr);
  const listed = JSON.parse(cli.stdout);
  t.same(listed.map((item: { id: string }) => item.id), [second.body.id, sent.body.id]);
  t.notOk('payload_json' in listed[0], 'the CLI does not print payloads');

  // Submissions are never updated or deleted through the API.
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    t.equal((await a.call(method, `/api/admin/forms/submissions/${sent.body.id}`, auth, method === 'DELETE' ? undefined : {})).status, 404, method);
  }
  await t.rejects(tp.platform.core.pool.query(`UPDATE forms_submissions SET payload_json = '{}' WHERE id = $1`, [sent.body.id]), /immutable/,
    'not even in SQL: only a redaction may change a submission');
});

function assetForm2() {
  const form = assetForm();
  form.components = form.components.filter((component) => component.key !== 'code');
  const serial = form.components.find((component) => component.key === 'serial')!;
  serial.validate = { ...serial.validate, required: true };
  return form;
}
