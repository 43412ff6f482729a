// Every chat route is in the OpenAPI document, with the frame vocabulary
// in the chat endpoints' notes.
import t from 'tap';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { MANIFEST } from './helpers.ts';

t.test('the OpenAPI document lists the chat routes and describes the frames', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST } });
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  const paths = docs.body.paths;
  for (const path of [
    '/api/admin/agents', '/api/admin/agents/{name}', '/api/admin/clients/{client_id}/agent', '/api/sessions', '/api/sessions/{session_id}',
    '/api/sessions/{session_id}/messages', '/api/chat/{session_id}', '/api/chat/{session_id}/human-input', '/api/chat/{session_id}/stream',
    '/api/chat/{session_id}/cancel', '/api/chat/{session_id}/feedback',
  ]) t.ok(paths[path], path);
  const chat = JSON.stringify(paths['/api/chat/{session_id}'].post);
  for (const word of ['awaiting_input', 'widget_type', 'looking_up', 'citations', 'done']) t.match(chat, word);
  const request = JSON.stringify(docs.body.components.schemas.ChatRequest);
  for (const key of ['map_widget', 'report_widget', 'webxr_widget', 'generate_widget', 'widget_stream', 'ask_user']) t.match(request, key);
});
