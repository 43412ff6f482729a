// Ingestion benchmark. Run with `npm run bench:ingestion`
// (= bash scripts/with-test-db.sh node bench/ingestion.ts; a throwaway Postgres).
// Each figure beside a baseline measured in the same run:
//  1. text-PDF pages/s through the whole platform pipeline (upload → parse →
//     chunk → keyword index → ready; no OCR, no embeddings), beside pdfjs's
//     bare text extraction of the same pages; also parse+chunk alone: by
//     default (only pages with under 200 characters of text are rendered to
//     classify them), with no rendering at all, and with every page rendered
//     and kept (what page-image retrieval does);
//  2. OCR pages/s of an image-only PDF through the PDF parser, beside bare
//     tesseract.js on the same page images;
//  3. chunks embedded/s with the tiny generated model and a MiniLM-shaped
//     (6 layers, 384 hidden, 30 522 vocabulary) random-weight model;
//  4. hybrid search p50/p95 over 100 000 live chunks (384-dim vectors, HNSW),
//     beside the same query as plain SQL full text in the same run.
// Environment: BENCH_PDF_PAGES (40), BENCH_PDF_DOCS (3), BENCH_OCR_PAGES (3),
// BENCH_EMBED_CHUNKS (128), BENCH_CHUNKS (100000), BENCH_QUERIES (60).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestPlatform, tenantWithAdmin } from '../test/harness.ts';
import { MANIFEST, createCollection, uploaded, waitFor } from '../plugins/ingestion/test/helpers.ts';
import { encodedImage, scannedPdf } from '../plugins/ingestion/test/fixtures.ts';
import { writeModel } from './lib/ingestion-model.ts';
import { settingsOf } from '../plugins/ingestion/config/settings.ts';
import { defaultOptions } from '../plugins/ingestion/options.ts';
import { parseAndChunk, parseOptionsOf } from '../plugins/ingestion/pipeline/parse-step.ts';
import { createTokenCounter } from '../plugins/ingestion/chunking/tokenizer.ts';
import { createOcr } from '../plugins/ingestion/parsers/ocr.ts';
import { LocalEmbedder } from '../plugins/ingestion/embeddings/local.ts';
import { hybridSearch } from '../plugins/ingestion/search/search.ts';
import { toVectorLiteral } from '../plugins/ingestion/store/revisions.ts';

const PDF_PAGES = Number(process.env.BENCH_PDF_PAGES ?? 40);
const PDF_DOCS = Number(process.env.BENCH_PDF_DOCS ?? 3);
const OCR_PAGES = Number(process.env.BENCH_OCR_PAGES ?? 3);
const EMBED_CHUNKS = Number(process.env.BENCH_EMBED_CHUNKS ?? 128);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 60);
const DIMS = 384;
/** Comma-separated parts to run (pdf, ocr, embeddings, search); all by default. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'pdf,ocr,embeddings,search').split(','));

const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seeded(7);
const VOCAB = Array.from({ length: 5000 }, (_, i) => {
  const syllables = ['ka', 'lo', 'mi', 'ra', 'ten', 'vos', 'qui', 'der', 'san', 'tor', 'pel', 'nu', 'gra', 'fin', 'bo', 'ste'];
  let word = '';
  let n = i + 7;
  do {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  } while (n > 0);
  return word;
});
const word = () => VOCAB[Math.floor(random() ** 2 * VOCAB.length)];
const sentence = (words: number) => Array.from({ length: words }, word).join(' ');

async function textPdf(pages: number, salt: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 40; line++) page.drawText(`${salt} ${sentence(10)}.`, { x: 40, y: 800 - line * 19, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

async function pdfjsBaseline(bytes: Buffer): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const warm = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
  await (await (await warm.promise).getPage(1)).getTextContent();
  await warm.destroy();
  const start = performance.now();
  const loading = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
  const doc = await loading.promise;
  for (let i = 1; i <= doc.numPages; i++) await (await doc.getPage(i)).getTextContent();
  await loading.destroy();
  return doc.numPages / ((performance.now() - start) / 1000);
}

async function benchPdf() {
  const settings = settingsOf(defaultOptions(), {}, tmpdir());
  const counter = await createTokenCounter('cl100k_base');
  const sample = await textPdf(PDF_PAGES, 'sample');
  const baseline = await pdfjsBaseline(sample);
  const direct = async (maxRenderPages: number, keepAllImages = false) => {
    const start = performance.now();
    await parseAndChunk(sample, { ...parseOptionsOf(settings, 'application/pdf', 'sample.pdf'), maxRenderPages, keepAllImages }, settings, counter);
    return PDF_PAGES / ((performance.now() - start) / 1000);
  };
  const parseRendered = await direct(settings.maxRenderPages);
  const parseTextOnly = await direct(0);
  const parseAllRendered = await direct(settings.maxRenderPages, true);

  const pipeline = async (env: Record<string, string>) => {
    const tp = await startTestPlatform(tap, { env: { PLATFORM_MANIFEST: MANIFEST, INGESTION_OCR_ENABLED: 'false', JOBS_POLL_INTERVAL_MS: '100', ...env } });
    await tp.platform.start();
    const { token } = await tenantWithAdmin(tp, 'bench');
    const collection = await createCollection(tp, token, 'Bench');
    const files = await Promise.all(Array.from({ length: PDF_DOCS }, (_, i) => textPdf(PDF_PAGES, `doc${i}`)));
    const start = performance.now();
    const ids = [];
    for (const [i, file] of files.entries()) ids.push(await uploaded(tp, token, collection, `doc-${i}.pdf`, file));
    for (const id of ids) {
      const status = await waitFor(tp, token, id, ['ready', 'error'], 600_000);
      if (status.ingestion_status !== 'ready') throw new Error(`bench document failed: ${status.error}`);
    }
    const seconds = (performance.now() - start) / 1000;
    await tp.stop();
    return (PDF_DOCS * PDF_PAGES) / seconds;
  };
  const platformRendered = await pipeline({});
  const platformTextOnly = await pipeline({ INGESTION_MAX_RENDER_PAGES: '0' });
  return { baseline, parseRendered, parseTextOnly, parseAllRendered, platformRendered, platformTextOnly };
}

async function benchOcr() {
  const settings = settingsOf(defaultOptions(), {}, tmpdir());
  const counter = await createTokenCounter('cl100k_base');
  const lines = Array.from({ length: 12 }, () => sentence(6));
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(await encodedImage(lines, 'png'));
  // Page size in points = pixels / 2: rendered at the default 144 DPI, the page is the image's own pixel size, as the baseline OCRs it.
  const [w, h] = [image.width / 2, image.height / 2];
  for (let p = 0; p < OCR_PAGES; p++) pdf.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
  const bytes = Buffer.from(await pdf.save());
  void scannedPdf;
  const start = performance.now();
  await parseAndChunk(bytes, parseOptionsOf(settings, 'application/pdf', 'scan.pdf'), settings, counter);
  const parser = OCR_PAGES / ((performance.now() - start) / 1000);
  const png = await encodedImage(lines, 'png');
  const ocr = await createOcr(settings.ocrLangPath, 'eng');
  const bareStart = performance.now();
  for (let p = 0; p < OCR_PAGES; p++) await ocr.recognize(png);
  const bare = OCR_PAGES / ((performance.now() - bareStart) / 1000);
  await ocr.close();
  return { parser, bare };
}

async function benchEmbeddings() {
  const folder = await mkdtemp(path.join(tmpdir(), 'bench-models-'));
  const texts = Array.from({ length: EMBED_CHUNKS }, () => sentence(120));
  const rate = async (model: string) => {
    const embedder = new LocalEmbedder(model);
    await embedder.embed(texts.slice(0, 2)); // load and warm up
    const start = performance.now();
    for (let i = 0; i < texts.length; i += 32) await embedder.embed(texts.slice(i, i + 32));
    return texts.length / ((performance.now() - start) / 1000);
  };
  const tiny = await rate(await writeModel(path.join(folder, 'tiny'), { layers: 1, hidden: 32, intermediate: 64 }));
  // MiniLM's real vocabulary has its corpus's words whole: so does this one (the bench words, padded to 30 522 entries).
  const minilm = await rate(await writeModel(path.join(folder, 'minilm-shaped'), { layers: 6, hidden: 384, intermediate: 1536, words: VOCAB, vocabPadding: 30522 - 153 - VOCAB.length }));
  return { tiny, minilm };
}

async function benchSearch() {
  const tp = await startTestPlatform(tap, { env: { PLATFORM_MANIFEST: MANIFEST } });
  const { token } = await tenantWithAdmin(tp, 'bench');
  const collection = await createCollection(tp, token, 'Search');
  const core = tp.platform.server.plugins.core.services;
  const docs = Math.max(1, Math.round(CHUNKS / 100));
  const loadStart = performance.now();
  await sql`DROP INDEX IF EXISTS ingestion_chunks_hnsw_384`.execute(core.db);
  await core.withTenant('bench', async (trx) => {
    await sql`SELECT setseed(0.42)`.execute(trx);
    await sql`
      WITH vocab AS (SELECT ${VOCAB}::text[] AS w),
      d AS (
        INSERT INTO ingestion_documents (tenant_id, collection_id, name, filename, content_type, size_bytes, content_hash, ingestion_status, stage, progress_pct)
        SELECT 'bench', ${collection}, 'doc-' || g || '.txt', 'doc-' || g || '.txt', 'text/plain', 1000, md5(g::text), 'ready', 'done', 100
        FROM generate_series(1, ${docs}) g RETURNING id
      ),
      r AS (
        INSERT INTO ingestion_revisions (tenant_id, document_id, revision_number, content_hash, content_type, size_bytes, text)
        SELECT 'bench', id, 1, 'x', 'text/plain', 1000, '' FROM d RETURNING id, document_id
      )
      INSERT INTO ingestion_chunks (tenant_id, revision_id, document_id, collection_id, ordinal, text, page, char_start, char_end, token_count, ts_config, is_current, embedding, embedding_dims, embedding_model)
      SELECT 'bench', r.id, r.document_id, ${collection}, o,
             -- Correlated on purpose (the WHERE), so each chunk gets its own text and vector.
             (SELECT string_agg(vocab.w[1 + floor(power(random(), 2) * 5000)::int], ' ') FROM vocab, generate_series(1, 60 + (o % 3)) g WHERE r.id IS NOT NULL),
             0, 0, 0, 80, 'english', true,
             (SELECT array_agg(random() - 0.5 + 0 * g) FROM generate_series(1, ${DIMS}) g WHERE r.id IS NOT NULL AND o >= 0)::vector, ${DIMS}, 'bench'
      FROM r, generate_series(0, 99) o`.execute(trx);
    await sql`UPDATE ingestion_documents d SET latest_revision_id = r.id, chunk_count = 100 FROM ingestion_revisions r WHERE r.document_id = d.id`.execute(trx);
    await sql`INSERT INTO ingestion_terms (tenant_id, term) SELECT 'bench', unnest(${VOCAB}::text[]) ON CONFLICT DO NOTHING`.execute(trx);
  });
  const loaded = (performance.now() - loadStart) / 1000;
  const indexStart = performance.now();
  await sql`SET maintenance_work_mem = '1GB'`.execute(core.db);
  await sql.raw(`CREATE INDEX ingestion_chunks_hnsw_384 ON ingestion_chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE embedding_dims = 384 AND is_current`).execute(core.db);
  await sql`ANALYZE ingestion_chunks`.execute(core.db);
  const indexed = (performance.now() - indexStart) / 1000;
  const count = await core.withTenant('bench', async (trx) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ingestion_chunks WHERE is_current`.execute(trx)).rows[0].n));

  const queries = Array.from({ length: QUERIES }, () => `${word()} ${word()} ${VOCAB[Math.floor(random() * 800)]}`);
  const vectors = queries.map(() => Array.from({ length: DIMS }, () => random() - 0.5));
  const deps = { embedder: { model: 'bench', embed: async () => [] as number[][] }, logger: { warn() {} } };
  const keywordDeps = { embedder: undefined, logger: { warn() {} } };
  const time = async (run: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await run(i); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < queries.length; i++) {
      const start = performance.now();
      await run(i);
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    return { p50: round(percentile(samples, 50), 2), p95: round(percentile(samples, 95), 2) };
  };
  if (process.env.BENCH_EXPLAIN) {
    const { fuzzyExpansions, queryWords } = await import('../plugins/ingestion/search/keyword.ts');
    await core.withTenant('bench', async (trx) => {
      const words = queryWords(queries[0]);
      console.log('query', queries[0], [...(await fuzzyExpansions(trx, words))]);
      const df = await sql<{ w: string; n: number }>`SELECT w, (SELECT count(*) FROM ingestion_chunks WHERE tsv @@ to_tsquery('english', w) AND is_current) AS n FROM unnest(${words}::text[]) w`.execute(trx);
      console.log(df.rows);
      const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) SELECT m.id FROM (SELECT c.id, c.tsv, c.ts_config FROM ingestion_chunks c, to_tsquery('english', ${words.join(' & ')}) qe, to_tsquery('portuguese', ${words.join(' & ')}) qp WHERE c.is_current AND ((c.ts_config = 'english'::regconfig AND c.tsv @@ qe) OR (c.ts_config = 'portuguese'::regconfig AND c.tsv @@ qp)) LIMIT 3000) m, to_tsquery('english', ${words.join(' & ')}) qe ORDER BY ts_rank_cd(m.tsv, qe, 1) DESC LIMIT 40`.execute(trx);
      console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    });
  }
  const hybrid = await time((i) => core.withTenant('bench', (trx) => hybridSearch(trx, deps, { query: queries[i], top_k: 5 }, vectors[i])));
  const keyword = await time((i) => core.withTenant('bench', (trx) => hybridSearch(trx, keywordDeps, { query: queries[i], top_k: 5 })));
  const vectorOnly = await time((i) => core.withTenant('bench', (trx) => sql`
    SELECT id FROM ingestion_chunks WHERE embedding_dims = 384 AND is_current
    ORDER BY embedding::vector(384) <=> ${toVectorLiteral(vectors[i])}::vector(384) LIMIT 20`.execute(trx)));
  const plain = (i: number) => sql`
    SELECT id, ts_rank_cd(tsv, q) AS rank FROM ingestion_chunks, plainto_tsquery('english', ${queries[i]}) q
    WHERE tsv @@ q AND is_current AND tenant_id = 'bench' ORDER BY rank DESC LIMIT 5`;
  const baseline = await time((i) => core.withTenant('bench', (trx) => plain(i).execute(trx)));
  // The same SQL on the system handle: no row-level security, so the GIN index is usable.
  const baselineNoRls = await time((i) => plain(i).execute(core.db));
  await tp.stop();
  return { count, loaded: round(loaded), indexed: round(indexed), hybrid, keyword, vectorOnly, baseline, baselineNoRls };
}

try {
  const started = performance.now();
  console.log(`ingestion benchmark (node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
  if (ONLY.has('pdf')) {
  const pdf = await benchPdf();
  console.log('\n1. text PDF, pages/s (goal >= 20 through the pipeline)');
  console.log(`   platform pipeline, default settings          : ${round(pdf.platformRendered)}  (${PDF_DOCS} docs x ${PDF_PAGES} pages)`);
  console.log(`   platform pipeline, MAX_RENDER_PAGES=0        : ${round(pdf.platformTextOnly)}`);
  console.log(`   parse+chunk in process, default              : ${round(pdf.parseRendered)}`);
  console.log(`   parse+chunk in process, no rendering         : ${round(pdf.parseTextOnly)}`);
  console.log(`   parse+chunk in process, every page rendered  : ${round(pdf.parseAllRendered)}  (at 144 DPI, kept as PNG)`);
  console.log(`   baseline: bare pdfjs text extraction         : ${round(pdf.baseline)}  (pipeline/baseline ${round(pdf.platformRendered / pdf.baseline, 3)}, text-only ${round(pdf.platformTextOnly / pdf.baseline, 3)})`);
  }
  if (ONLY.has('ocr')) {
  const ocr = await benchOcr();
  console.log('\n2. OCR, pages/s');
  console.log(`   image-only PDF through the parser (render + OCR): ${round(ocr.parser, 2)}`);
  console.log(`   baseline: bare tesseract.js on the page image   : ${round(ocr.bare, 2)}  (ratio ${round(ocr.parser / ocr.bare, 2)})`);
  }
  if (ONLY.has('embeddings')) {
  const embeddings = await benchEmbeddings();
  console.log('\n3. embeddings, chunks/s (120-word chunks, batches of 32, fp32)');
  console.log(`   tiny generated model (1 layer, 32 dims)     : ${round(embeddings.tiny)}`);
  console.log(`   MiniLM-shaped (6 layers, 384 dims, 30k vocab): ${round(embeddings.minilm)}  (ratio to tiny ${round(embeddings.minilm / embeddings.tiny, 3)})`);
  }
  if (ONLY.has('search')) {
  const search = await benchSearch();
  console.log(`\n4. search over ${search.count} live chunks (load ${search.loaded} s, HNSW build ${search.indexed} s), ms (goal p95 <= 50)`);
  console.log(`   hybrid (keyword + fuzzy + HNSW, RRF)   p50 ${search.hybrid.p50}  p95 ${search.hybrid.p95}`);
  console.log(`   keyword only (no embedder)             p50 ${search.keyword.p50}  p95 ${search.keyword.p95}`);
  console.log(`   vector only (HNSW, raw SQL)            p50 ${search.vectorOnly.p50}  p95 ${search.vectorOnly.p95}`);
  console.log(`   baseline: plain SQL full text          p50 ${search.baseline.p50}  p95 ${search.baseline.p95}  (hybrid/baseline p95 ${round(search.hybrid.p95 / search.baseline.p95, 2)}; in a tenant transaction)`);
  console.log(`   the same SQL without RLS (system handle) p50 ${search.baselineNoRls.p50}  p95 ${search.baselineNoRls.p95}  (hybrid/that p95 ${round(search.hybrid.p95 / search.baselineNoRls.p95, 2)})`);
  }
  console.log(`\ntotal ${round((performance.now() - started) / 1000)} s`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
