// The site's in-browser search gives the same ranking as `kb search` on every development query.
// Needs a site built from entries/ (make test builds it into .build/test-site; KB_TEST_SITE
// overrides) and the kb binary (.build/debug/kb; KB_BINARY overrides). Skips, saying why, when
// either is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const KBSearch = require('../../site/assets/search-core.js');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.KB_TEST_SITE || path.join(repo, '.build/test-site');
const kb = process.env.KB_BINARY || path.join(repo, '.build/debug/kb');
// The shared development data: KB_SHARED_DIR, ../shared beside the checkout, or /work/shared.
const queriesFile = [process.env.KB_SHARED_DIR, path.join(repo, '../shared'), '/work/shared']
  .filter(Boolean).map((d) => path.join(d, 'queries/dev.tsv')).find((f) => existsSync(f)) || path.join(repo, '../shared/queries/dev.tsv');

/** Runs a site data file (`__kbSearchData(kind, n, data);`) and returns its data. */
function loadData(file) {
  let result;
  vm.runInNewContext(readFileSync(file, "utf8"), { __kbSearchData: (kind, n, data) => { result = { kind, n, data: JSON.parse(JSON.stringify(data)) }; } });
  return result;
}

const missing = [
  !existsSync(path.join(site, 'search/meta.js')) && `no built site at ${site} (run: kb build --out ${site})`,
  !existsSync(kb) && `no kb binary at ${kb}`,
  !existsSync(queriesFile) && `no development queries at ${queriesFile}`,
].filter(Boolean);

if (missing.length) {
  test('site search parity', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const meta = loadData(path.join(site, 'search/meta.js')).data;
  const index = KBSearch.createIndex(meta);
  const rows = readFileSync(queriesFile, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  // Words being typed and one-letter typos (docs/search.md §4.1).
  rows.push(['scrolledgeappear', 'nav-bar-shadow-ios17', 'prefix'], ['toolbarcolor', 'large-title-custom-background', 'prefix'],
    ['navigation bar appearence', 'nav-bar-shadow-ios17', 'typo']);

  /**
   * Loads what search.js loads for `query`, in rounds: its shards, the token files they name,
   * the vocabulary files of words that may expand, then what their expansions need.
   */
  function loadPostings(query) {
    for (let m = index.missing(query); m.shards.length + m.tokenFiles.length + m.vocabularies.length; m = index.missing(query)) {
      for (const s of m.shards) index.addShard(s, loadData(path.join(site, `search/shard-${s}.js`)).data);
      for (const k of m.tokenFiles) index.addTokenFile(k, loadData(path.join(site, `search/token-${k}.js`)).data);
      for (const v of m.vocabularies) index.addVocabulary(v, loadData(path.join(site, `search/vocab-${v}.js`)).data);
    }
  }

  /** Loads the document files of `results` and fills in their ids, anchors and texts. */
  function describe(results) {
    for (const d of index.missingDocs(results)) index.addDoc(d, loadData(path.join(site, `search/doc-${d}.js`)).data);
    return results.map((r) => index.describe(r));
  }

  test('the site index holds every entry', () => {
    const entries = readdirSync(path.join(repo, 'entries')).filter((d) => existsSync(path.join(repo, 'entries', d, 'entry.md')));
    const ids = Array.from({ length: meta.n }, (_, d) => loadData(path.join(site, `search/doc-${d}.js`)).data.id);
    assert.deepEqual(ids.sort(), entries.sort());
  });

  for (const [query, expected, segment] of rows) {
    test(`same ranking as kb search [${segment}] ${query}`, () => {
      loadPostings(query);
      const js = describe(index.search(query, { limit: 10 }));
      let cli = [];
      try {
        cli = JSON.parse(execFileSync(kb, ['search', query, '--format', 'json', '--limit', '10'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      } catch (error) {
        if (error.status !== 1) throw error; // 1 = no match
      }
      assert.deepEqual(js.map((r) => r.id), cli.map((r) => r.id));
      assert.deepEqual(js.map((r) => r.anchor ?? null), cli.map((r) => r.anchor ?? null));
      for (let i = 0; i < js.length; i++) {
        assert.ok(Math.abs(js[i].score - cli[i].score) <= 1e-9 * Math.max(1, Math.abs(cli[i].score)), `${js[i].id}: ${js[i].score} vs ${cli[i].score}`);
      }
      assert.equal(js[0] && js[0].id, expected, `first result for ${query}`);
    });
  }

  test('document texts give the snippet of the best text', () => {
    const query = '大标题看不见';
    loadPostings(query);
    const [top] = describe(index.search(query, { limit: 1 }));
    const snip = KBSearch.snippet(top.text, query, 120);
    assert.ok(snip.highlights.length > 0, JSON.stringify(snip));
  });
}
