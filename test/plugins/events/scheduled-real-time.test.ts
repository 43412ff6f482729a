// One scheduled fire on the real clock (the other schedule tests drive it):
// an every-minute trigger in a +05:45 zone fires at the next minute boundary.
import t from 'tap';
import { createTrigger, eventsFixture, executionsOf, until } from './helpers.ts';

t.test('an every-minute schedule fires at the minute, on time, without help', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const created = await createTrigger(tp, token, { name: 'minutely', target_name: 'record', schedule_config: { cron: '* * * * *', timezone: 'Asia/Kathmandu' } });
  const due = new Date(created.next_fire_at);
  t.equal(due.getTime() % 60_000, 0, 'armed for a minute boundary');
  t.ok(due.getTime() - Date.now() <= 60_000);
  const fired = async () => (await tp.request({ url: '/api/admin/triggers/events/recent?type=schedule.fired', token })).body.items;
  await until(async () => (await fired()).length > 0, 'the real fire', 75_000);
  const [event] = await fired();
  t.equal(event.data.scheduled_time, due.toISOString());
  const lateness = new Date(event.time).getTime() - due.getTime();
  t.ok(lateness >= 0 && lateness < 5_000, `fired ${lateness} ms after its time`);
  await until(async () => (await executionsOf(tp, token, 'record')).length === 1, 'the workflow');
});
