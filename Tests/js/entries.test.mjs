// The browser engine over the real entries: Tests/TroubleshootKBTests/Search/Fixtures/entries/ is
// the web export of entries/ with entries/glossary.yaml (written by the Swift test
// SearchWebFixtureTests.entriesFixtureIsUpToDate, re-recorded with KB_RECORD_SEARCH=1) and Swift's
// results for the development queries (../shared/queries/dev.tsv) and our cross-language queries
// (Tests/TroubleshootKBTests/Search/Queries/xlang.tsv). search-core.js must give the same results,
// and every development query must find its entry first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const KBSearch = require('../../site/assets/search-core.js');
const fixtures = new URL('../TroubleshootKBTests/Search/Fixtures/entries/', import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
const meta = read('web/search-meta.json');
const expected = read('expected-results.json');
// The shared development data: KB_SHARED_DIR, ../shared beside the checkout, or /work/shared.
const devURL = [process.env.KB_SHARED_DIR && new URL(`file://${process.env.KB_SHARED_DIR}/queries/dev.tsv`),
  new URL('../../../shared/queries/dev.tsv', import.meta.url), new URL('file:///work/shared/queries/dev.tsv')]
  .filter(Boolean).find((u) => existsSync(u)) || new URL('../../../shared/queries/dev.tsv', import.meta.url);

const index = KBSearch.createIndex(meta);
for (let i = 0; i < meta.shardCount; i++) index.addShard(i, read(`web/search-shard-${i}.json`));
for (let k = 0; existsSync(new URL(`web/search-token-${k}.json`, fixtures)); k++) index.addTokenFile(k, read(`web/search-token-${k}.json`));
for (let d = 0; d < meta.n; d++) index.addDoc(d, read(`web/search-doc-${d}.json`));
for (let v = 0; v < meta.expansion.vocabularyFiles; v++) index.addVocabulary(v, read(`web/search-vocab-${v}.json`));

const extraDirections = new Set(['same', 'api', 'en', 'xlang']);

for (const q of expected.queries) {
  test(`same results as Swift on the entries: ${q.query}`, () => {
    const actual = index.search(q.query, { limit: q.limit });
    const summary = (rs) => rs.map((r) => ({ id: r.id, field: r.field, textIndex: r.textIndex, anchor: r.anchor, label: r.label,
      viaGlossary: r.viaGlossary, viaExpansions: r.viaExpansions, score: r.score }));
    assert.deepEqual(summary(actual), summary(q.results));
  });
  if (extraDirections.has(q.segment)) {
    test(`${q.segment} query finds its entry first in the browser: ${q.query}`, () => {
      const actual = index.search(q.query, { limit: 10 });
      assert.equal(actual[0] && actual[0].id, q.expected, JSON.stringify(actual.map((r) => r.id)));
    });
  }
}

test('every xlang development query is in the fixture', { skip: !existsSync(devURL) && 'no ../shared/queries/dev.tsv' }, () => {
  const rows = readFileSync(devURL, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  const xlang = rows.filter((r) => r[2] === 'xlang');
  assert.ok(xlang.length > 0);
  for (const [query, entry] of xlang) {
    const q = expected.queries.find((x) => x.query === query);
    assert.ok(q, `${query} is missing from the fixture; re-record with KB_RECORD_SEARCH=1`);
    assert.equal(q.expected, entry);
  }
});

test('cross-language queries of our own: report', () => {
  const rows = expected.queries.filter((q) => !extraDirections.has(q.segment));
  let first = 0;
  for (const q of rows) {
    const ids = index.search(q.query, { limit: 10 }).map((r) => r.id);
    const rank = ids.indexOf(q.expected) + 1;
    if (rank === 1) first++;
    console.log(`# ${q.segment}  ${rank === 0 ? '-' : '#' + rank}  ${q.query}`);
  }
  console.log(`# cross-language R@1 ${first}/${rows.length}`);
  assert.ok(rows.length > 0);
});
