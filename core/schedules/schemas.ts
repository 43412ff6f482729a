// The joi schemas of the routes of one schedule per subject (owned.ts): the
// body of a PUT, one schedule and a page of them. Each plugin names its
// subject's fields (`source_id`, `source_name`), the run its last fire started
// and the OpenAPI labels of the three.
import Joi from 'joi';

export interface OwnedScheduleSchemaOptions {
  /** The subject, as the fields name it: `source` gives `source_id` and `source_name`. */
  subject: string;
  /** The field holding the run the last fire started (`last_sync_run_id`). */
  runField: string;
  labels: { put: string; schedule: string; list: string };
}

export function ownedScheduleSchemas({ subject, runField, labels }: OwnedScheduleSchemaOptions) {
  const schedulePut = Joi.object({
    cron: Joi.string().min(9).max(200).required().description('Five fields: minute hour day-of-month month day-of-week'),
    timezone: Joi.string().min(1).max(100).default('UTC').description('IANA time zone of the cron expression'),
    missed_run_policy: Joi.string().valid('skip', 'catch_up_once').default('skip')
      .description('Occurrences missed while the platform was down: skip records them; catch_up_once runs once'),
    paused: Joi.boolean().default(false),
  }).label(labels.put);
  const schedule = Joi.object({
    [`${subject}_id`]: Joi.string(),
    [`${subject}_name`]: Joi.string(),
    cron: Joi.string(),
    timezone: Joi.string(),
    missed_run_policy: Joi.string().valid('skip', 'catch_up_once'),
    paused: Joi.boolean(),
    next_run_at: Joi.date().allow(null),
    last_run_at: Joi.date().allow(null),
    last_outcome: Joi.string().allow(null).description('started, missed (skip policy), busy (a run was still going)'),
    [runField]: Joi.string().allow(null),
    created_at: Joi.date(),
    updated_at: Joi.date(),
  }).label(labels.schedule);
  const scheduleList = Joi.object({ items: Joi.array().items(schedule), limit: Joi.number(), offset: Joi.number() }).label(labels.list);
  return { schedulePut, schedule, scheduleList };
}
