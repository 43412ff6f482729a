// joi schemas of the transform schedule routes.
import { ownedScheduleSchemas } from 'agent-platform/sdk';

export const { schedulePut, schedule, scheduleList } = ownedScheduleSchemas({
  subject: 'transform', runField: 'last_run_id', labels: { put: 'TransformSchedulePut', schedule: 'TransformSchedule', list: 'TransformScheduleList' },
});
