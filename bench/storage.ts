// Storage benchmark: bytes per row, indexes included, of the tables that grow
// with use (events, ingestion chunks with their embeddings, chat frames and
// messages, a lake table, form submissions, occurrences, the two job queues'
// tables). The schema is the migrations' (core and every plugin of
// manifests/default.yaml) plus the job libraries' own; each measured table is
// a copy of the real one (`LIKE … INCLUDING ALL`: its columns, generated
// columns, defaults, checks and every index, foreign keys left out) filled
// with BENCH_ROWS (5,000) representative rows by one INSERT … SELECT, then
// VACUUM ANALYZE; bytes per row is pg_total_relation_size (heap, TOAST,
// indexes, free-space and visibility maps) after, less before (an empty
// index's meta pages), over the rows. A lake table is made the way the
// lakehouse makes one (_tenant_id, the snapshot range, one column per
// property, the partial key index); job rows go through the libraries'
// own enqueueing (graphile-worker's add_jobs, pg-boss's insert).
// Run with `npm run bench:storage` (a throwaway Postgres is started).
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { migrate } from '../core/db/migrate.ts';
import { installJobSchemas } from '../core/jobs/index.ts';
import { readManifest } from '../core/manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../core/plugin-loader.ts';
import { ROOT_DIR } from '../core/paths.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
/** Chunks carry a 1536-dimension embedding and an HNSW index: fewer rows keep the run short. */
const CHUNKS = Math.max(100, Math.round(ROWS / 5));
const FRAMES_PER_ROW = 5;
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set: run through scripts/with-test-db.sh (npm run bench:storage)');

// Words of ordinary English prose: picked at random they give a chunk's
// full-text vector about as many distinct lexemes as real text.
const WORDS = `the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were
her she there been one all we their has would when if so no what can more out up about who will some them into other than then
its time only could new these two may first any like now my such make over our even most after also did many before must through
years where much your way well down should because each just those people how too little state good very world still own see men
work long get here between both life being under never day same another know while last might us great old year off come since
against go came right used take three himself few house use during without again place around however home small found mrs
thought went say part once general high upon school every don does got united left number course war until always away something
fact though water less public put think almost hand enough far took head yet government system better set told nothing night end
why called didn eyes find going look asked later knew point next program city business give group toward young days let room
president side social given present several order national possible rather second face per among form important often things
looked early white case john become large big need four within felt children along saw best church ever least power development
light thing seemed family interest want members mind country area others done turned although open god service certain kind problem
began different door thus help means sense whole matter perhaps itself york times law human line above name example action company
hands local show whether five history gave today either act feet across taken past quite anything seen having death experience body
word half really field week words already information tell together college shall money period held keep sure probably free seems
political real cannot behind miss question air office making brought whose special major heard problems ago became federal moment
study available known result street economic boy position reason change south board individual job society areas west close turn
love community true court force full seem am wife age policy voice`.split(/\s+/);
const wordsArray = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
/** `n` random words, drawn anew for each row of `g` (the lateral reference). */
const prose = (n: number | string) =>
  `(SELECT string_agg((${wordsArray})[1 + floor(random() * ${WORDS.length})::int], ' ') FROM generate_series(1, ${n}) w WHERE g IS NOT NULL)`;

interface Target {
  name: string;
  /** The real table the copy is made from (absent: `create` makes it). */
  like?: string;
  create?: string;
  insert: string;
  rows: number;
  /** What adds a row, and what one row stands for. */
  unit: string;
  /** Rows per unit (frames per chat-frame row). */
  perRow?: number;
}

const targets: Target[] = [
  {
    name: 'events', like: 'public.events', rows: ROWS, unit: 'one event emitted',
    insert: `INSERT INTO bench_storage.events (tenant_id, seq, id, type, source, time, data, traceparent)
      SELECT 'acme', g, 'evt_' || md5(g::text), (ARRAY['chat.turn.completed', 'forms.submission.created', 'dataset.snapshot_created', 'occurrence.created'])[1 + g % 4],
        'plugin:chat', now() - g * interval '1 second',
        jsonb_build_object('session_id', gen_random_uuid(), 'turn_id', gen_random_uuid(), 'status', 'completed', 'tokens', g % 900, 'model', 'gpt-4o-mini'),
        '00-' || md5(g::text) || '-' || left(md5((g + 1)::text), 16) || '-01'
      FROM generate_series(1, ${ROWS}) g`,
  },
  {
    name: 'ingestion_chunks', like: 'public.ingestion_chunks', rows: CHUNKS, unit: 'one chunk (about a page of prose at INGESTION_CHUNK_SIZE 500 tokens), 1536-dimension embedding',
    insert: `INSERT INTO bench_storage.ingestion_chunks (tenant_id, revision_id, document_id, collection_id, ordinal, text, page, section, char_start, char_end, token_count, is_current, embedding, embedding_dims, embedding_model)
      SELECT 'acme', r, d, 1, g % 40, t.text, g % 40, 'Section ' || (g % 7), 0, char_length(t.text), 500, true, e.embedding, 1536, 'text-embedding-3-small'
      FROM generate_series(1, ${CHUNKS}) g
      CROSS JOIN LATERAL (SELECT ${prose(380)} AS text) t
      CROSS JOIN LATERAL (SELECT array_agg(random() - 0.5)::vector AS embedding FROM generate_series(1, 1536) WHERE g IS NOT NULL) e
      CROSS JOIN LATERAL (SELECT md5('doc' || (g / 40))::uuid AS d, md5('rev' || (g / 40))::uuid AS r) ids`,
  },
  {
    name: 'chat_turn_frames', like: 'public.chat_turn_frames', rows: ROWS, perRow: FRAMES_PER_ROW, unit: 'one streamed token (a frame; frames are written in batches, here 5 a row)',
    insert: `INSERT INTO bench_storage.chat_turn_frames (tenant_id, turn_id, first_seq, last_seq, frames)
      SELECT 'acme', md5('turn' || (g / 100))::uuid, (g % 100) * ${FRAMES_PER_ROW} + 1, (g % 100) * ${FRAMES_PER_ROW} + ${FRAMES_PER_ROW},
        '[' || (SELECT string_agg('{"seq":' || ((g % 100) * ${FRAMES_PER_ROW} + f) || ',"type":"text","delta":' || to_json(' ' || (${wordsArray})[1 + floor(random() * ${WORDS.length})::int]) || '}', ',')
                FROM generate_series(1, ${FRAMES_PER_ROW}) f WHERE g IS NOT NULL) || ']'
      FROM generate_series(1, ${ROWS}) g`,
  },
  {
    name: 'chat_messages', like: 'public.chat_messages', rows: ROWS, unit: 'one message (a question of ~20 words or an answer of ~200, alternately)',
    insert: `INSERT INTO bench_storage.chat_messages (tenant_id, session_id, turn_id, role, content, tool_metadata)
      SELECT 'acme', md5('session' || (g / 10))::uuid, md5('turn' || (g / 2))::uuid, CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END,
        t.text, '{}'
      FROM generate_series(1, ${ROWS}) g CROSS JOIN LATERAL (SELECT ${prose('CASE WHEN g % 2 = 0 THEN 20 ELSE 200 END')} AS text) t`,
  },
  {
    name: 'lake table (8 columns)', rows: ROWS, unit: 'one synced row version (a new or changed source row)',
    create: `CREATE TABLE bench_storage.lake (
      _tenant_id text NOT NULL DEFAULT 'acme', _snapshot_from bigint NOT NULL, _snapshot_to bigint,
      id text, name text, amount numeric, quantity bigint, active boolean, updated_at timestamptz, created date, attributes jsonb);
      CREATE INDEX lake_key ON bench_storage.lake (id) WHERE _snapshot_to IS NULL`,
    insert: `INSERT INTO bench_storage.lake (_snapshot_from, id, name, amount, quantity, active, updated_at, created, attributes)
      SELECT 9007199254740993, 'ORD-' || lpad(g::text, 8, '0'), 'Customer ' || (g % 997) || ' order', round((random() * 1000)::numeric, 2), g % 50,
        g % 3 <> 0, now() - g * interval '1 minute', date '2024-01-01' + g % 700, jsonb_build_object('channel', (ARRAY['web', 'store', 'phone'])[1 + g % 3], 'priority', g % 5)
      FROM generate_series(1, ${ROWS}) g`,
  },
  {
    name: 'forms_submissions', like: 'public.forms_submissions', rows: ROWS, unit: 'one form submission (15 fields)',
    insert: `INSERT INTO bench_storage.forms_submissions (tenant_id, use_case_id, definition_id, form_version, payload_json, municipality, submitted_by)
      SELECT 'acme', md5('uc' || (g % 5))::uuid, md5('def' || (g % 5))::uuid, 1,
        jsonb_build_object('name', 'Person ' || g, 'email', 'person' || g || '@example.org', 'phone', '+351 21 ' || lpad((g % 1000000)::text, 6, '0'),
          'street', 'Rua Augusta ' || (g % 300), 'postcode', '1100-' || lpad((g % 1000)::text, 3, '0'), 'city', 'Lisboa', 'subject', ${prose(6)},
          'message', ${prose(40)}, 'category', (ARRAY['noise', 'lighting', 'waste', 'roads'])[1 + g % 4], 'consent', true, 'date', current_date - g % 90,
          'urgency', g % 3, 'contact_preference', 'email', 'reference', 'REF-' || g, 'newsletter', g % 2 = 0),
        'Lisboa', 'user-' || (g % 500)
      FROM generate_series(1, ${ROWS}) g`,
  },
  {
    name: 'occurrences', like: 'public.occurrences', rows: ROWS, unit: 'one reported occurrence (title, 40-word description, location, reporter)',
    insert: `INSERT INTO bench_storage.occurrences (tenant_id, reference, type_id, title, description, latitude, longitude, address, reporter_name, reporter_email,
        dynamic_fields, attachments, state, source)
      SELECT 'acme', 'OC-2026-' || lpad(g::text, 6, '0'), 1 + g % 5, ${prose(6)}, ${prose(40)}, 38.70 + random() * 0.1, -9.20 + random() * 0.1,
        'Rua Augusta ' || (g % 300) || ', Lisboa', 'Person ' || g, 'person' || g || '@example.org',
        jsonb_build_object('severity', g % 3, 'blocking', g % 2 = 0), '[]', 'new', 'public'
      FROM generate_series(1, ${ROWS}) g`,
  },
];

const round = (n: number) => Math.round(n).toLocaleString('en-US');
const pool = new pg.Pool({ connectionString: url, max: 2 });
pool.on('error', (err) => console.error(err));
const results: { name: string; unit: string; rows: number; heap: number; indexes: number; total: number }[] = [];

/** Bytes of a relation list: heap with TOAST and maps, and indexes. */
async function sizes(relations: string[]): Promise<{ heap: number; indexes: number }> {
  const { rows } = await pool.query<{ heap: string; indexes: string }>(
    `SELECT coalesce(sum(pg_table_size(r)), 0)::text AS heap, coalesce(sum(pg_indexes_size(r)), 0)::text AS indexes FROM unnest($1::regclass[]) r`, [relations]);
  return { heap: Number(rows[0]!.heap), indexes: Number(rows[0]!.indexes) };
}

async function measure(name: string, unit: string, rows: number, relations: () => Promise<string[]>, fill: () => Promise<unknown>, vacuum: string[]) {
  const before = await sizes(await relations());
  await fill();
  for (const relation of vacuum) await pool.query(`VACUUM ANALYZE ${relation}`);
  const after = await sizes(await relations());
  const heap = (after.heap - before.heap) / rows;
  const indexes = (after.indexes - before.indexes) / rows;
  results.push({ name, unit, rows, heap, indexes, total: heap + indexes });
  console.error(`${name}: ${rows} rows, ${round(heap + indexes)} bytes a row`);
}

try {
  const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
  await migrate(pool, migrationSourcesOf(plugins));
  await installJobSchemas(pool);
  await pool.query('CREATE SCHEMA bench_storage');

  for (const target of targets) {
    const table = target.like ? `bench_storage.${target.like.split('.')[1]}` : 'bench_storage.lake';
    await pool.query(target.like ? `CREATE TABLE ${table} (LIKE ${target.like} INCLUDING ALL)` : target.create!);
    const perRow = target.perRow ?? 1;
    await measure(target.name, target.unit, target.rows * perRow, async () => [table], () => pool.query(target.insert), [table]);
  }

  // graphile-worker: the fast queue's jobs, enqueued the way platform_add_jobs does.
  const specs = Array.from({ length: ROWS }, (_, i) => ({
    identifier: 'events.dispatch', payload: { tenantId: 'acme', traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` }, queue_name: `events:acme:${i % 10}`,
  }));
  await measure('graphile-worker jobs (queued)', 'one fast job until it completes (completed jobs are deleted at once)', ROWS,
    async () => ['graphile_worker._private_jobs'],
    () => pool.query('SELECT graphile_worker.add_jobs(ARRAY(SELECT s FROM json_populate_recordset(NULL::graphile_worker.job_spec, $1) s))', [JSON.stringify(specs)]),
    ['graphile_worker._private_jobs']);

  // pg-boss: the long queue's jobs through its client, in batches.
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', supervise: false, schedule: false, migrate: false, max: 2 });
  boss.on('error', (err) => console.error(err));
  await boss.start();
  await boss.createQueue('bench.storage', { retryLimit: 3, expireInSeconds: 900 });
  const jobTables = async () => (await pool.query<{ relid: string }>(`SELECT relid::text FROM pg_partition_tree('pgboss.job') WHERE isleaf`)).rows.map((r) => r.relid);
  await measure('pg-boss jobs', 'one long job (a sync, a transform run, a step); kept 7 days after it ends (pg-boss\'s deletion default)', ROWS, jobTables, async () => {
    for (let i = 0; i < ROWS; i += 1000) {
      await boss.insert('bench.storage', Array.from({ length: Math.min(1000, ROWS - i) }, (_, j) => ({
        data: { tenant_id: 'acme', run_id: String(i + j), traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` },
      })));
    }
  }, await jobTables());
  await boss.stop({ graceful: false });

  console.log('\n| table | what adds a row | rows | heap + TOAST B/row | indexes B/row | total B/row |\n|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.unit} | ${r.rows.toLocaleString('en-US')} | ${round(r.heap)} | ${round(r.indexes)} | **${round(r.total)}** |`);
  const { rows: [version] } = await pool.query<{ server_version: string }>('SHOW server_version');
  console.log(`\nPostgreSQL ${version!.server_version}, BENCH_ROWS ${ROWS}, node ${process.versions.node}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
} finally {
  await pool.end();
}
