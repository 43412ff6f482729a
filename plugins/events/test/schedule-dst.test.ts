// Fire instants of scheduled triggers across DST changes, computed by the pure
// functions the scheduler arms its timers with ("drive the clock, not a sleep").
import t from 'tap';
import { CronExpressionParser } from 'cron-parser';
import { canonicalTimeZone, cronProblem, dueOccurrence, nextOccurrences, walkTo } from '../triggers/schedule.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const wallClock = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false, timeZoneName: 'short' }).format(date);

/** What the scheduler does: fire an occurrence, arm the one after it. */
function chain(cron: string, tz: string, from: Date, count: number): Date[] {
  const out: Date[] = [];
  let at = nextOccurrences(cron, tz, from, 1)[0];
  while (out.length < count) {
    out.push(at);
    at = walkTo(cron, tz, at, new Date(at.getTime() + 5_000)).next; // the timer ran 5 s after its occurrence
  }
  return out;
}

t.test('Europe/Oslo, daily 02:30, spring forward (2025-03-30: 02:00 CET → 03:00 CEST)', async (t) => {
  const fires = chain('30 2 * * *', 'Europe/Oslo', new Date('2025-03-28T12:00:00Z'), 4);
  t.same(iso(fires), ['2025-03-29T01:30:00.000Z', '2025-03-30T01:30:00.000Z', '2025-03-31T00:30:00.000Z', '2025-04-01T00:30:00.000Z']);
  t.equal(wallClock(fires[0], 'Europe/Oslo'), '29/03/2025, 02:30 CET');
  t.equal(wallClock(fires[1], 'Europe/Oslo'), '30/03/2025, 03:30 CEST', '02:30 does not exist that day: it fires an hour later on the wall clock');
  t.equal(wallClock(fires[2], 'Europe/Oslo'), '31/03/2025, 02:30 CEST', 'and is back at 02:30 the day after');
});

t.test('Europe/Oslo, daily 02:30, fall back (2025-10-26: 03:00 CEST → 02:00 CET): fires once', async (t) => {
  const fires = chain('30 2 * * *', 'Europe/Oslo', new Date('2025-10-24T12:00:00Z'), 3);
  t.same(iso(fires), ['2025-10-25T00:30:00.000Z', '2025-10-26T00:30:00.000Z', '2025-10-27T01:30:00.000Z']);
  t.equal(wallClock(fires[1], 'Europe/Oslo'), '26/10/2025, 02:30 CEST', 'the first of the two 02:30s');
  t.equal(wallClock(fires[2], 'Europe/Oslo'), '27/10/2025, 02:30 CET');
  const late = walkTo('30 2 * * *', 'Europe/Oslo', fires[1], new Date('2025-10-26T01:45:00Z'));
  t.same({ due: late.due, next: late.next.toISOString() }, { due: 0, next: '2025-10-27T01:30:00.000Z' },
    'a timer that runs during the repeated hour does not see the second 02:30 as due');
});

t.test('America/New_York, weekdays 09:00, across the March change: 09:00 local before and after', async (t) => {
  const fires = chain('0 9 * * 1-5', 'America/New_York', new Date('2025-03-06T15:00:00Z'), 3);
  t.same(iso(fires), ['2025-03-07T14:00:00.000Z', '2025-03-10T13:00:00.000Z', '2025-03-11T13:00:00.000Z']);
  t.same(fires.map((fire) => wallClock(fire, 'America/New_York')), ['07/03/2025, 09:00 GMT-5', '10/03/2025, 09:00 GMT-4', '11/03/2025, 09:00 GMT-4']);
});

t.test('America/New_York, daily 01:30, November fall back (01:00-02:00 repeats): once, at 01:30 EDT', async (t) => {
  const fires = chain('30 1 * * *', 'America/New_York', new Date('2025-11-01T12:00:00Z'), 3);
  t.same(iso(fires), ['2025-11-02T05:30:00.000Z', '2025-11-03T06:30:00.000Z', '2025-11-04T06:30:00.000Z']);
  t.equal(wallClock(fires[0], 'America/New_York'), '02/11/2025, 01:30 GMT-4', 'EDT: the first of the two 01:30s');
  t.equal(wallClock(fires[1], 'America/New_York'), '03/11/2025, 01:30 GMT-5');
});

t.test('an hourly schedule fires every real hour through both changes: never twice at once, none skipped', async (t) => {
  for (const from of ['2025-03-29T22:30:00Z', '2025-10-25T22:30:00Z']) {
    const fires = chain('0 * * * *', 'Europe/Oslo', new Date(from), 8);
    const gaps = fires.slice(1).map((fire, i) => fire.getTime() - fires[i].getTime());
    t.ok(gaps.every((gap) => gap === 3_600_000), `${from}: one hour apart (${iso(fires).join(', ')})`);
  }
});

t.test('walkTo counts the occurrences a late timer finds due, and what comes next', async (t) => {
  const from = new Date('2025-06-01T10:00:00Z');
  const walk = walkTo('0 * * * *', 'UTC', from, new Date('2025-06-01T13:20:00Z'));
  t.same({ due: walk.due, latest: walk.latest?.toISOString(), next: walk.next.toISOString() },
    { due: 3, latest: '2025-06-01T13:00:00.000Z', next: '2025-06-01T14:00:00.000Z' });
  const onTime = walkTo('0 * * * *', 'UTC', from, new Date('2025-06-01T10:00:03Z'));
  t.same({ due: onTime.due, latest: onTime.latest, next: onTime.next.toISOString() }, { due: 0, latest: null, next: '2025-06-01T11:00:00.000Z' });
});

t.test('why the scheduler walks forward only (and does not use pg-boss cron): cron-parser\'s prev() skips the spring occurrence', async (t) => {
  const previous = CronExpressionParser.parse('30 2 * * *', { tz: 'Europe/Oslo', currentDate: new Date('2025-03-30T12:00:00Z') }).prev().toDate();
  t.equal(previous.toISOString(), '2025-03-29T01:30:00.000Z', 'prev() from noon on the 30th misses that morning\'s 03:30 CEST fire');
  const repeated = CronExpressionParser.parse('30 2 * * *', { tz: 'Europe/Oslo', currentDate: new Date('2025-10-26T01:30:30Z') }).prev().toDate();
  t.equal(repeated.toISOString(), '2025-10-26T01:30:00.000Z', 'and reports the repeated autumn 02:30 as due a second time');
});

t.test('cron expressions and time zones are checked', async (t) => {
  t.equal(cronProblem('*/15 9-17 * * MON-FRI'), undefined);
  t.equal(cronProblem('0 0 1 JAN *'), undefined);
  t.match(cronProblem('0 * * *'), /5 fields/);
  t.match(cronProblem('0 0 * * * *'), /5 fields/);
  t.match(cronProblem('61 * * * *'), /0-59/);
  t.match(cronProblem('0 24 * * *'), /0-23/);
  t.match(cronProblem('H * * * *'), /"H" is not supported/);
  t.ok(cronProblem('0 0 30 2 *'), 'February 30th never comes');
  t.equal(canonicalTimeZone('Europe/Oslo'), 'Europe/Oslo');
  t.equal(canonicalTimeZone('europe/oslo'), 'Europe/Oslo');
  t.equal(canonicalTimeZone('UTC'), 'UTC');
  t.equal(canonicalTimeZone('Mars/Olympus'), undefined);
  t.equal(canonicalTimeZone('+05:00'), undefined);
  t.equal(canonicalTimeZone(''), undefined);
});

t.test('dueOccurrence: the missed-run policy every schedule shares (core/cron.ts)', async (t) => {
  const cron = '0 * * * *';
  const scheduled = new Date('2025-06-01T10:00:00Z');
  const onTime = dueOccurrence(cron, 'UTC', scheduled, new Date('2025-06-01T10:00:30Z'), 60, 'skip');
  t.same(onTime, { fire: scheduled, latest: scheduled, due: 1, late: false, next: new Date('2025-06-01T11:00:00Z') }, 'on time: fires its own occurrence');
  const down = new Date('2025-06-01T13:20:00Z');
  const skipped = dueOccurrence(cron, 'UTC', scheduled, down, 60, 'skip');
  t.same(skipped, { fire: null, latest: new Date('2025-06-01T13:00:00Z'), due: 4, late: true, next: new Date('2025-06-01T14:00:00Z') }, 'late, skip: fires nothing');
  const caught = dueOccurrence(cron, 'UTC', scheduled, down, 60, 'catch_up_once');
  t.same(caught.fire, new Date('2025-06-01T13:00:00Z'), 'late, catch_up_once: fires once, for the latest occurrence');
  t.equal(caught.due, 4);
});
