// plugins/README.md, the partner guide, shows the example plugin
// (test/fixtures/partner-plugin, and the hydration target test/fixtures/asset-target) in excerpts: each block marked
// `<!-- excerpt: FILE -->` must be a verbatim part of FILE, so the guide
// cannot drift from the code that compiles and runs in the suite.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';

const EXCERPT = /<!-- excerpt: (\S+) -->\n```[a-z]*\n([\s\S]*?)```/g;

t.test('every code excerpt of the partner guide is in the file it names', async (t) => {
  const guide = await readFile(path.join(ROOT_DIR, 'plugins', 'README.md'), 'utf8');
  const excerpts = [...guide.matchAll(EXCERPT)].map(([, file, code]) => ({ file, code }));
  t.ok(excerpts.length >= 10, `${excerpts.length} excerpts`);
  for (const { file, code } of excerpts) {
    t.ok(file.startsWith('test/fixtures/partner-plugin/') || file.startsWith('test/fixtures/asset-target/'), `${file} is a file of an example`);
    const source = await readFile(path.join(ROOT_DIR, file), 'utf8');
    t.ok(source.includes(code), `${file}: ${code.split('\n')[0].trim()}`);
  }
  const marked = guide.split('<!-- excerpt:').length - 1;
  t.equal(excerpts.length, marked, 'every marker is followed by a code block');
});
