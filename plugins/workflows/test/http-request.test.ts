// The http_request function against a real loopback HTTP server: JSON in and
// out, templates from a workflow, redirects, the timeout and the response size
// cap; and, where private networks are not allowed, refusal of loopback,
// private and link-local addresses (literal or resolved by DNS).
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { isPrivateAddress } from '../../../core/http/addresses.ts';
import { defineWorkflow, execute, settled, startWorkflowsPlatform, STRICT_MANIFEST } from './helpers.ts';

/** The answers /slow holds: it answers only when the test lets it, so a timeout is told by order, not by a clock. */
const held: http.ServerResponse[] = [];

async function upstream(t: { teardown(fn: () => unknown): void }) {
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://upstream');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    switch (url.pathname) {
      case '/echo':
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({
          method: request.method, query: Object.fromEntries(url.searchParams), header: request.headers['x-test'] ?? null,
          contentType: request.headers['content-type'] ?? null, body: text ? (request.headers['content-type']?.includes('json') ? JSON.parse(text) : text) : null,
        }));
        return;
      case '/text':
        response.setHeader('content-type', 'text/plain');
        response.end('plain words');
        return;
      case '/redirect':
        response.statusCode = 302;
        response.setHeader('location', '/echo?from=redirect');
        response.end();
        return;
      case '/big':
        response.setHeader('content-length', String(2 * 1024 * 1024));
        response.end(Buffer.alloc(2 * 1024 * 1024, 97));
        return;
      case '/stream': // no content-length: the cap must count what arrives
        for (let i = 0; i < 40; i++) response.write(Buffer.alloc(64 * 1024, 98));
        response.end();
        return;
      case '/slow':
        held.push(response);
        return;
      default:
        response.statusCode = 404;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ error: 'no such thing' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const call = (tp: TestPlatform, token: string, args: Record<string, unknown>) =>
  tp.request({ method: 'POST', url: '/api/admin/functions/http_request/call', token, payload: { arguments: args } });

t.test('http_request calls a loopback server when private networks are allowed', async (t) => {
  const base = await upstream(t);
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-http');

  await defineWorkflow(tp, a.token, {
    name: 'fetch',
    steps: [
      {
        id: 'post', type: 'ACTION', handler: 'http_request', output_key: 'response',
        arguments: { url: '{{inputs.base}}/echo', method: 'POST', headers: { 'x-test': 'yes' }, query: { page: '{{inputs.page}}' }, body: { order: '{{inputs.order}}' } },
      },
      { id: 'check', type: 'CONDITION', condition: { field: 'response.status', operator: '==', value: 200 }, else_step: 'end' },
      { id: 'got', type: 'ACTION', handler: 'log', arguments: { message: 'got {{response.body.body.order.id}}' }, output_key: 'got' },
      { id: 'end', type: 'ACTION', handler: 'log', arguments: { message: 'end' } },
    ],
  });
  const done = await settled(tp, a.token, await execute(tp, a.token, 'fetch', { base, page: 2, order: { id: 9 } }));
  t.equal(done.status, 'completed');
  t.match(done.context.response, {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { method: 'POST', query: { page: '2' }, header: 'yes', contentType: 'application/json', body: { order: { id: 9 } } },
  }, 'method, headers, query and JSON body went out; the JSON answer was parsed');
  t.equal(done.context.got.message, 'got 9');

  const text = await call(tp, a.token, { url: `${base}/text` });
  t.equal(text.status, 200);
  t.match(text.body.result, { status: 200, body: 'plain words' });
  const sentText = await call(tp, a.token, { url: `${base}/echo`, method: 'put', body: 'raw' });
  t.match(sentText.body.result.body, { method: 'PUT', body: 'raw', contentType: 'text/plain;charset=utf-8' }, 'a string body is sent as text');
  const missing = await call(tp, a.token, { url: `${base}/nothing` });
  t.match(missing.body.result, { status: 404, body: { error: 'no such thing' } }, 'an error status is a result, not a failure');
  const redirected = await call(tp, a.token, { url: `${base}/redirect` });
  t.match(redirected.body.result, { status: 200, body: { method: 'GET', query: { from: 'redirect' } } }, 'redirects are followed');

  const big = await call(tp, a.token, { url: `${base}/big` });
  t.equal(big.status, 502);
  t.equal(big.body.code, 'RESPONSE_TOO_LARGE');
  const streamed = await call(tp, a.token, { url: `${base}/stream` });
  t.equal(streamed.body.code, 'RESPONSE_TOO_LARGE', 'the cap holds without a content-length');
  const slow = await call(tp, a.token, { url: `${base}/slow`, timeout_ms: 300 });
  t.equal(slow.status, 504);
  t.equal(slow.body.code, 'UPSTREAM_TIMEOUT');
  t.match(slow.body.message, /did not answer within 300 ms$/, 'the timeout given applied');
  t.equal(held.length, 1, 'the call gave up while the upstream still held its answer');
  held.splice(0).forEach((response) => response.end('late'));
  const refusedPort = await call(tp, a.token, { url: 'http://127.0.0.1:1/' });
  t.equal(refusedPort.status, 502);
  t.equal(refusedPort.body.code, 'UPSTREAM_ERROR');
  const badArgs = await call(tp, a.token, { url: 'ftp://example.com/' });
  t.equal(badArgs.status, 400);
  const getBody = await call(tp, a.token, { url: `${base}/echo`, body: { a: 1 } });
  t.equal(getBody.status, 400);

  await defineWorkflow(tp, a.token, { name: 'too-big', steps: [{ id: 'get', type: 'ACTION', handler: 'http_request', arguments: { url: `${base}/big` } }] });
  const failed = await settled(tp, a.token, await execute(tp, a.token, 'too-big'));
  t.equal(failed.status, 'failed');
  t.match(failed.error, /step "get" failed: the response body exceeds 1048576 bytes/);
});

t.test('http_request refuses private addresses by default', async (t) => {
  const base = await upstream(t);
  const port = new URL(base).port;
  const tp = await startWorkflowsPlatform(t, { manifest: STRICT_MANIFEST });
  const a = await tenantWithAdmin(tp, 'wf-strict');
  for (const url of [`${base}/echo`, `http://localhost:${port}/echo`, `http://[::1]:${port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://[::ffff:127.0.0.1]:80/']) {
    const refused = await call(tp, a.token, { url });
    t.equal(refused.status, 403, `${url} is refused`);
    t.equal(refused.body.code, 'ADDRESS_NOT_ALLOWED');
  }
  await defineWorkflow(tp, a.token, { name: 'probe', steps: [{ id: 'get', type: 'ACTION', handler: 'http_request', arguments: { url: `http://localhost:${port}/echo` } }] });
  const failed = await settled(tp, a.token, await execute(tp, a.token, 'probe'));
  t.equal(failed.status, 'failed');
  t.match(failed.error, /private address/);
});

t.test('which addresses count as private', async (t) => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', 'not-an-ip']) {
    t.equal(isPrivateAddress(address), true, `${address} is private`);
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    t.equal(isPrivateAddress(address), false, `${address} is public`);
  }
});
