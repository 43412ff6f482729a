// Shared by the AI tests: a platform with two tenants and a people dataset in
// each, optionally with a scripted OpenAI-compatible model on loopback.
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { ScriptedLlm, textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { userToken } from '../../pipelines-sources/test/helpers.ts';

type Tap = Parameters<typeof startTestPlatform>[0];

const peopleColumns = [
  { name: 'id', type: 'bigint' as const },
  { name: 'email_address', type: 'text' as const },
  { name: 'full_name', type: 'text' as const },
  { name: 'signup', type: 'text' as const },
  { name: 'spent', type: 'text' as const },
];

export async function peopleOf(lake: LakehouseApi, tenant: string) {
  const datasetId = `raw.${tenant}.people`;
  await lake.ensureDataset(tenant, { datasetId, columns: peopleColumns, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test', name: 'people' } });
  await lake.write(tenant, datasetId, {
    mode: 'overwrite',
    source: {
      kind: 'records', batches: [[
        { id: 1, email_address: 'ann@example.com', full_name: 'Ann', signup: '2024-01-05', spent: '10.5' },
        { id: 2, email_address: 'bob@example.org', full_name: 'Bob', signup: '2024-02-11', spent: '3' },
        { id: 3, email_address: 'cy@example.net', full_name: null, signup: '2024-03-20', spent: '7.25' },
      ]],
    },
  });
  return datasetId;
}

/** A model reply whose content is `value` (JSON-encoded unless a string), streamed in pieces. */
export const reply = (value: unknown) => ({ chunks: textChunks(typeof value === 'string' ? value : JSON.stringify(value), 40) });

export async function aiPlatform(t: Tap, options: { model?: boolean; allowPrivate?: boolean } = {}) {
  const llm = options.model ? await new ScriptedLlm().start() : undefined;
  if (llm) t.teardown(() => llm.stop());
  const env: Record<string, string> = {
    PIPELINES_AI_ALLOW_PRIVATE_NETWORKS: String(options.allowPrivate ?? true), LLM_BASE_URL: llm ? llm.baseUrl : '', LLM_MODEL: 'scripted-1', LLM_API_KEY: 'sk-scripted-key',
  };
  const tp: TestPlatform = await startTestPlatform(t, { env, listen: true, captureLogs: true });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const lake: LakehouseApi = tp.platform.server.plugins.lakehouse.api;
  const people = await peopleOf(lake, 'acme');
  await peopleOf(lake, 'beta');
  const viewer = await userToken(tp, 'acme-viewer', ['acme']);
  const as = (token: string, tenant: string) => ({
    post: (path: string, payload?: unknown) => tp.request({ method: 'POST', url: `/api/v1${path}`, token, tenant, payload }),
    get: (path: string) => tp.request({ url: `/api/v1${path}`, token, tenant }),
  });
  return { tp, llm, lake, people, asAcme: as(acme.token, 'acme'), asViewer: as(viewer, 'acme'), asBeta: as(beta.token, 'beta') };
}
