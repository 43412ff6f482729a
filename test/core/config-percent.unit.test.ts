// HTTP_RESPONSE_VALIDATION_PERCENT: a whole percent, 10 by default; anything else refuses to start.
import t from 'tap';
import { loadConfig } from '../../core/config.ts';

const base = { PLATFORM_MASTER_KEY: 'a'.repeat(64) };

t.test('the response validation sample', async (t) => {
  t.equal(loadConfig(base).httpResponseValidationPercent, 10, 'default');
  t.equal(loadConfig({ ...base, HTTP_RESPONSE_VALIDATION_PERCENT: '0' }).httpResponseValidationPercent, 0, 'none');
  t.equal(loadConfig({ ...base, HTTP_RESPONSE_VALIDATION_PERCENT: '100' }).httpResponseValidationPercent, 100, 'every response');
  for (const bad of ['101', '-1', '2.5', 'all']) {
    t.throws(() => loadConfig({ ...base, HTTP_RESPONSE_VALIDATION_PERCENT: bad }), /HTTP_RESPONSE_VALIDATION_PERCENT must be an integer from 0 to 100/, bad);
  }
});
