import t from 'tap';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecretBox, hashSecret, loadMasterKey, parseMasterKey, secretMatches } from '../../core/secrets.ts';

t.test('AES-256-GCM sealing round-trips and detects tampering', async (t) => {
  const box = createSecretBox(parseMasterKey('11'.repeat(32)));
  const sealed = box.seal('s3cret-value', 'integration:42');
  t.notMatch(sealed, /s3cret/);
  t.not(box.seal('s3cret-value', 'integration:42'), sealed, 'a fresh IV each time');
  t.equal(box.open(sealed, 'integration:42'), 's3cret-value');
  t.throws(() => box.open(sealed, 'integration:43'), 'bound to its context');
  const [v, iv, tag, body] = sealed.split(':');
  const flipped = Buffer.from(body, 'base64');
  flipped[0] ^= 1;
  t.throws(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'), 'integration:42'), 'tampering is detected');
  const other = createSecretBox(parseMasterKey('22'.repeat(32)));
  t.throws(() => other.open(sealed, 'integration:42'), 'another master key cannot open it');
  t.not(box.deriveKey('a').toString('hex'), box.deriveKey('b').toString('hex'));
});

t.test('hashes for secrets that are only compared', async (t) => {
  const hash = hashSecret('pk_acme_abc');
  t.equal(hash.length, 64);
  t.ok(secretMatches('pk_acme_abc', hash));
  t.notOk(secretMatches('pk_acme_abd', hash));
});

t.test('master key: required with an external database, generated once on the embedded default', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'master-key-'));
  await t.rejects(loadMasterKey(undefined, dir, false), /PLATFORM_MASTER_KEY is required/);
  t.throws(() => parseMasterKey('too-short'), /32 bytes/);
  const first = await loadMasterKey(undefined, dir, true);
  const second = await loadMasterKey(undefined, dir, true);
  t.equal(first.toString('hex'), second.toString('hex'), 'the generated key is reused');
  t.equal((await stat(path.join(dir, 'master.key'))).mode & 0o777, 0o600, 'readable by the owner only');
  t.equal((await readFile(path.join(dir, 'master.key'), 'utf8')).trim(), first.toString('hex'));
  t.equal((await loadMasterKey('33'.repeat(32), dir, true)).toString('hex'), '33'.repeat(32), 'the environment wins');
});
