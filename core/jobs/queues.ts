// The long tasks' pg-boss queues as the code declares them. One query reads
// the declared queues' rows; a queue that is missing is created, one whose
// policy differs from the declaration is updated (the code's declaration
// wins), and one that matches is left alone: a boot with nothing changed
// sends no create or update.
import type { PgBoss } from 'pg-boss';
import type pg from 'pg';

/** A queue's policy: every field pg-boss keeps that the platform declares. */
export interface QueuePolicy {
  notify: boolean;
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  heartbeatSeconds: number | null;
  /** The queue its failed jobs go to, or none. */
  deadLetter: string | null;
}

export interface DeclaredQueue {
  name: string;
  policy: QueuePolicy;
}

type QueueRow = QueuePolicy & { name: string };

const samePolicy = (a: QueuePolicy, b: QueuePolicy) => (Object.keys(a) as (keyof QueuePolicy)[]).every((key) => a[key] === b[key]);

/** Creates or updates the declared queues (and their dead letters) that differ from the declaration. */
export async function declareLongQueues(boss: PgBoss, pool: pg.Pool, schema: string, declared: DeclaredQueue[]): Promise<void> {
  const names = [...new Set(declared.flatMap((queue) => [queue.name, ...(queue.policy.deadLetter ? [queue.policy.deadLetter] : [])]))];
  const { rows } = await pool.query<QueueRow>(`
    SELECT name, notify, retry_limit AS "retryLimit", retry_delay AS "retryDelay", retry_backoff AS "retryBackoff",
           expire_seconds AS "expireInSeconds", heartbeat_seconds AS "heartbeatSeconds", dead_letter AS "deadLetter"
    FROM ${schema}.queue WHERE name = ANY($1)`, [names]);
  const present = new Map<string, QueuePolicy>(rows.map(({ name, ...policy }) => [name, policy]));
  const byName = new Map(declared.map((queue) => [queue.name, queue.policy]));
  const settled = new Set<string>();
  // A queue's dead letter first (pg-boss requires it to exist), with its own declared policy when it is declared too.
  const settle = async (name: string): Promise<void> => {
    if (settled.has(name)) return;
    settled.add(name);
    const policy = byName.get(name);
    if (!policy) {
      if (!present.has(name)) await boss.createQueue(name);
      return;
    }
    const { deadLetter, heartbeatSeconds, ...rest } = policy;
    if (deadLetter) await settle(deadLetter);
    if (!present.has(name)) {
      await boss.createQueue(name, { ...rest, ...(heartbeatSeconds ? { heartbeatSeconds } : {}), ...(deadLetter ? { deadLetter } : {}) });
      return;
    }
    // null clears a dead letter or a heartbeat an earlier declaration set (pg-boss's documented way).
    if (!samePolicy(present.get(name)!, policy)) await boss.updateQueue(name, { ...rest, heartbeatSeconds, deadLetter });
  };
  for (const { name } of declared) await settle(name);
}
