// The widget's package: `npm pack` of
// plugins/embed/widget, the tarball installed offline into a temporary
// project, each entry imported: `.`, `./element`, `./react`, `./vue`,
// `./style.css`, with their types. React and Vue (optional peers) come from
// the repository's node_modules. In a browser when one is installed.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './widget/browser.ts';

const ROOT = path.resolve('.');
if (!existsSync(path.join(ROOT, 'plugins/embed/widget/dist/platform-chat.ce.js'))) execFileSync(process.execPath, ['scripts/build-widget.ts', '--quiet'], { stdio: 'inherit' });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'widget-pack-'));
t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

const PKG = '@agent-platform/chat-widget';
const project = path.join(tmp, 'host-app');

t.test('npm pack and an offline install of the tarball', async (t) => {
  npm(['pack', path.join(ROOT, 'plugins/embed/widget'), '--pack-destination', tmp, '--ignore-scripts', '--silent'], tmp);
  const tarball = readdirSync(tmp).find((n) => n.endsWith('.tgz'));
  t.ok(tarball, 'a tarball');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'host-app', private: true, type: 'module' }));
  npm(['install', path.join(tmp, tarball!), '--offline', '--no-package-lock', '--ignore-scripts', '--silent'], project);
  const installed = path.join(project, 'node_modules', PKG);
  for (const file of ['package.json', 'dist/platform-chat.es.js', 'dist/platform-chat.ce.js', 'dist/platform-chat.react.js', 'dist/platform-chat.vue.js', 'dist/platform-chat.css', 'types/index.d.ts', 'types/element.d.ts', 'types/react.d.ts', 'types/vue.d.ts']) {
    t.ok(existsSync(path.join(installed, file)), file);
  }
  t.notOk(existsSync(path.join(installed, 'src')), 'the sources are not shipped');
  t.notOk(readdirSync(path.join(installed, 'dist')).some((n) => n.endsWith('.br')), 'nor the server\'s brotli copies');
  t.notOk(existsSync(path.join(project, 'node_modules/react')), 'optional peers are not installed with it');
});

t.test('the types: a TypeScript consumer of every entry type-checks against the installed package', async (t) => {
  writeFileSync(path.join(project, 'consumer.ts'), `
    import { mountPlatformChat, ChatClient, type PlatformChatOptions, type Session } from '${PKG}';
    import '${PKG}/element';
    import { PlatformChat as ReactChat, type PlatformChatProps } from '${PKG}/react';
    import { PlatformChat as VueChat } from '${PKG}/vue';
    const options: PlatformChatOptions = { apiUrl: 'https://chat.example', clientKey: 'ck_x', launcher: true, getAccessToken: async () => 'token' };
    const instance = mountPlatformChat(document.body, options);
    instance.update({ title: 'Help' });
    instance.destroy();
    const element: HTMLElement = document.createElement('platform-chat');
    const client = new ChatClient({ apiUrl: 'https://chat.example', clientKey: 'ck_x', markEmbedRequests: true, tokenProvider: undefined });
    const sessions: Promise<Session[]> = client.sessions();
    const props: PlatformChatProps = { ...options, className: 'chat' };
    export { element, sessions, props, ReactChat, VueChat };
    // @ts-expect-error a wrong option type is refused
    mountPlatformChat(document.body, { launcher: 'yes' });
  `);
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true, lib: ['es2022', 'dom'], types: [],
      skipLibCheck: false,
      // The optional peers' types, from the repository (as a host would have them installed).
      paths: { react: [path.join(ROOT, 'node_modules/@types/react/index.d.ts')], vue: [path.join(ROOT, 'node_modules/vue/dist/vue.d.ts')] },
    },
    files: ['consumer.ts'],
  }));
  let output = '';
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // Errors inside the peers' own declarations (checked without skipLibCheck) are theirs, not the package's.
  const ours = output.split('\n').filter((line) => /error TS/.test(line) && !line.includes(path.join(ROOT, 'node_modules')));
  t.same(ours, [], 'no type error in the consumer or the package\'s declarations');
});

t.test('each entry resolves through `exports` and loads in a browser', async (t) => {
  const result = await build({
    stdin: {
      resolveDir: project, loader: 'ts',
      contents: `
        import { mountPlatformChat, ChatClient, renderMarkdown } from '${PKG}';
        import '${PKG}/element';
        import { PlatformChat as ReactChat } from '${PKG}/react';
        import { PlatformChat as VueChat } from '${PKG}/vue';
        import css from '${PKG}/style.css';
        window.__entries = { mount: typeof mountPlatformChat, client: typeof ChatClient, markdown: typeof renderMarkdown,
          react: typeof ReactChat, vue: typeof VueChat, css: css.includes('--platform-chat-accent'),
          element: typeof customElements.get('platform-chat') };
        renderMarkdown('[x](https://example.com)').then((html) => (window.__markdown = html));`,
    },
    bundle: true, format: 'esm', write: false, platform: 'browser', loader: { '.css': 'text' }, splitting: false,
    nodePaths: [path.join(ROOT, 'node_modules')], define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'error',
  });
  t.equal(result.errors.length, 0, 'every entry resolves (React and Vue from the repository)');
  if (!existsSync(CHROMIUM)) {
    t.comment(`not loaded in a browser: ${CHROMIUM} is missing`);
    return;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html lang="en"><title>pack</title><body></body></html>');
  await page.addScriptTag({ type: 'module', content: result.outputFiles[0]!.text });
  await page.waitForFunction(() => (window as unknown as { __markdown?: string }).__markdown !== undefined, undefined, { timeout: 10_000 });
  t.same(await page.evaluate(() => (window as unknown as { __entries: unknown }).__entries), {
    mount: 'function', client: 'function', markdown: 'function', react: 'function', vue: 'object', css: true, element: 'function',
  }, 'each entry imported');
  t.match(await page.evaluate(() => (window as unknown as { __markdown?: string }).__markdown), /target="_blank"/, 'the client helper renders Markdown');
});
