// The <citations> block parser and writer: what models actually emit
// (attribute order, whitespace, escaped and unescaped quotes, single quotes,
// child elements, a missing optional field, a code fence), strict about the
// required fields, and malformed or adversarial blocks (never a throw, a clear
// error, bounded time). The writer's output reads back to what was written.
import t from 'tap';
import { parseBlock } from '../block/parse.ts';
import { writeBlock } from '../block/write.ts';

const A = '3f1c2b9e-4d5a-4e6f-8a7b-9c0d1e2f3a4b';
const B = 'a0b1c2d3-e4f5-4a6b-8c7d-e8f9a0b1c2d3';

t.test('the documented form: every field, any attribute order, whitespace and line breaks', async (t) => {
  const reply = `The gloves are required [1]. Spills go to the kit [2].

<citations>
  <citation
     doc_name="Safety manual.pdf"   chunk_id="${A}"
     ref="1" revision_id="rev-7" page="4" section="4. Safety"
     quote="Operators must wear protective gloves" match_type="exact" />
  <citation ref="2" revision_id='rev-7' chunk_id='${B.toUpperCase()}' doc_name='Safety manual.pdf'>
    <quote>Spills are contained with the absorbent kit</quote>
  </citation>
</citations>`;
  const parsed = parseBlock(reply);
  t.same(parsed.errors, []);
  t.same(parsed.entries, [
    { ref: '1', chunk_id: A, revision_id: 'rev-7', doc_name: 'Safety manual.pdf', page: 4, section: '4. Safety', quote: 'Operators must wear protective gloves', match_type: 'exact' },
    { ref: '2', chunk_id: B, revision_id: 'rev-7', doc_name: 'Safety manual.pdf', quote: 'Spills are contained with the absorbent kit' },
  ]);
  t.equal(reply.slice(parsed.span!.start, parsed.span!.end).startsWith('<citations>'), true);
  t.equal(reply.slice(parsed.span!.end), '');
  t.equal(reply.slice(0, parsed.span!.start).trimEnd(), 'The gloves are required [1]. Spills go to the kit [2].');
});

t.test('escaped quotes, entities, inner quotes, CDATA, child fields, a code fence', async (t) => {
  const reply = 'Answer.\n```xml\n<citations>\n'
    + `<citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="The &quot;Blue&quot; Book &amp; more" quote="he said \\"stop\\" twice"/>\n`
    + `<citation ref="2" chunk_id="${A}" revision_id="r1" doc_name="x" quote="the "red" switch"/>\n`
    + `<cite><ref>3</ref><chunk_id>${B}</chunk_id><revision_id>r2</revision_id><doc_name>Notes.md</doc_name><quote><![CDATA[a < b && c]]></quote></cite>\n`
    + `<citation ref="4" chunk-id="${B}" revisionId="r2" docName="Notes.md" MATCH_TYPE="Not Found">bare &lt;quoted&gt; text</citation>\n`
    + '</citations>\n```\nThanks.';
  const parsed = parseBlock(reply);
  t.same(parsed.errors, []);
  t.same(parsed.entries.map((e) => [e.ref, e.doc_name, e.quote, e.match_type]), [
    ['1', 'The "Blue" Book & more', 'he said "stop" twice', undefined],
    ['2', 'x', 'the "red" switch', undefined],
    ['3', 'Notes.md', 'a < b && c', undefined],
    ['4', 'Notes.md', 'bare <quoted> text', 'not_found'],
  ]);
  t.equal(reply.slice(0, parsed.span!.start), 'Answer.\n', 'the span covers the code fence');
  t.equal(reply.slice(parsed.span!.end), '\nThanks.');
});

t.test('strict about required fields: the entry is reported and left out, the others are kept', async (t) => {
  const parsed = parseBlock(`<citations>
    <citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="ok.txt"/>
    <citation ref="2" revision_id="r1" doc_name="no-chunk.txt"/>
    <citation ref="3" chunk_id="not-a-uuid" revision_id="r1" doc_name="bad.txt"/>
    <citation chunk_id="${B}" revision_id="r1"/>
    <citation ref="5" chunk_id="${B}" revision_id="r1" doc_name="  "/>
  </citations>`);
  t.same(parsed.entries.map((e) => e.ref), ['1']);
  t.same(parsed.errors.map((e) => e.index), [1, 2, 3, 4]);
  t.match(parsed.errors[0].message, /missing required field "chunk_id"/);
  t.match(parsed.errors[1].message, /chunk_id "not-a-uuid" is not a UUID/);
  t.match(parsed.errors[2].message, /missing required fields "ref", "doc_name"/);
  t.match(parsed.errors[3].message, /"doc_name"/);
});

t.test('a missing optional field or an unreadable optional value is left out, not fatal', async (t) => {
  const parsed = parseBlock(`<citations><citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="a" page="four" match_type="perfect"/></citations>`);
  t.same(parsed.errors, []);
  t.same(parsed.entries, [{ ref: '1', chunk_id: A, revision_id: 'r1', doc_name: 'a' }]);
});

t.test('malformed blocks: a clear error, never a throw', async (t) => {
  const cases: [string, RegExp | null][] = [
    ['no block at all', null],
    ['</citations> alone', /without an opening/],
    [`<citations><citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="a"/>`, /not closed/],
    [`<citations><citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="unterminated/></citations>`, /closing quote|not closed/],
    ['<citations', /malformed/],
    [`<citations><citation ref="1" chunk_id="${A}" revision_id="r1" doc_name="a"`, /not closed/],
  ];
  for (const [text, error] of cases) {
    const parsed = parseBlock(text);
    if (error === null) t.same(parsed, { entries: [], errors: [], span: null }, text);
    else t.match(parsed.errors.map((e) => e.message).join('; '), error, text);
  }
  t.same(parseBlock(undefined as never), { entries: [], errors: [], span: null });
  t.same(parseBlock('<citations/>'), { entries: [], errors: [], span: { start: 0, end: 12 } });
});

t.test('adversarial blocks: bounded time and entries', async (t) => {
  const many = `<citations>${`<citation ref="1" chunk_id="${A}" revision_id="r" doc_name="d"/>`.repeat(500)}</citations>`;
  const parsed = parseBlock(many);
  t.equal(parsed.entries.length, 200, 'at most 200 entries are read');
  t.match(parsed.errors.at(-1)!.message, /more than 200 entries/);

  const hostile = [
    `<citations>${'<citation '.repeat(20_000)}</citations>`,
    `<citations><citation ref="${'"'.repeat(50_000)}"/></citations>`,
    `<citations><citation quote="${'a="b" '.repeat(20_000)}</citations>`,
    `<citations>${'&'.repeat(100_000)}</citations>`,
    `${'<citations>'.repeat(20_000)}`,
    `<citations><citation ref="1" chunk_id="${A}" revision_id="r" doc_name="d">${'<quote>'.repeat(20_000)}</citation></citations>`,
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><citations><citation ref="1" chunk_id="' + A + '" revision_id="r" doc_name="&b;"/></citations>',
  ];
  // Linear work on these sizes takes milliseconds; a backtracking parser takes
  // minutes or more and fails the file by its timeout (no clock in the assertion).
  for (const text of hostile) {
    const result = parseBlock(text);
    t.ok(Array.isArray(result.entries) && Array.isArray(result.errors), `parsed ${text.slice(0, 30)}…`);
  }
  const entity = parseBlock(hostile.at(-1)!);
  t.equal(entity.entries[0]?.doc_name, '&b;', 'no DTD: entities are not expanded');
});

t.test('the writer escapes every value and reads back to what it wrote', async (t) => {
  const entries = [
    { ref: '1', chunk_id: A, revision_id: 'r"1', doc_name: 'A <b> & "c"\nd', page: 3, section: "it's", quote: 'x </citation> y \\" z ]]> & <q>', match_type: 'fuzzy' as const },
    { ref: '2', chunk_id: B, revision_id: 'r2', doc_name: 'plain' },
  ];
  const written = writeBlock(entries);
  t.match(written, /^<citations>\n/);
  t.notMatch(written, /<q>/, 'markup in values is escaped');
  const parsed = parseBlock(`Reply text.\n\n${written}`);
  t.same(parsed.errors, []);
  t.same(parsed.entries, entries);
  t.same(writeBlock([]), '<citations>\n</citations>');
  t.same(parseBlock(writeBlock([{ ...entries[1], match_type: null }])).entries, [entries[1]], 'a null match_type is left out');
});

t.test('several blocks: the last one is read', async (t) => {
  const parsed = parseBlock(`<citations><citation ref="old" chunk_id="${A}" revision_id="r" doc_name="d"/></citations> more <citations><citation ref="new" chunk_id="${B}" revision_id="r" doc_name="d"/></citations>`);
  t.same(parsed.entries.map((e) => e.ref), ['new']);
});
