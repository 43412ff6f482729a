// The check of a message written to the outbox, before any statement: a
// single address, a subject on one line, bounded sizes, a named origin.
import { Joi } from 'agent-platform/sdk';
import type { OutgoingMail } from '../api.ts';
import { mailErrors } from '../errors.ts';

export const MAX_SUBJECT_CHARS = 998;
export const MAX_TEXT_CHARS = 200_000;
export const MAX_HTML_CHARS = 500_000;

const noNul = /^[^\u0000]*$/;

const schema = Joi.object({
  to: Joi.string().trim().max(320).email({ tlds: false, multiple: false }).required(),
  subject: Joi.string().max(MAX_SUBJECT_CHARS).pattern(noNul).allow('').required(),
  text: Joi.string().max(MAX_TEXT_CHARS).pattern(noNul).allow('').required(),
  html: Joi.string().max(MAX_HTML_CHARS).pattern(noNul),
  origin: Joi.string().pattern(/^[a-z0-9-]+\.[a-z0-9_.-]+$/).max(100).required(),
  originId: Joi.string().min(1).max(200).pattern(noNul).required(),
});

/** The message as it is stored (subject on one line), or a 400 MAIL_INVALID. */
export function checkedMail(mail: OutgoingMail): OutgoingMail {
  const { value, error } = schema.validate(mail, { abortEarly: false });
  if (error) throw mailErrors.invalid(error.details.map((d) => d.message));
  return { ...value, subject: value.subject.replace(/[\r\n]+\s*/g, ' ') };
}
