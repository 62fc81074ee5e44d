// Quantized field lengths (docs/search.md §3.1): search-core.js against the table the Swift test
// writes (Tests/TroubleshootKBTests/Search/field-length-codes.json, SearchFieldLengthTests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const KBSearch = require('../../site/assets/search-core.js');
const table = JSON.parse(readFileSync(new URL('../TroubleshootKBTests/Search/field-length-codes.json', import.meta.url), 'utf8'));

test('codes and scored lengths equal the Swift table', () => {
  assert.ok(table.lengths.length > 2000 && table.lengths.length === table.codes.length && table.codes.length === table.scored.length);
  const codes = table.lengths.map(KBSearch.fieldLengthCode);
  const scored = codes.map(KBSearch.fieldLength);
  assert.deepEqual(codes, table.codes);
  assert.deepEqual(scored, table.scored);
});

test('exact below 16, monotone, every code round-trips', () => {
  for (let n = 0; n < 16; n++) assert.equal(KBSearch.fieldLengthCode(n), n);
  let previous = -1;
  for (const n of table.lengths) {
    const c = KBSearch.fieldLengthCode(n);
    assert.ok(c >= previous, `code(${n})`);
    previous = c;
  }
  const last = KBSearch.fieldLengthCode(2147483647);
  for (let c = 0; c <= last; c++) assert.equal(KBSearch.fieldLengthCode(KBSearch.fieldLength(c)), c, `code ${c}`);
});
