// Ranking parity: the web fixture (Tests/TroubleshootKBTests/Search/Fixtures) is the test corpus
// exported by Swift (SearchWebExport.build) together with the results Swift's SearchIndex.search
// gives for a list of queries. The Swift test SearchWebFixtureTests fails if the fixture is stale;
// this test checks that search-core.js returns the same results and scores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const KBSearch = require('../../site/assets/search-core.js');
const fixtures = new URL('../TroubleshootKBTests/Search/Fixtures/', import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
const meta = read('web/search-meta.json');
const expected = read('expected-results.json');

function loadedIndex() {
  const index = KBSearch.createIndex(meta);
  for (let i = 0; i < meta.shardCount; i++) index.addShard(i, read(`web/search-shard-${i}.json`));
  for (let k = 0; existsSync(new URL(`web/search-token-${k}.json`, fixtures)); k++) index.addTokenFile(k, read(`web/search-token-${k}.json`));
  for (let d = 0; d < meta.n; d++) index.addDoc(d, read(`web/search-doc-${d}.json`));
  for (let v = 0; v < meta.expansion.vocabularyFiles; v++) index.addVocabulary(v, read(`web/search-vocab-${v}.json`));
  index.addFilters(read('web/search-filters.json'));
  return index;
}

function summary(results) {
  return results.map((r) => ({ id: r.id, field: r.field, textIndex: r.textIndex, anchor: r.anchor, label: r.label,
    viaGlossary: r.viaGlossary, viaExpansions: r.viaExpansions }));
}

for (const q of expected.queries) {
  test(`same results as Swift: ${q.query} ${JSON.stringify(q.filters)}`, () => {
    const index = loadedIndex();
    const actual = index.search(q.query, { limit: q.limit, filters: q.filters });
    assert.deepEqual(summary(actual), summary(q.results));
    for (let i = 0; i < actual.length; i++) {
      const want = q.results[i].score;
      assert.ok(Math.abs(actual[i].score - want) <= 1e-9 * Math.max(1, Math.abs(want)),
        `${actual[i].id}: ${actual[i].score} vs ${want}`);
    }
  });
}

test('scores are bit-identical to Swift', () => {
  const index = loadedIndex();
  for (const q of expected.queries) {
    const actual = index.search(q.query, { limit: q.limit, filters: q.filters });
    assert.deepEqual(actual.map((r) => r.score), q.results.map((r) => r.score), q.query);
  }
});

test('a query loads only the shards of its tokens and the documents it shows', async () => {
  const fetched = [];
  const fakeFetch = async (url) => {
    const name = url.slice(url.lastIndexOf('/') + 1);
    fetched.push(name);
    return { json: async () => read('web/' + name) };
  };
  const kb = await KBSearch.load('https://example.invalid/search', fakeFetch);
  const q = expected.queries.find((x) => !x.filters.langs.length && !x.filters.tags.length && !x.filters.statuses.length);
  const results = await kb.search(q.query, { limit: q.limit });
  assert.deepEqual(summary(results), summary(q.results));
  // The query's tokens but the parts of the name the index has (toolbarColorScheme).
  const tokens = KBSearch.analyze(q.query, 'query', kb.index.glossary).filter((t) => t.kind !== 'part').map((t) => t.text);
  const needed = new Set(tokens.map((t) => KBSearch.shardOf(t, meta.shardCount)));
  assert.deepEqual(new Set(fetched.filter((n) => n.startsWith('search-shard-'))), new Set([...needed].map((s) => `search-shard-${s}.json`)));
  assert.deepEqual(new Set(fetched.filter((n) => n.startsWith('search-doc-'))), new Set(results.map((r) => `search-doc-${r.docIndex}.json`)));
  assert.ok(!fetched.includes('search-filters.json'), 'filter data is loaded only to filter');
  assert.deepEqual(kb.index.missingShards(q.query), []);
});

test('the parts of a name are asked for only when the index does not have the name', () => {
  let index = KBSearch.createIndex(meta);
  const shard = (t) => KBSearch.shardOf(t, meta.shardCount);
  const load = (shards) => shards.forEach((i) => index.addShard(i, read(`web/search-shard-${i}.json`)));
  const loadAll = (query) => {
    for (let m = index.missing(query); m.shards.length + m.tokenFiles.length + m.vocabularies.length; m = index.missing(query)) {
      load(m.shards);
      m.tokenFiles.forEach((k) => index.addTokenFile(k, read(`web/search-token-${k}.json`)));
      m.vocabularies.forEach((v) => index.addVocabulary(v, read(`web/search-vocab-${v}.json`)));
    }
  };
  // First the name itself; the index has toolbarcolorscheme, so nothing else is needed.
  assert.deepEqual(index.missingShards('toolbarColorScheme'), [shard('toolbarcolorscheme')]);
  load(index.missingShards('toolbarColorScheme'));
  assert.deepEqual(index.missingShards('toolbarColorScheme'), []);
  loadAll('toolbarColorScheme');
  const found = index.search('toolbarColorScheme');
  assert.deepEqual(found.map((r) => read(`web/search-doc-${r.docIndex}.json`).id), ['zh-toolbar-color-scheme']);
  // A name no entry has, on a fresh index: first its own shard only, then, once that says the
  // index lacks it, the shards of its parts (some of them others than the name's here).
  index = KBSearch.createIndex(meta);
  const unknown = 'navigationBarColorScheme';
  const parts = ['navigation', 'bar', 'color', 'scheme'];
  assert.deepEqual(index.missingShards(unknown), [shard('navigationbarcolorscheme')]);
  load(index.missingShards(unknown));
  const partShards = new Set(parts.map(shard).filter((i) => !index.shards[i]));
  assert.ok(partShards.size > 0, 'the fixture puts some part in another shard than the name');
  assert.deepEqual(new Set(index.missingShards(unknown)), partShards);
  load(index.missingShards(unknown));
  assert.deepEqual(index.missingShards(unknown), []);
  loadAll(unknown);
  assert.ok(index.search(unknown).length > 0, 'the parts find entries');
});

test('a cross-language query loads the shards of its concept tokens too', async () => {
  const index = KBSearch.createIndex(meta);
  const tokens = KBSearch.tokenize('网络请求超时', 'query', index.glossary);
  assert.ok(tokens.includes('~c:timeout'));
  const shards = new Set(tokens.map((t) => KBSearch.shardOf(t, meta.shardCount)));
  assert.deepEqual(new Set(index.missingShards('网络请求超时')), shards);

  const fetched = [];
  const fakeFetch = async (url) => {
    const name = url.slice(url.lastIndexOf('/') + 1);
    fetched.push(name);
    return { json: async () => read('web/' + name) };
  };
  const kb = await KBSearch.load('https://example.invalid/search', fakeFetch);
  const results = await kb.search('网络请求超时', { limit: 5 });
  assert.deepEqual(new Set(fetched.filter((n) => n.startsWith('search-shard-'))), new Set([...shards].map((s) => `search-shard-${s}.json`)));
  assert.ok(results.some((r) => r.viaGlossary.includes('timeout')), 'a result matched through the glossary');
  assert.ok(results.every((r) => typeof r.id === 'string' && typeof r.text === 'string'), 'results are described');
});

test('filters need the filter data', () => {
  const index = KBSearch.createIndex(meta);
  for (let i = 0; i < meta.shardCount; i++) index.addShard(i, read(`web/search-shard-${i}.json`));
  for (let k = 0; existsSync(new URL(`web/search-token-${k}.json`, fixtures)); k++) index.addTokenFile(k, read(`web/search-token-${k}.json`));
  assert.throws(() => index.search('键盘', { filters: { langs: ['zh'] } }), /filters not loaded/);
});

test('missing shard is reported, not silently ignored', () => {
  const index = KBSearch.createIndex(meta);
  assert.throws(() => index.search('toolbarColorScheme'), /not loaded/);
});

test('tokens with a postings file of their own give the same results', () => {
  // The same index with every token moved out of its shard into a file of its own, as the
  // export does for tokens with many records: the shard names the file by number.
  const index = KBSearch.createIndex(meta);
  const files = [];
  for (let i = 0; i < meta.shardCount; i++) {
    const shard = read(`web/search-shard-${i}.json`);
    const t = {};
    for (const token of Object.keys(shard.t)) {
      t[token] = files.length;
      files.push({ v: shard.v, t: { [token]: shard.t[token] } });
    }
    index.addShard(i, { v: shard.v, t });
  }
  index.addFilters(read('web/search-filters.json'));
  for (let d = 0; d < meta.n; d++) index.addDoc(d, read(`web/search-doc-${d}.json`));
  for (let v = 0; v < meta.expansion.vocabularyFiles; v++) index.addVocabulary(v, read(`web/search-vocab-${v}.json`));
  for (const q of expected.queries) {
    // An expansion's file is named once the query word's own file is loaded: in rounds.
    let needed = index.missingTokenFiles(q.query);
    if (needed.length) assert.throws(() => index.search(q.query, { limit: q.limit, filters: q.filters }), /token file \d+ not loaded/);
    while (needed.length) {
      for (const k of needed) index.addTokenFile(k, files[k]);
      needed = index.missingTokenFiles(q.query);
    }
    const actual = index.search(q.query, { limit: q.limit, filters: q.filters });
    assert.deepEqual(summary(actual), summary(q.results), q.query);
    assert.deepEqual(actual.map((r) => r.score), q.results.map((r) => r.score), q.query);
  }
});

test('a word being typed is completed, and a one-letter typo corrected, with the files they need', async () => {
  const fetched = [];
  const fakeFetch = async (url) => {
    const name = url.slice(url.lastIndexOf('/') + 1);
    fetched.push(name);
    return { json: async () => read('web/' + name) };
  };
  const kb = await KBSearch.load('https://example.invalid/search', fakeFetch);
  const completed = await kb.search('scrolledgeappear', { limit: 5 });
  assert.equal(completed[0].id, 'ko-navigation-bar-appearance');
  assert.deepEqual(completed[0].viaExpansions, [{ query: 'scrolledgeappear', token: 'scrolledgeappearance', kind: 'prefix' }]);
  assert.ok(fetched.some((n) => n.startsWith('search-vocab-')), 'the vocabulary file of the word is loaded');
  const expansionShard = `search-shard-${KBSearch.shardOf('scrolledgeappearance', meta.shardCount)}.json`;
  assert.ok(fetched.includes(expansionShard), 'the shard of the completion is loaded');
  const snippet = kb.index.snippet(completed[0], completed[0].text, 'scrolledgeappear', 120);
  assert.ok(snippet.highlights.length > 0, 'the completion is highlighted');

  const corrected = await kb.search('apperance', { limit: 5 });
  assert.ok(corrected.length > 0);
  assert.ok(corrected.every((r) => r.viaExpansions.some((e) => e.token === 'appearance' && e.kind === 'typo')));

  // A query that ends with a space is not completed.
  assert.deepEqual(await kb.search('scrolledgeappear ', { limit: 5 }), []);
});
