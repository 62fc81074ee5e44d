// Golden token and snippet vectors, shared with the Swift tests
// (Tests/TroubleshootKBTests/Search/token-vectors.json). Run: node --test Tests/js/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const KBSearch = require('../../site/assets/search-core.js');
const vectors = JSON.parse(readFileSync(new URL('../TroubleshootKBTests/Search/token-vectors.json', import.meta.url), 'utf8'));

const glossary = KBSearch.compileGlossary(vectors.glossary);

for (const c of vectors.cases) {
  test(`tokens: ${c.name}`, () => {
    const actual = KBSearch.analyze(c.text, c.mode, c.glossary ? glossary : null).map((t) => [t.text, t.position, t.kind, t.start, t.end]);
    assert.deepEqual(actual, c.tokens);
  });
}

for (const s of vectors.snippets) {
  test(`snippet: ${s.name}`, () => {
    assert.deepEqual(KBSearch.snippet(s.text, s.query, s.length, s.glossary ? glossary : null), s.expected);
  });
}

test('FNV-1a 32 over UTF-8', () => {
  assert.equal(KBSearch.tokenHash(''), 2166136261);
  assert.equal(KBSearch.tokenHash('a'), 0xE40C292C);
  assert.equal(KBSearch.tokenHash('foobar'), 0xBF9CF968);
  // Multi-byte: hash of the UTF-8 bytes of 导航 (e5 af bc e8 88 aa).
  let h = 0x811C9DC5;
  for (const b of Buffer.from('导航', 'utf8')) h = Math.imul(h ^ b, 16777619) >>> 0;
  assert.equal(KBSearch.tokenHash('导航'), h);
});

test('piecewise NFKC equals whole-string NFKC', () => {
  const samples = ['ﾃﾞｰﾀ①㍿ ﬁ', '한\u11AB글 ㅋㅏ', 'e\u0301\u0323x', 'ＡＢＣ\u0301', '\u0301abc', 'ｶﾞｷﾞ　ＵＩ'];
  for (const s of samples) assert.equal(KBSearch.normalize(s), s.normalize('NFKC'), JSON.stringify(s));
});

test('highlightHTML escapes and marks', () => {
  const html = KBSearch.highlightHTML({ text: 'a<b> URLSession', highlights: [[5, 15]], truncatedStart: true, truncatedEnd: false });
  assert.equal(html, '…a&lt;b&gt; <mark>URLSession</mark>');
});
