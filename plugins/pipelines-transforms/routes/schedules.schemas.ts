// joi schemas of the transform schedule routes.
import Joi from 'joi';

export const schedulePut = Joi.object({
  cron: Joi.string().min(9).max(200).required().description('Five fields: minute hour day-of-month month day-of-week'),
  timezone: Joi.string().min(1).max(100).default('UTC').description('IANA time zone of the cron expression'),
  missed_run_policy: Joi.string().valid('skip', 'catch_up_once').default('skip')
    .description('Occurrences missed while the platform was down: skip records them; catch_up_once runs once'),
  paused: Joi.boolean().default(false),
}).label('TransformSchedulePut');

export const schedule = Joi.object({
  transform_id: Joi.string(),
  transform_name: Joi.string(),
  cron: Joi.string(),
  timezone: Joi.string(),
  missed_run_policy: Joi.string().valid('skip', 'catch_up_once'),
  paused: Joi.boolean(),
  next_run_at: Joi.date().allow(null),
  last_run_at: Joi.date().allow(null),
  last_outcome: Joi.string().allow(null).description('started, missed (skip policy), busy (a run was still going)'),
  last_run_id: Joi.string().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('TransformSchedule');

export const scheduleList = Joi.object({ items: Joi.array().items(schedule), limit: Joi.number(), offset: Joi.number() }).label('TransformScheduleList');
