import t from 'tap';
import { createPlatform } from '../../core/boot.ts';
import { loadConfig } from '../../core/config.ts';
import { createTestDatabase, testSecrets } from '../harness.ts';

t.test('without ADMIN_TOKEN a token is generated once, only its hash stored', async (t) => {
  const databaseUrl = await createTestDatabase(t);
  const { PLATFORM_MASTER_KEY } = testSecrets();
  const boot = async () => {
    const announced: string[] = [];
    const platform = await createPlatform({
      config: loadConfig({ DATABASE_URL: databaseUrl, PLATFORM_MASTER_KEY, LOG_LEVEL: 'silent' }),
      announceAdminToken: (token) => announced.push(token),
    });
    await platform.server.initialize();
    return { platform, announced };
  };

  const first = await boot();
  t.equal(first.announced.length, 1, 'announced on first start');
  const token = first.announced[0];
  t.match(token, /^adm_[0-9a-f]{48}$/);
  const stored = await first.platform.core.pool.query(`SELECT value FROM platform_settings WHERE key = 'admin_token_hash'`);
  t.not(stored.rows[0].value, token, 'the token itself is not stored');
  const ok = await first.platform.server.inject({ url: '/api/admin/tenants', headers: { authorization: `Bearer ${token}` } });
  t.equal(ok.statusCode, 200);
  await first.platform.stop();

  const second = await boot();
  t.same(second.announced, [], 'not generated again');
  const again = await second.platform.server.inject({ url: '/api/admin/tenants', headers: { authorization: `Bearer ${token}` } });
  t.equal(again.statusCode, 200, 'the stored token still works after a restart');
  await second.platform.stop();
});
