// joi schemas of the source schedule routes.
import { ownedScheduleSchemas } from 'agent-platform/sdk';

export const { schedulePut, schedule, scheduleList } = ownedScheduleSchemas({
  subject: 'source', runField: 'last_sync_run_id', labels: { put: 'SchedulePut', schedule: 'SourceSchedule', list: 'SourceScheduleList' },
});
