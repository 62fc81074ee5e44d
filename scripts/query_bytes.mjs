// Bytes a browser loads for one search query, for kb's site and for Pagefind, counted the same
// way: every file the search code requests (script, WebAssembly, index data, result data),
// at its size on disk (no HTTP compression), for the first `shown` results.
//
//   node scripts/query_bytes.mjs kb <site dir> <shown> <query>...
//   node scripts/query_bytes.mjs pagefind <site dir with pagefind/> <lang> <shown> <query>...
//
// kb: assets/search-core.js and assets/search.js, search/meta.js, the shards of the query's
// tokens, the token files its shards name, the vocabulary files of the words that may expand (and
// their expansions' shards and files) and the document files of the shown results — what
// site/assets/search.js loads.
// Pagefind: pagefind.js is run under node with fetch() served from disk and counted: it loads
// pagefind-entry.json, the WebAssembly, the language's pf_meta, the index chunks of the query's
// words and, for the shown results, their fragments (`result.data()`).
// Prints one JSON object per query: {query, bytes, files: [absolute paths], results}.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import vm from 'node:vm';

const [, , kind, root, ...rest] = process.argv;

function loadData(file) {
  let result;
  vm.runInNewContext(readFileSync(file, 'utf8'), { __kbSearchData: (k, n, data) => { result = data; } });
  return result;
}

if (kind === 'kb') {
  const shown = Number(rest[0]);
  const KBSearch = createRequire(import.meta.url)(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../site/assets/search-core.js'));
  for (const query of rest.slice(1)) {
    const files = ['assets/search-core.js', 'assets/search.js', 'search/meta.js'];
    const index = KBSearch.createIndex(loadData(path.join(root, 'search/meta.js')));
    // In rounds until nothing is missing, as site/assets/search.js loads: shards, the token
    // files they name, the vocabulary files of words that may expand, then their expansions'.
    for (;;) {
      const m = index.missing(query);
      if (m.shards.length + m.tokenFiles.length + m.vocabularies.length === 0) break;
      for (const s of m.shards) {
        files.push(`search/shard-${s}.js`);
        index.addShard(s, loadData(path.join(root, `search/shard-${s}.js`)));
      }
      for (const k of m.tokenFiles) {
        files.push(`search/token-${k}.js`);
        index.addTokenFile(k, loadData(path.join(root, `search/token-${k}.js`)));
      }
      for (const v of m.vocabularies) {
        files.push(`search/vocab-${v}.js`);
        index.addVocabulary(v, loadData(path.join(root, `search/vocab-${v}.js`)));
      }
    }
    const results = index.search(query, { limit: shown });
    for (const r of results) files.push(`search/doc-${r.docIndex}.js`);
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(root, f)).size, 0);
    console.log(JSON.stringify({ query, bytes, files: files.map((f) => path.resolve(root, f)), results: results.length }));
  }
} else if (kind === 'pagefind') {
  const [lang, shownText, ...queries] = rest;
  const shown = Number(shownText);
  const dir = path.join(root, 'pagefind');
  for (const query of queries) {
    const counted = new Map();
    globalThis.fetch = async (input) => {
      const url = new URL(String(input), pathToFileURL(dir + '/'));
      const file = fileURLToPath(url);
      const data = readFileSync(file);
      counted.set(file, data.length);
      return new Response(data, { status: 200, headers: { 'content-type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream' } });
    };
    globalThis.document = { querySelector: () => ({ getAttribute: () => lang }), currentScript: null };
    globalThis.location = { href: pathToFileURL(root + '/index.html').href };
    counted.set(path.join(dir, 'pagefind.js'), statSync(path.join(dir, 'pagefind.js')).size);
    // A fresh module instance per query (no cache between queries).
    const pagefind = await import(pathToFileURL(path.join(dir, 'pagefind.js')).href + `?q=${encodeURIComponent(query)}`);
    await pagefind.options({ basePath: pathToFileURL(dir + '/').href });
    const search = await pagefind.search(query);
    const results = search.results.slice(0, shown);
    await Promise.all(results.map((r) => r.data()));
    const bytes = [...counted.values()].reduce((a, b) => a + b, 0);
    console.log(JSON.stringify({ query, bytes, files: [...counted.keys()], results: search.results.length }));
  }
} else {
  console.error('usage: query_bytes.mjs kb|pagefind ...');
  process.exit(2);
}
