// UUIDs as the platform reads them. A UUID is 32 hex digits in 8-4-4-4-12
// groups, in either case, any version: the shape of every id the platform
// hands out. An id that is not a UUID names no row, and is refused before it
// reaches a uuid column (where PostgreSQL would fail the statement).

/** 8-4-4-4-12 hex digits, either case, any version and variant. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the value is a UUID (UUID_PATTERN). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

// PostgreSQL's uuid input also reads the groups without their hyphens (each
// one optional).
const UUID_TEXT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Whether PostgreSQL reads the text as a uuid: a UUID, each of its four hyphens optional. */
export function isUuidText(value: unknown): value is string {
  return typeof value === 'string' && UUID_TEXT.test(value);
}
