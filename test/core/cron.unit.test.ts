// Cron arithmetic and the missed-run policy (core/cron.ts) at their edges:
// field checks, the forward walk with its step limit, and the grace period.
// The DST cases are plugins/events/test/schedule-dst.test.ts's.
import t from 'tap';
import { cronProblem, dueOccurrence, MISSED_RUN_POLICIES, nextOccurrence, nextOccurrences, walkTo } from '../../core/cron.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

t.test('cronProblem: five fields, counted after trimming; H refused in any part of a field', async (t) => {
  t.equal(cronProblem('  0   12 * * 1  '), undefined, 'extra spaces are no fields');
  t.equal(cronProblem(''), 'must have 5 fields (minute, hour, day of month, month, day of week), found 1');
  t.equal(cronProblem('* * *'), 'must have 5 fields (minute, hour, day of month, month, day of week), found 3');
  t.equal(cronProblem('0 h * * *'), 'hour field: "H" is not supported');
  t.equal(cronProblem('0 1,H(0-5) * * *'), 'hour field: "H" is not supported');
  t.equal(cronProblem('0 0 * * 1-5/H'), 'day of week field: "H" is not supported');
  t.equal(cronProblem('0 0 * * MON,THU'), undefined, 'names are no H');
  t.ok(cronProblem('0 0 * 13 *'), 'month 13');
});

t.test('nextOccurrences: strictly after the instant, as many as asked, in the zone', async (t) => {
  t.same(iso(nextOccurrences('*/20 * * * *', 'UTC', new Date('2025-01-01T00:00:00Z'), 3)),
    ['2025-01-01T00:20:00.000Z', '2025-01-01T00:40:00.000Z', '2025-01-01T01:00:00.000Z'], 'an occurrence at the instant itself is not next');
  t.same(iso(nextOccurrences('0 9 * * *', 'Asia/Tokyo', new Date('2025-01-01T00:00:00Z'))), ['2025-01-02T00:00:00.000Z'], 'one by default; 09:00 JST');
  t.equal(nextOccurrence('0 0 1 1 *', 'UTC', new Date('2025-06-01T00:00:00Z')).toISOString(), '2026-01-01T00:00:00.000Z');
  t.equal(nextOccurrences('0 0 * * *', 'UTC', new Date(), 0).length, 0);
});

t.test('walkTo: a walk past maxSteps restarts a day before now, still finding what comes next', async (t) => {
  const from = new Date('2025-01-01T00:00:00Z');
  const now = new Date('2025-01-10T00:30:30Z');
  const capped = walkTo('* * * * *', 'UTC', from, now, 100);
  t.same({ latest: capped.latest?.toISOString(), next: capped.next.toISOString() }, { latest: '2025-01-10T00:30:00.000Z', next: '2025-01-10T00:31:00.000Z' });
  t.equal(capped.due, 100 + 24 * 60, 'maxSteps, then a day of minutes up to now');
  const full = walkTo('0 * * * *', 'UTC', from, now);
  t.equal(full.due, 9 * 24, 'under the limit every occurrence is counted');
  t.same(walkTo('0 * * * *', 'UTC', from, from), { due: 0, latest: null, next: new Date('2025-01-01T01:00:00Z') }, 'from is not due again');
});

t.test('dueOccurrence: late means more than graceSeconds after the latest due occurrence', async (t) => {
  const scheduled = new Date('2025-06-01T10:00:00Z');
  const atGrace = dueOccurrence('0 * * * *', 'UTC', scheduled, new Date('2025-06-01T10:01:00Z'), 60, 'skip');
  t.same({ fire: atGrace.fire, late: atGrace.late }, { fire: scheduled, late: false }, 'exactly the grace period is on time');
  const past = dueOccurrence('0 * * * *', 'UTC', scheduled, new Date('2025-06-01T10:01:00.001Z'), 60, 'skip');
  t.same({ fire: past.fire, late: past.late, due: past.due }, { fire: null, late: true, due: 1 });
  const early = dueOccurrence('0 * * * *', 'UTC', scheduled, new Date('2025-06-01T09:59:59Z'), 0, 'skip');
  t.same(early, { fire: scheduled, latest: scheduled, due: 1, late: false, next: new Date('2025-06-01T11:00:00Z') }, 'a timer that fires early fires its own occurrence and arms the one after it');
  const caughtUpOnTime = dueOccurrence('*/5 * * * *', 'UTC', scheduled, new Date('2025-06-01T10:20:10Z'), 30, 'catch_up_once');
  t.same(caughtUpOnTime, { fire: new Date('2025-06-01T10:20:00Z'), latest: new Date('2025-06-01T10:20:00Z'), due: 5, late: false, next: new Date('2025-06-01T10:25:00Z') },
    'missed occurrences but the latest within grace: on time, for the latest');
  t.same(MISSED_RUN_POLICIES, ['skip', 'catch_up_once']);
});
