/*
 * KBSearch — the TroubleshootKB search core in plain JavaScript.
 *
 * The query side of the search that Sources/KBSearch implements in Swift (tokenizer,
 * glossary, expansions, ranking over the web index): docs/search.md is the spec both follow, and the
 * parity tests (Tests/js/entries.test.mjs, tokenizer.test.mjs, SearchWebFixtureTests) hold them to the
 * same tokens and the same results.
 * Runs as a classic <script> (defines the global `KBSearch`) and under node (module.exports).
 * No dependencies.
 */
(function (root) {
  'use strict';

  // ---------------------------------------------------------------------------------------------
  // Script classes and normalisation tables

  var OTHER = 0, HAN = 1, KANA = 2, HANGUL = 3, UPPER = 4, LOWER = 5, DIGIT = 6, UNDERSCORE = 7,
    LETTER = 8, DOT = 9;

  function inRanges(v, ranges) {
    for (var i = 0; i < ranges.length; i += 2) {
      if (v >= ranges[i] && v <= ranges[i + 1]) return true;
    }
    return false;
  }

  var HAN_RANGES = [0x3005, 0x3005, 0x3007, 0x3007, 0x3021, 0x3029, 0x3038, 0x303B, 0x3400, 0x4DBF,
    0x4E00, 0x9FFF, 0xF900, 0xFAFF, 0x20000, 0x323AF];
  var KANA_RANGES = [0x3041, 0x3096, 0x3099, 0x309F, 0x30A1, 0x30FA, 0x30FC, 0x30FF, 0x31F0, 0x31FF,
    0xFF66, 0xFF9F, 0x1B000, 0x1B16F];
  var HANGUL_RANGES = [0x1100, 0x11FF, 0x3131, 0x318E, 0xA960, 0xA97F, 0xAC00, 0xD7A3, 0xD7B0, 0xD7FF,
    0xFFA0, 0xFFDC];
  var LETTER_RANGES = [0x00C0, 0x00D6, 0x00D8, 0x00F6, 0x00F8, 0x02AF, 0x0300, 0x036F, 0x0370, 0x03FF,
    0x0400, 0x052F, 0x1E00, 0x1EFF];
  // Scalars NFKC leaves alone and that never combine with the scalar before them.
  var INERT_RANGES = [0x3001, 0x3029, 0x3030, 0x3035, 0x3037, 0x3037, 0x303B, 0x303F, 0x3041, 0x3096,
    0x309D, 0x309E, 0x30A0, 0x30FE, 0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xAC00, 0xD7A3,
    0x00A1, 0x00A7, 0x00A9, 0x00A9, 0x00AB, 0x00AE, 0x00B0, 0x00B1, 0x00B6, 0x00B7, 0x00BB, 0x00BB,
    0x00BF, 0x0131, 0x0134, 0x013E, 0x0141, 0x0148, 0x014A, 0x017E, 0x0180, 0x01C3,
    0x01CD, 0x01F0, 0x01F4, 0x02AF, 0x02B9, 0x02D7, 0x02DE, 0x02DF, 0x02E5, 0x02FF,
    0x034F, 0x034F, 0x0370, 0x0373, 0x0375, 0x0377, 0x037B, 0x037D, 0x037F, 0x037F, 0x0386, 0x0386,
    0x0388, 0x038A, 0x038C, 0x038C, 0x038E, 0x03A1, 0x03A3, 0x03CF, 0x03D7, 0x03EF, 0x03F3, 0x03F3,
    0x03F6, 0x03F8, 0x03FA, 0x0482, 0x0488, 0x052F, 0x1100, 0x1160, 0x1176, 0x11A7,
    0x11C3, 0x11FF, 0x1E00, 0x1E99, 0x1E9C, 0x1EFF, 0x200B, 0x2010, 0x2012, 0x2016,
    0x2018, 0x2023, 0x2027, 0x202E, 0x2030, 0x2032, 0x2035, 0x2035, 0x2038, 0x203B, 0x203D, 0x203D,
    0x203F, 0x2046, 0x204A, 0x2056, 0x2058, 0x205E, 0x2060, 0x2064, 0x2066, 0x206F];

  // Scalars before which text can be cut for piecewise NFKC besides the inert ones: ccc 0, not
  // the second half of a composition, NFKD starting with an inert starter.
  var SEGMENT_START_RANGES = [0x00A0, 0x00A0, 0x00A8, 0x00A8, 0x00AA, 0x00AA, 0x00AF, 0x00AF, 0x00B2, 0x00B5, 0x00B8, 0x00BA, 0x00BC, 0x00BE, 0x0132, 0x0133, 0x013F, 0x0140, 0x0149, 0x0149, 0x017F, 0x017F, 0x01C4, 0x01CC, 0x01F1, 0x01F3, 0x2000, 0x200A, 0x2011, 0x2011, 0x2017, 0x2017, 0x2024, 0x2026, 0x202F, 0x202F, 0x2033, 0x2034, 0x2036, 0x2037, 0x203C, 0x203C, 0x203E, 0x203E, 0x2047, 0x2049, 0x2057, 0x2057, 0x205F, 0x205F, 0x2150, 0x217F, 0x2189, 0x2189, 0x2460, 0x24EA, 0x3000, 0x3000, 0x3036, 0x3036, 0x3038, 0x303A, 0x309B, 0x309C, 0x309F, 0x309F, 0x30FF, 0x30FF, 0x3131, 0x3132, 0x3134, 0x3134, 0x3137, 0x3139, 0x3140, 0x314E, 0x3164, 0x318E, 0x3200, 0x321E, 0x3220, 0x3247, 0x3250, 0x327E, 0x3280, 0x33FF, 0xF900, 0xFA0D, 0xFA10, 0xFA10, 0xFA12, 0xFA12, 0xFA15, 0xFA1E, 0xFA20, 0xFA20, 0xFA22, 0xFA22, 0xFA25, 0xFA26, 0xFA2A, 0xFA6D, 0xFA70, 0xFAD9, 0xFB00, 0xFB06, 0xFF01, 0xFF9D, 0xFFA0, 0xFFA2, 0xFFA4, 0xFFA4, 0xFFA7, 0xFFA9, 0xFFB0, 0xFFBE, 0xFFE0, 0xFFE6, 0xFFE8, 0xFFEE];

  function classify(v) {
    if (v < 0x80) {
      if (v >= 0x61) return v <= 0x7A ? LOWER : OTHER;
      if (v >= 0x41) return v <= 0x5A ? UPPER : (v === 0x5F ? UNDERSCORE : OTHER);
      if (v >= 0x30) return v <= 0x39 ? DIGIT : OTHER;
      return v === 0x2E ? DOT : OTHER;
    }
    if (inRanges(v, HAN_RANGES)) return HAN;
    if (inRanges(v, KANA_RANGES)) return KANA;
    if (inRanges(v, HANGUL_RANGES)) return HANGUL;
    if (inRanges(v, LETTER_RANGES)) return LETTER;
    return OTHER;
  }

  function isWordClass(c) {
    return c === UPPER || c === LOWER || c === DIGIT || c === UNDERSCORE || c === LETTER;
  }

  function isInert(v) {
    return v < 0xA0 || inRanges(v, INERT_RANGES);
  }

  function startsSegment(v) {
    return isInert(v) || inRanges(v, SEGMENT_START_RANGES);
  }

  function simpleMapping(v) {
    if (v >= 0xFF01 && v <= 0xFF5E) return v - 0xFEE0;
    if (v === 0x3000 || v === 0x00A0) return 0x20;
    return -1;
  }

  function codePoints(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.length) {
        var d = text.charCodeAt(i + 1);
        if (d >= 0xDC00 && d <= 0xDFFF) {
          out.push(((c - 0xD800) << 10) + (d - 0xDC00) + 0x10000);
          i++;
          continue;
        }
      }
      out.push(c);
    }
    return out;
  }

  /** Piecewise NFKC: returns {cps, start, end}; start/end are code point offsets in the original. */
  function normalizeWithOrigins(text) {
    var orig = codePoints(text);
    var n = orig.length;
    var cps = [], start = [], end = [];
    var i = 0;
    while (i < n) {
      var c = orig[i];
      var j = i + 1;
      while (j < n && !startsSegment(orig[j])) j++;
      if (j === i + 1 && isInert(c)) {
        cps.push(c); start.push(i); end.push(j);
      } else if (j === i + 1 && simpleMapping(c) >= 0) {
        cps.push(simpleMapping(c)); start.push(i); end.push(j);
      } else {
        var seg = String.fromCodePoint.apply(null, orig.slice(i, j)).normalize('NFKC');
        var segCps = codePoints(seg);
        for (var k = 0; k < segCps.length; k++) { cps.push(segCps[k]); start.push(i); end.push(j); }
      }
      i = j;
    }
    return { cps: cps, start: start, end: end };
  }

  function lowerString(v) {
    if (v < 0x80) return String.fromCharCode(v >= 0x41 && v <= 0x5A ? v + 32 : v);
    return String.fromCodePoint(v).toLowerCase();
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens

  var STOP_WORDS = ['a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into',
    'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these',
    'they', 'this', 'to', 'was', 'will', 'with'];
  var STOP = Object.create(null);
  STOP_WORDS.forEach(function (w) { STOP[w] = true; });

  /** Light plural stemming of lower-case ASCII words of length >= 4 (docs/search.md). */
  function stem(w) {
    var n = w.length;
    if (n < 4 || w[n - 1] !== 's') return w;
    var c2 = w[n - 2], c3 = w[n - 3], c4 = w[n - 4], c5 = n >= 5 ? w[n - 5] : '';
    if (c2 === 'e' && c3 === 'i') return (c4 !== 'e' && c4 !== 'a') ? w.slice(0, n - 3) + 'y' : w;
    if (c2 === 'e') {
      var dropES = (c3 === 's' && c4 === 's') || (c3 === 'h' && c4 === 's') ||
        (c3 === 'h' && c4 === 'c' && c5 !== 'a') || c3 === 'x';
      if (dropES) return w.slice(0, n - 2);
      return (c3 !== 'a' && c3 !== 'e' && c3 !== 'o') ? w.slice(0, n - 1) : w;
    }
    return (c2 !== 'u' && c2 !== 's' && c2 !== 'o' && c2 !== 'i') ? w.slice(0, n - 1) : w;
  }

  /**
   * Tokens of `text`: [{text, position, kind, start, end}], kind one of bigram, unigram, word,
   * identifier, part; start/end are code point offsets of the original text.
   * mode: 'document' (default) or 'query'.
   */
  function analyze(text, mode, glossary) {
    return analyzeFull(text, mode, glossary).tokens.map(function (t) {
      return { text: t.text, position: t.position, kind: t.kind, start: t.start, end: t.end };
    });
  }

  /**
   * Tokens with their normalised ranges (a, b) and the number of literal tokens; with a compiled
   * glossary, concept tokens follow the literal ones (docs/search.md, "Cross-language search").
   */
  function analyzeFull(text, mode, glossary) {
    var query = mode === 'query';
    var norm = normalizeWithOrigins(String(text));
    var cps = norm.cps, ns = norm.start, ne = norm.end;
    var n = cps.length;
    var out = [];
    var track = !!(glossary && glossary.termCps.length);
    var scalarPos = track ? new Int32Array(n).fill(-1) : null;

    function emit(str, position, kind, a, b) {
      out.push({ text: str, position: position, kind: kind, start: ns[a], end: ne[b - 1], a: a, b: b });
    }

    function lower(a, b) {
      var s = '';
      for (var k = a; k < b; k++) s += lowerString(cps[k]);
      return s;
    }

    function emitWordLike(a, b, pos, kind) {
      var asciiLetters = true;
      for (var k = a; k < b; k++) {
        var v = cps[k];
        if (!((v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A))) { asciiLetters = false; break; }
      }
      var s = lower(a, b);
      if (asciiLetters) {
        if (STOP[s] === true) return;
        s = stem(s);
      }
      emit(s, pos, kind, a, b);
    }

    function splitParts(a, b) {
      var parts = [];
      var start = -1;
      for (var k = a; k < b; k++) {
        var c = classify(cps[k]);
        if (c === UNDERSCORE) {
          if (start >= 0) { parts.push([start, k]); start = -1; }
          continue;
        }
        if (start < 0) { start = k; continue; }
        var p = classify(cps[k - 1]);
        var boundary = false;
        var pLetter = p === LOWER || p === LETTER || p === UPPER;
        var cLetter = c === LOWER || c === LETTER || c === UPPER;
        if (p === LOWER && c === UPPER) {
          boundary = true;
        } else if ((pLetter && c === DIGIT) || (p === DIGIT && cLetter)) {
          boundary = true;
        } else if (p === UPPER && c === UPPER && k + 1 < b && classify(cps[k + 1]) === LOWER) {
          // "URLSession" splits before "S"; "URLs" (a lone plural s) does not.
          var loneS = cps[k + 1] === 0x73 && (k + 2 >= b || classify(cps[k + 2]) !== LOWER);
          boundary = !loneS;
        }
        if (boundary) { parts.push([start, k]); start = k; }
      }
      if (start >= 0) parts.push([start, b]);
      return parts;
    }

    function emitSegment(a, b, pos, dotted) {
      var parts = splitParts(a, b);
      if (track) {
        for (var p = 0; p < parts.length; p++) for (var q = parts[p][0]; q < parts[p][1]; q++) scalarPos[q] = pos + p;
      }
      if (parts.length >= 2) {
        emit(lower(a, b), pos, 'identifier', a, b);
        for (var i = 0; i < parts.length; i++) emitWordLike(parts[i][0], parts[i][1], pos + i, 'part');
      } else if (parts.length === 1) {
        emitWordLike(parts[0][0], parts[0][1], pos, dotted ? 'part' : 'word');
      }
      return pos + parts.length;
    }

    function emitLatinRun(a, b, pos) {
      var hasDot = false;
      for (var k = a; k < b; k++) if (cps[k] === 0x2E) { hasDot = true; break; }
      if (hasDot) emit(lower(a, b), pos, 'identifier', a, b);
      var cur = pos, segStart = a;
      for (k = a; k <= b; k++) {
        if (k === b || cps[k] === 0x2E) {
          if (k > segStart) cur = emitSegment(segStart, k, cur, hasDot);
          segStart = k + 1;
        }
      }
      return cur;
    }

    function emitCJKRun(a, b, pos) {
      var len = b - a;
      var unigrams = !query || len === 1;
      if (track) for (var m = 0; m < len; m++) scalarPos[a + m] = pos + m;
      for (var k = 0; k < len; k++) {
        var c = String.fromCodePoint(cps[a + k]);
        if (unigrams) emit(c, pos + k, 'unigram', a + k, a + k + 1);
        if (k + 1 < len) emit(c + String.fromCodePoint(cps[a + k + 1]), pos + k, 'bigram', a + k, a + k + 2);
      }
    }

    var i = 0, pos = 0;
    while (i < n) {
      var cls = classify(cps[i]);
      var j;
      if (cls === HAN || cls === KANA || cls === HANGUL) {
        var hangul = cls === HANGUL;
        j = i + 1;
        while (j < n) {
          var c = classify(cps[j]);
          if (hangul ? c !== HANGUL : (c !== HAN && c !== KANA)) break;
          j++;
        }
        emitCJKRun(i, j, pos);
        pos += j - i;
        i = j;
      } else if (isWordClass(cls)) {
        j = i + 1;
        while (j < n) {
          var cj = classify(cps[j]);
          if (isWordClass(cj)) j++;
          else if (cj === DOT && j + 1 < n && isWordClass(classify(cps[j + 1]))) j++;
          else break;
        }
        pos = emitLatinRun(i, j, pos);
        i = j;
      } else {
        i++;
      }
    }
    var literalCount = out.length;
    if (track) {
      var next = pos;
      for (var k = n - 1; k >= 0; k--) {
        if (scalarPos[k] < 0) scalarPos[k] = next; else next = scalarPos[k];
      }
      var mtext = new Array(n);
      for (k = 0; k < n; k++) mtext[k] = matchingScalar(cps[k]);
      glossaryMatches(glossary, mtext).forEach(function (m) {
        out.push({ text: glossary.tokens[m.concept], position: scalarPos[m.start], kind: 'concept',
          start: ns[m.start], end: ne[m.end - 1], a: m.start, b: m.end });
      });
    }
    return { tokens: out, literalCount: literalCount, length: n };
  }

  // ---------------------------------------------------------------------------------------------
  // Glossary (docs/search.md, "Cross-language search")

  /** Matching form of one normalised scalar. */
  function matchingScalar(v) {
    if (v < 0x80) {
      if (v >= 0x41 && v <= 0x5A) return v + 32;
      if (v === 0x09 || v === 0x0A || v === 0x0D) return 0x20;
      return v;
    }
    if (v === 0x2018 || v === 0x2019) return 0x27;
    if (classify(v) === LETTER) {
      var lower = codePoints(String.fromCodePoint(v).toLowerCase());
      if (lower.length === 1) return lower[0];
    }
    return v;
  }

  /** A term in matching form (code points): NFKC, mapped, spaces trimmed and collapsed. */
  function matchingScalars(term) {
    var src = normalizeWithOrigins(String(term)).cps, out = [];
    for (var i = 0; i < src.length; i++) {
      var v = matchingScalar(src[i]);
      if (v === 0x20 && (out.length === 0 || out[out.length - 1] === 0x20)) continue;
      out.push(v);
    }
    if (out.length && out[out.length - 1] === 0x20) out.pop();
    return out;
  }

  function isWordScalar(v) { return isWordClass(classify(v)); }

  /**
   * Compiles a glossary: [{id, name, terms: [...]}] (the web index's `glossary`). Terms are
   * brought to matching form; empty and repeated terms of a concept are dropped.
   */
  function compileGlossary(concepts) {
    var g = { concepts: [], tokens: [], termCps: [], termConcept: [], termLatin: [], byFirst: new Map() };
    (concepts || []).forEach(function (c) {
      var terms = [];
      (c.terms || []).forEach(function (raw) {
        var form = matchingScalars(raw);
        if (!form.length) return;
        var str = String.fromCodePoint.apply(null, form);
        if (terms.indexOf(str) >= 0) return;
        terms.push(str);
        var k = g.termCps.length;
        if (!g.byFirst.has(form[0])) g.byFirst.set(form[0], []);
        g.byFirst.get(form[0]).push(k);
        g.termCps.push(form);
        g.termConcept.push(g.concepts.length);
        var latin = true;
        for (var i = 0; i < form.length; i++) {
          var cl = classify(form[i]);
          if (cl === HAN || cl === KANA || cl === HANGUL) { latin = false; break; }
        }
        g.termLatin.push(latin);
      });
      g.concepts.push({ id: c.id, name: c.name === undefined ? c.id : c.name, terms: terms });
      g.tokens.push('~c:' + c.id);
    });
    return g;
  }

  /** Concept matches [{concept, start, end}] in matching-form code points. */
  function glossaryMatches(g, text) {
    var out = [], n = text.length, cc = g.concepts.length;
    var lastEnd = new Int32Array(cc), bestEnd = new Int32Array(cc).fill(-1);
    for (var i = 0; i < n; i++) {
      var candidates = g.byFirst.get(text[i]);
      if (!candidates) continue;
      var startsWord = i === 0 || !isWordScalar(text[i - 1]);
      var found = [];
      for (var x = 0; x < candidates.length; x++) {
        var k = candidates[x];
        if (g.termLatin[k] && !startsWord) continue;
        var end = matchEnd(g, k, text, i);
        if (end < 0) continue;
        var c = g.termConcept[k];
        if (bestEnd[c] < 0) found.push(c);
        if (end > bestEnd[c]) bestEnd[c] = end;
      }
      found.sort(function (u, v) { return u - v; });
      for (x = 0; x < found.length; x++) {
        c = found[x];
        if (i >= lastEnd[c]) {
          out.push({ concept: c, start: i, end: bestEnd[c] });
          lastEnd[c] = bestEnd[c];
        }
        bestEnd[c] = -1;
      }
    }
    return out;
  }

  function matchEnd(g, k, text, i) {
    var term = g.termCps[k], n = text.length, j = i;
    for (var t = 0; t < term.length; t++) {
      if (j >= n) return -1;
      if (term[t] === 0x20) {
        if (text[j] !== 0x20) return -1;
        while (j < n && text[j] === 0x20) j++;
      } else {
        if (text[j] !== term[t]) return -1;
        j++;
      }
    }
    if (g.termLatin[k] && j < n && isWordScalar(text[j])) {
      if (!(text[j] === 0x73 && (j + 1 === n || !isWordScalar(text[j + 1])))) return -1;
      j++;
    }
    return j;
  }

  function tokenize(text, mode, glossary) {
    return analyze(text, mode, glossary).map(function (t) { return t.text; });
  }

  function normalize(text) {
    return String.fromCodePoint.apply(null, normalizeWithOrigins(String(text)).cps);
  }

  /** FNV-1a 32-bit over the UTF-8 bytes of `token`. */
  function tokenHash(token) {
    var h = 0x811C9DC5;
    var cps = codePoints(token);
    function add(b) { h = Math.imul(h ^ b, 16777619) >>> 0; }
    for (var i = 0; i < cps.length; i++) {
      var v = cps[i];
      if (v < 0x80) add(v);
      else if (v < 0x800) { add(0xC0 | (v >> 6)); add(0x80 | (v & 0x3F)); }
      else if (v < 0x10000) { add(0xE0 | (v >> 12)); add(0x80 | ((v >> 6) & 0x3F)); add(0x80 | (v & 0x3F)); }
      else {
        add(0xF0 | (v >> 18)); add(0x80 | ((v >> 12) & 0x3F)); add(0x80 | ((v >> 6) & 0x3F)); add(0x80 | (v & 0x3F));
      }
    }
    return h >>> 0;
  }

  function shardOf(token, shardCount) {
    return tokenHash(token) % Math.max(1, shardCount);
  }

  // ---------------------------------------------------------------------------------------------
  // Prefix and typo expansions (docs/search.md §4.1); the numbers come from the metadata.

  /** Every scalar a word scalar or a dot, and at least one a letter (a-z or class letter). */
  function isWordShaped(cps) {
    var letter = false;
    for (var i = 0; i < cps.length; i++) {
      var c = classify(cps[i]);
      if (c === LOWER || c === LETTER) letter = true;
      else if (c !== UPPER && c !== DIGIT && c !== UNDERSCORE && c !== DOT) return false;
    }
    return letter;
  }

  function sameFrom(a, i, b, j) {
    if (a.length - i !== b.length - j) return false;
    for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false;
    return true;
  }

  /** Whether b is one insertion, deletion, substitution or adjacent transposition away from a. */
  function isOneEdit(a, b) {
    var m = a.length, n = b.length;
    if (m - n > 1 || n - m > 1) return false;
    var i = 0;
    while (i < m && i < n && a[i] === b[i]) i++;
    if (m === n) {
      if (i === m) return false;
      if (sameFrom(a, i + 1, b, i + 1)) return true;
      return i + 1 < m && a[i] === b[i + 1] && a[i + 1] === b[i] && sameFrom(a, i + 2, b, i + 2);
    }
    return m < n ? sameFrom(a, i, b, i + 1) : sameFrom(a, i + 1, b, i);
  }

  function compareScalars(a, b) {
    for (var i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }

  /** The most frequent first, then in scalar (= UTF-8 byte) order. */
  function byFrequency(u, v) { return u.df !== v.df ? v.df - u.df : compareScalars(u.cps, v.cps); }

  function startsWith(cps, prefix) {
    if (cps.length < prefix.length) return false;
    for (var i = 0; i < prefix.length; i++) if (cps[i] !== prefix[i]) return false;
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Index over the web export (search-meta.json, search-shard-<i>.json, search-doc-<d>.json,
  // search-filters.json)

  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var B64_VALUE = new Int8Array(128).fill(-1);
  for (var bi = 0; bi < 64; bi++) B64_VALUE[B64.charCodeAt(bi)] = bi;

  // Postings digits (docs/search.md §6): the 90 printable ASCII characters from space to '~'
  // except " & < > \, in value order; a number below t is one digit, a larger one v is the digit
  // t + (v - t) % (90 - t) followed by the number (v - t) / (90 - t). t per kind of number:
  var DIGIT_VALUE = new Int8Array(128).fill(-1);
  for (var dc = 0x20, dv = 0; dc <= 0x7E; dc++) if ('"&<>\\'.indexOf(String.fromCharCode(dc)) < 0) DIGIT_VALUE[dc] = dv++;
  var T_HEAD = 80, T_TEXT = 80, T_LENGTH = 64, T_POSITION = 80, T_SMALL = 80;

  // Field lengths (docs/search.md §3.1, Swift SearchFieldLength): a record stores the code of
  // its field's length; lengths 0-15 are their own code, longer ones fall into 8 buckets per
  // doubling (3 bits after the leading bit) and are scored as the bucket's lower end.
  var LENGTH_MANTISSA_BITS = 3, LENGTH_EXACT_BELOW = 16;

  /** The web format this file reads (docs/search.md §6; Swift SearchWebExport.formatVersion). */
  var FORMAT_VERSION = 7;

  /** The code of a field length (an integer >= 0). */
  function fieldLengthCode(length) {
    if (length < LENGTH_EXACT_BELOW) return length;
    var e = 31 - Math.clz32(length), shift = e - LENGTH_MANTISSA_BITS;
    var mantissa = (length >>> shift) & ((1 << LENGTH_MANTISSA_BITS) - 1);
    return LENGTH_EXACT_BELOW + ((shift - 1) << LENGTH_MANTISSA_BITS) + mantissa;
  }

  /** The length a code stands for in scoring: the smallest length with that code. */
  function fieldLength(code) {
    if (code < LENGTH_EXACT_BELOW) return code;
    var shift = ((code - LENGTH_EXACT_BELOW) >>> LENGTH_MANTISSA_BITS) + 1;
    var mantissa = (code - LENGTH_EXACT_BELOW) & ((1 << LENGTH_MANTISSA_BITS) - 1);
    return ((1 << LENGTH_MANTISSA_BITS) | mantissa) * Math.pow(2, shift);
  }

  /** Decodes base-64 varints (5 bits per character, low first, +32 when more follow). */
  function decodeVarints(str) {
    var out = [], v = 0, shift = 0;
    for (var i = 0; i < str.length; i++) {
      var c = str.charCodeAt(i), x = c < 128 ? B64_VALUE[c] : -1;
      if (x < 0) throw new Error('KBSearch: bad varint data');
      v += (x & 31) * Math.pow(2, shift);
      if (x & 32) { shift += 5; } else { out.push(v); v = 0; shift = 0; }
    }
    if (shift) throw new Error('KBSearch: truncated varint data');
    return out;
  }

  function Index(meta) {
    if (!meta || meta.format !== 'kb-search' || meta.version !== FORMAT_VERSION) throw new Error('KBSearch: unsupported index');
    this.meta = meta;
    this.glossary = compileGlossary(meta.glossary || []);
    this.codeField = meta.fields.indexOf('code');
    this.shards = Object.create(null);
    this.tokenFiles = Object.create(null);
    this.entries = Object.create(null);
    this.docs = Object.create(null);
    this.filters = null;
    this.vocabularies = Object.create(null);
  }

  /**
   * What the query needs that is not loaded yet: {shards, tokenFiles, vocabularies} (numbers).
   * Expansions are known only once the vocabulary file of a word and its own shard (or token
   * file) are loaded, so call again after loading until nothing is missing (KBSearch.load does).
   */
  Index.prototype.missing = function (query) {
    var self = this, out = { shards: [], tokenFiles: [], vocabularies: [] }, seen = Object.create(null);
    function need(kind, k) {
      if (seen[kind + k]) return;
      seen[kind + k] = true;
      out[kind].push(k);
    }
    // The token's shard, then its own file; true when its postings can be read.
    function token(t) {
      var s = shardOf(t, self.meta.shardCount), shard = self.shards[s];
      if (!shard) { need('shards', s); return false; }
      var k = Object.prototype.hasOwnProperty.call(shard, t) ? shard[t] : null;
      if (typeof k === 'number' && !self.tokenFiles[k]) { need('tokenFiles', k); return false; }
      return true;
    }
    var full = analyzeFull(query, 'query', this.glossary), toks = full.tokens;
    // Tokens inside an identifier are asked for once the identifier is known to be missing.
    var searched = searchedTokens(full, function (t) { return dfOf(self, t); });
    var ready = true;
    for (var i = 0; i < toks.length; i++) if (searched[i] && !token(toks[i].text)) ready = false;
    var candidates = expansionCandidates(this, full, searched);
    for (i = 0; i < candidates.length; i++) {
      var v = candidates[i].vocabulary;
      if (!this.vocabularies[v]) { need('vocabularies', v); ready = false; }
    }
    if (ready) {
      var q = prepare(this, query, true);
      q.expansions.forEach(function (list) { list.forEach(function (e) { token(e.token); }); });
    }
    return out;
  };

  /** Vocabulary file i (search-vocab-<i>.json): the listed words of its head keys. */
  Index.prototype.addVocabulary = function (i, file) {
    if (!file || file.v !== FORMAT_VERSION || typeof file.h !== 'object') throw new Error('KBSearch: unsupported vocabulary file');
    var heads = Object.create(null);
    Object.keys(file.h).forEach(function (head) {
      var items = file.h[head].split(' '), list = [];
      if (items.length % 2) throw new Error('KBSearch: bad vocabulary file');
      for (var k = 0; k < items.length; k += 2) {
        var word = head + items[k];
        list.push({ token: word, cps: codePoints(word), df: Number(items[k + 1]) });
      }
      heads[head] = list;
    });
    this.vocabularies[i] = heads;
  };

  /** Shard numbers the query needs that are not loaded yet (see missing). */
  Index.prototype.missingShards = function (query) { return this.missing(query).shards; };

  /**
   * Numbers of the token files (search-token-<k>.json) the query needs that are not loaded yet:
   * tokens with many records have a file of their own, which their shard names (see missing).
   */
  Index.prototype.missingTokenFiles = function (query) { return this.missing(query).tokenFiles; };

  /** Numbers of the vocabulary files (search-vocab-<i>.json) the query needs (see missing). */
  Index.prototype.missingVocabularies = function (query) { return this.missing(query).vocabularies; };

  Index.prototype.addTokenFile = function (k, file) {
    if (!file || file.v !== FORMAT_VERSION) throw new Error('KBSearch: unsupported token file');
    this.tokenFiles[k] = file.t;
  };

  Index.prototype.addShard = function (i, shard) {
    if (!shard || shard.v !== FORMAT_VERSION) throw new Error('KBSearch: unsupported shard');
    this.shards[i] = shard.t;
  };

  /**
   * Document d's file ({id, title, lang, url, texts: [[field, text, label, anchor]]}); title is
   * left out when it is the first text, and a text's trailing nulls are left out.
   */
  Index.prototype.addDoc = function (d, doc) {
    if (!doc || typeof doc.id !== 'string' || !Array.isArray(doc.texts)) throw new Error('KBSearch: unsupported document');
    this.docs[d] = doc;
  };

  /** Document numbers of `results` whose files are not loaded yet. */
  Index.prototype.missingDocs = function (results) {
    var self = this;
    return results.map(function (r) { return r.docIndex; }).filter(function (d) { return !self.docs[d]; });
  };

  /** The filter data (search-filters.json); needed only to search with filters. */
  Index.prototype.addFilters = function (data) {
    if (!data || data.v !== FORMAT_VERSION) throw new Error('KBSearch: unsupported filters');
    var nums = decodeVarints(data.docs), n = this.meta.n, docs = new Array(n), k = 0;
    for (var d = 0; d < n; d++) {
      var doc = { lang: data.values[nums[k]], status: data.values[nums[k + 1]], tags: [] };
      var tc = nums[k + 2];
      k += 3;
      for (var j = 0; j < tc; j++) doc.tags.push(data.values[nums[k++]]);
      docs[d] = doc;
    }
    if (k !== nums.length) throw new Error('KBSearch: bad filter data');
    this.filters = docs;
  };

  /** Fills id, title, url, lang, anchor and label of a result from its document file. */
  Index.prototype.describe = function (r) {
    var doc = this.docs[r.docIndex];
    if (!doc) throw new Error('KBSearch: document ' + r.docIndex + ' not loaded');
    var t = doc.texts[r.textIndex] || [];
    if (r.field == null && t[0] !== undefined) r.field = this.meta.fields[t[0]];
    r.id = doc.id; r.url = doc.url; r.lang = doc.lang;
    r.title = doc.title !== undefined ? doc.title : (doc.texts.length ? doc.texts[0][1] : doc.id);
    r.text = t[1] === undefined ? '' : t[1];
    r.label = t[2] == null ? null : t[2];
    r.anchor = t[3] == null ? null : t[3];
    return r;
  };

  /**
   * Decoded postings of a token: {df, idf, doc, text, field, flen, tf, posStart, pos} or null;
   * field and flen are the field of each record's text and that field's length in the document
   * as scored (quantized: fieldLength).
   */
  Index.prototype.entry = function (token) {
    if (token in this.entries) return this.entries[token];
    var s = shardOf(token, this.meta.shardCount);
    var shard = this.shards[s];
    if (!shard) throw new Error('KBSearch: shard ' + s + ' not loaded');
    var raw = Object.prototype.hasOwnProperty.call(shard, token) ? shard[token] : null;
    if (typeof raw === 'number') {
      var file = this.tokenFiles[raw];
      if (!file) throw new Error('KBSearch: token file ' + raw + ' not loaded');
      raw = Object.prototype.hasOwnProperty.call(file, token) ? file[token] : null;
    }
    var e = null;
    if (raw) {
      var cap = this.meta.maxPositions, fc = this.meta.fields.length;
      var str = raw[2], at = 0, end = str.length;
      // The next number with terminal count tc (see DIGITS).
      var next = function (tc) {
        var v = 0, m = 1;
        for (;;) {
          if (at >= end) throw new Error('KBSearch: bad postings of ' + token);
          var c = str.charCodeAt(at++), x = c < 128 ? DIGIT_VALUE[c] : -1;
          if (x < 0) throw new Error('KBSearch: bad postings of ' + token);
          v += x * m;
          if (x < tc) return v;
          m *= 90 - tc;
        }
      };
      var doc = [], text = [], field = [], flen = [], tf = [], posStart = [], pos = [];
      var d = 0, t = 0, f = 0, len = 0;
      while (at < end) {
        // Head: odd, 2 × document gap + 1, then text × fields + field and the field's length
        // code; even, 2 × ((text gap − 1) × fields + field step), then the length code if the
        // field changed. flen holds the length scoring uses (fieldLength of the code).
        var head = next(T_HEAD);
        if (head % 2 === 1) {
          d += (head - 1) / 2;
          var tfd = next(T_TEXT);
          f = tfd % fc; t = (tfd - f) / fc;
          len = fieldLength(next(T_LENGTH));
        } else {
          var step = (head / 2) % fc;
          t += (head / 2 - step) / fc + 1;
          if (step) { f += step; len = fieldLength(next(T_LENGTH)); }
        }
        // First position × 2 + (tf > 1), then tf − 2 when tf > 1, then the position gaps.
        var p0 = next(T_POSITION), count = p0 % 2 === 1 ? next(T_SMALL) + 2 : 1;
        doc.push(d); text.push(t); field.push(f); flen.push(len); tf.push(count);
        posStart.push(pos.length);
        var m = Math.min(count, cap);
        if (m > 0) {
          var p = (p0 - p0 % 2) / 2;
          pos.push(p);
          for (var j = 1; j < m; j++) { p += next(T_SMALL); pos.push(p); }
        }
      }
      e = { df: raw[0], idf: raw[1], doc: doc, text: text, field: field, flen: flen, tf: tf, posStart: posStart, pos: pos };
    }
    this.entries[token] = e;
    return e;
  };

  function accepts(doc, filters) {
    if (!filters) return true;
    var langs = filters.langs || [], tags = filters.tags || [], statuses = filters.statuses || [];
    if (langs.length) {
      var l = doc.lang.toLowerCase(), ok = false;
      for (var i = 0; i < langs.length; i++) {
        var f = String(langs[i]).toLowerCase();
        if (l === f || l.indexOf(f + '-') === 0) { ok = true; break; }
      }
      if (!ok) return false;
    }
    for (i = 0; i < tags.length; i++) if (doc.tags.indexOf(tags[i]) < 0) return false;
    if (statuses.length && statuses.indexOf(doc.status) < 0) return false;
    return true;
  }

  function overlaps(x, y) { return x.a < y.b && y.a < x.b; }

  function hasFilters(filters) {
    return !!filters && ((filters.langs && filters.langs.length) || (filters.tags && filters.tags.length) ||
      (filters.statuses && filters.statuses.length)) ? true : false;
  }

  /** Document frequency of a token (0 when in no document), or null while its file is not loaded. */
  function dfOf(index, token) {
    var shard = index.shards[shardOf(token, index.meta.shardCount)];
    if (!shard) return null;
    var raw = Object.prototype.hasOwnProperty.call(shard, token) ? shard[token] : null;
    if (typeof raw === 'number') {
      var file = index.tokenFiles[raw];
      if (!file) return null;
      raw = Object.prototype.hasOwnProperty.call(file, token) ? file[token] : null;
    }
    return raw ? raw[0] : 0;
  }

  /**
   * Which emitted tokens of an analysed query are searched (docs/search.md §4, known
   * identifiers): all but the parts and identifiers inside a literal identifier the index has
   * (`df` > 0), so a name the index knows is searched as itself. df(token) is the document
   * frequency, or null while the token's file is not loaded: the tokens inside such an
   * identifier are left out until it is known (missing asks for the identifier first).
   * KnownIdentifierRule in the Swift library is the same rule.
   */
  function searchedTokens(full, df) {
    var toks = full.tokens, literal = full.literalCount, searched = [];
    for (var k = 0; k < toks.length; k++) searched.push(true);
    for (var i = 0; i < literal; i++) {
      if (toks[i].kind !== 'identifier') continue;
      var known = df(toks[i].text);
      if (known !== null && !(known > 0)) continue;
      for (k = 0; k < literal; k++) {
        var kind = toks[k].kind;
        if (k !== i && (kind === 'part' || kind === 'identifier') && toks[k].a >= toks[i].a && toks[k].b <= toks[i].b) {
          searched[k] = false;
        }
      }
    }
    return searched;
  }

  /**
   * The distinct searched literal tokens of an analysed query that may expand, with their
   * scalars, whether they end the query, their document frequency (null while unknown) and their
   * vocabulary file; `vocabulary` is -1 for a token that cannot expand (a typo candidate whose df
   * is unknown yet).
   */
  function expansionCandidates(index, full, searched) {
    var x = index.meta.expansion, out = [], seen = Object.create(null);
    if (!x) return out;
    var toks = full.tokens;
    for (var k = 0; k < full.literalCount; k++) {
      if (!searched[k]) continue;
      var t = toks[k].text;
      var last = toks[k].b === full.length;
      if (seen[t]) { if (last) seen[t].isLast = true; continue; }
      var cps = codePoints(t);
      var c = { token: t, cps: cps, isLast: last, df: dfOf(index, t), vocabulary: -1 };
      seen[t] = c;
      out.push(c);
    }
    return out.filter(function (c) {
      if (!isWordShaped(c.cps)) return false;
      var canPrefix = c.isLast && c.cps.length >= x.prefixMinLength;
      var canTypo = c.cps.length >= x.typoMinLength && c.df !== null && c.df <= x.typoMaxDf;
      if (!canPrefix && !canTypo) return false;
      c.head = String.fromCodePoint.apply(null, c.cps.slice(0, x.headLength));
      c.vocabulary = shardOf(c.head, x.vocabularyFiles);
      return true;
    });
  }

  /** Prefix, then typo expansions of one candidate (docs/search.md §4.1), as {token, kind}. */
  function expansionsOf(index, c, exclude) {
    var x = index.meta.expansion, out = [];
    var words = index.vocabularies[c.vocabulary];
    if (!words) throw new Error('KBSearch: vocabulary file ' + c.vocabulary + ' not loaded');
    var list = words[c.head] || [], q = c.cps, df = c.df === null ? 0 : c.df;
    if (c.isLast && q.length >= x.prefixMinLength) {
      list.filter(function (w) { return w.cps.length > q.length && startsWith(w.cps, q) && !exclude[w.token]; })
        .sort(byFrequency).slice(0, x.prefixLimit)
        .forEach(function (w) { out.push({ token: w.token, kind: 'prefix' }); });
    }
    if (q.length >= x.typoMinLength && df <= x.typoMaxDf) {
      var taken = Object.create(null);
      out.forEach(function (e) { taken[e.token] = true; });
      list.filter(function (w) { return w.df > df && !taken[w.token] && !exclude[w.token] && isOneEdit(q, w.cps); })
        .sort(byFrequency).slice(0, x.typoLimit)
        .forEach(function (w) { out.push({ token: w.token, kind: 'typo' }); });
    }
    return out;
  }

  /**
   * The analysed query (docs/search.md §4): distinct tokens, their postings and idfs, pairs,
   * concept coverage and the literal tokens' expansions. With namesOnly, expansions are only
   * named ({token, kind}), so their postings need not be loaded.
   */
  function prepare(index, query, namesOnly) {
    var full = analyzeFull(query, 'query', index.glossary);
    var toks = full.tokens, literal = full.literalCount;
    var searched = searchedTokens(full, function (t) { return dfOf(index, t); });
    var q = { tokens: [], entries: [], idfs: [], sumIdf: 0, pairs: [], pairConcepts: [], literalCount: 0,
      coveredBy: [], covers: [] };
    var qIndex = [];
    for (var k = 0; k < toks.length; k++) {
      if (!searched[k]) { qIndex.push(-1); continue; }
      var i = q.tokens.indexOf(toks[k].text);
      if (i >= 0) {
        qIndex.push(i);
      } else {
        qIndex.push(q.tokens.length);
        q.tokens.push(toks[k].text);
        var e = index.entry(toks[k].text);
        q.entries.push(e);
        q.idfs.push(e ? e.idf : index.meta.idfUnknown);
      }
      if (k < literal) q.literalCount = q.tokens.length;
    }
    for (k = 0; k < q.literalCount; k++) q.sumIdf += q.idfs[k];
    for (var a = 0; a < literal; a++) {
      if (!searched[a] || toks[a].kind === 'identifier') continue;
      for (var b = 0; b < literal; b++) {
        if (!searched[b] || toks[b].kind === 'identifier' || toks[b].position !== toks[a].position + 1) continue;
        var pa = qIndex[a], pb = qIndex[b], pi = -1;
        for (var x = 0; x < q.pairs.length; x++) if (q.pairs[x][0] === pa && q.pairs[x][1] === pb) { pi = x; break; }
        if (pi < 0) { pi = q.pairs.length; q.pairs.push([pa, pb]); q.pairConcepts.push([]); }
        for (var c = literal; c < toks.length; c++) {
          if (overlaps(toks[c], toks[a]) && overlaps(toks[c], toks[b]) && q.pairConcepts[pi].indexOf(qIndex[c]) < 0) {
            q.pairConcepts[pi].push(qIndex[c]);
          }
        }
      }
    }
    for (k = 0; k < q.tokens.length; k++) { q.coveredBy.push([]); q.covers.push([]); }
    for (c = literal; c < toks.length; c++) {
      for (var l = 0; l < literal; l++) {
        if (!searched[l] || !overlaps(toks[c], toks[l])) continue;
        var qc = qIndex[c], ql = qIndex[l];
        if (q.covers[qc].indexOf(ql) < 0) q.covers[qc].push(ql);
        if (q.coveredBy[ql].indexOf(qc) < 0) q.coveredBy[ql].push(qc);
      }
    }
    var asc = function (u, v) { return u - v; };
    q.pairConcepts.forEach(function (list) { list.sort(asc); });
    q.coveredBy.forEach(function (list) { list.sort(asc); });
    q.covers.forEach(function (list) { list.sort(asc); });
    // Expansions: completions of the token that ends the query, corrections of tokens the index
    // barely knows; factor = weight × min(idf, the expansion's idf).
    var exclude = Object.create(null);
    for (k = 0; k < q.literalCount; k++) exclude[q.tokens[k]] = true;
    var byToken = Object.create(null);
    expansionCandidates(index, full, searched).forEach(function (c) { byToken[c.token] = c; });
    q.expansions = [];
    for (k = 0; k < q.literalCount; k++) {
      var cand = byToken[q.tokens[k]];
      var found = cand ? expansionsOf(index, cand, exclude) : [];
      var idfq = q.idfs[k];
      q.expansions.push(namesOnly ? found : found.map(function (e) {
        var entry = index.entry(e.token);
        var w = e.kind === 'prefix' ? index.meta.expansion.prefixWeight : index.meta.expansion.typoWeight;
        return { token: e.token, kind: e.kind, query: q.tokens[k], entry: entry, factor: w * Math.min(idfq, entry.idf) };
      }));
    }
    return q;
  }

  /** The expansions through which d matched literal query tokens it does not contain. */
  function viaExpansions(d, q) {
    var out = [];
    for (var qi = 0; qi < q.literalCount; qi++) {
      if (!q.expansions[qi].length || hasRecord(q.entries[qi], d)) continue;
      q.expansions[qi].forEach(function (e) {
        if (hasRecord(e.entry, d)) out.push({ query: e.query, token: e.token, kind: e.kind });
      });
    }
    return out;
  }

  /** Whether a token's postings have a record of document d. */
  function hasRecord(e, d) {
    if (!e) return false;
    var lo = 0, hi = e.doc.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (e.doc[mid] < d) lo = mid + 1; else hi = mid;
    }
    return lo < e.doc.length && e.doc[lo] === d;
  }

  /** Ids of the concepts through which d matched literal query tokens it does not contain. */
  function viaGlossary(d, q) {
    var out = [];
    for (var qc = q.literalCount; qc < q.tokens.length; qc++) {
      if (!hasRecord(q.entries[qc], d)) continue;
      var via = false;
      for (var i = 0; i < q.covers[qc].length; i++) if (!hasRecord(q.entries[q.covers[qc][i]], d)) { via = true; break; }
      if (via) out.push(q.tokens[qc].slice(3));
    }
    return out;
  }

  /**
   * Searches the loaded shards (all shards of the query's tokens must be loaded; see
   * missingShards; with filters, addFilters first). options: {limit = 20, filters = {langs, tags,
   * statuses}}. Returns [{docIndex, score, field, textIndex, viaGlossary}], each also with id,
   * title, url, lang, anchor, label and text when its document file is loaded (see missingDocs,
   * addDoc, describe); viaGlossary lists concept ids (names in index.glossary.concepts).
   */
  Index.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit === undefined ? 20 : options.limit;
    var meta = this.meta, n = meta.n;
    var q = prepare(this, query);
    if (!(q.sumIdf > 0) || limit <= 0 || n === 0) return [];
    var fc = meta.fields.length, k1 = meta.k1, b = meta.b, beta = meta.beta, cw = meta.conceptWeight;
    var weights = meta.fieldWeights, avg = meta.avgFieldLengths, cap = meta.maxPositions;
    var allowed = null;
    if (hasFilters(options.filters)) {
      if (!this.filters) throw new Error('KBSearch: filters not loaded');
      allowed = new Uint8Array(n);
      for (var d = 0; d < n; d++) allowed[d] = accepts(this.filters[d], options.filters) ? 1 : 0;
    }
    var bm25 = new Float64Array(n), matched = new Float64Array(n), seen = new Uint8Array(n);
    var touched = [];
    var tfs = new Array(fc), lens = new Array(fc);
    function touch(d) { if (!seen[d]) { seen[d] = 1; touched.push(d); } }
    // Calls body(d, tfTilde) for each allowed document with records in e.
    function scan(e, body) {
      if (!e) return;
      var hi = e.doc.length, r = 0;
      while (r < hi) {
        var d = e.doc[r], f;
        for (f = 0; f < fc; f++) tfs[f] = 0;
        while (r < hi && e.doc[r] === d) { tfs[e.field[r]] += e.tf[r]; lens[e.field[r]] = e.flen[r]; r++; }
        if (allowed && !allowed[d]) continue;
        var tfTilde = 0;
        for (f = 0; f < fc; f++) {
          if (tfs[f] > 0) {
            var norm = avg[f] > 0 ? (1 - b) + b * (lens[f] / avg[f]) : 1;
            tfTilde += weights[f] * tfs[f] / norm;
          }
        }
        body(d, tfTilde);
      }
    }
    var conceptSat = [];
    for (var qc = 0; qc < q.tokens.length; qc++) {
      var list = [];
      if (qc >= q.literalCount && q.covers[qc].length) {
        scan(q.entries[qc], function (d, t) { list.push([d, t * (k1 + 1) / (t + k1)]); });
      }
      conceptSat.push(list);
    }
    var literalStamp = new Int32Array(n).fill(-1), bestStamp = new Int32Array(n).fill(-1);
    // Per document: the best min(idf(q), idf(c)) × sat_c over the concepts c covering q.
    var bestConcept = new Float64Array(n);
    var expansionStamp = new Int32Array(n).fill(-1), expansionBest = new Float64Array(n);
    for (var qi = 0; qi < q.literalCount; qi++) {
      var idfq = q.idfs[qi];
      // Through the glossary: a covering concept scores like a literal token as rare as the
      // concept (and never weighs more than the token typed); the best concept counts.
      var credited = [];
      for (var x = 0; x < q.coveredBy[qi].length; x++) {
        var qc = q.coveredBy[qi][x];
        var conceptIdf = Math.min(idfq, q.idfs[qc]);
        var sats = conceptSat[qc];
        for (var y = 0; y < sats.length; y++) {
          d = sats[y][0];
          var v = conceptIdf * sats[y][1];
          if (bestStamp[d] !== qi) { bestStamp[d] = qi; bestConcept[d] = v; credited.push(d); }
          else if (v > bestConcept[d]) bestConcept[d] = v;
        }
      }
      // Through an expansion: the best of factor × saturated tf.
      var expansionCredited = [], expansions = q.expansions[qi];
      for (x = 0; x < expansions.length; x++) {
        var factor = expansions[x].factor;
        scan(expansions[x].entry, function (d, t) {
          var v = factor * (t * (k1 + 1) / (t + k1));
          if (expansionStamp[d] !== qi) { expansionStamp[d] = qi; expansionBest[d] = v; expansionCredited.push(d); }
          else if (v > expansionBest[d]) expansionBest[d] = v;
        });
      }
      // A token counts once per document: literally, through a concept or through an
      // expansion, whichever gives more.
      scan(q.entries[qi], function (d, t) {
        var s = idfq * t * (k1 + 1) / (t + k1);
        literalStamp[d] = qi;
        if (bestStamp[d] === qi) s = Math.max(s, cw * bestConcept[d]);
        if (expansionStamp[d] === qi) s = Math.max(s, expansionBest[d]);
        touch(d);
        bm25[d] += s;
        matched[d] += idfq;
      });
      for (x = 0; x < credited.length; x++) {
        d = credited[x];
        if (literalStamp[d] === qi) continue;
        var s = cw * bestConcept[d];
        if (expansionStamp[d] === qi) s = Math.max(s, expansionBest[d]);
        touch(d);
        bm25[d] += s;
        matched[d] += idfq;
      }
      for (x = 0; x < expansionCredited.length; x++) {
        d = expansionCredited[x];
        if (literalStamp[d] === qi || bestStamp[d] === qi) continue;
        touch(d);
        bm25[d] += expansionBest[d];
        matched[d] += idfq;
      }
    }
    if (touched.length === 0) return [];

    var maxPairs = new Int32Array(n);
    var pairCount = null;
    if (q.pairs.length) {
      // Keyed by document and text: TEXT_KEY * d + t.
      pairCount = new Map();
      var pairStamp = new Map();
      var count = function (pi, d, t) {
        if (allowed && !allowed[d]) return;
        var gt = TEXT_KEY * d + t;
        if (pairStamp.get(gt) === pi) return;
        pairStamp.set(gt, pi);
        var c = (pairCount.get(gt) || 0) + 1;
        pairCount.set(gt, c);
        if (c > maxPairs[d]) maxPairs[d] = c;
      };
      for (var pi = 0; pi < q.pairs.length; pi++) {
        var A = q.entries[q.pairs[pi][0]], B = q.entries[q.pairs[pi][1]];
        if (A && B) {
          var ra = 0, rb = 0;
          while (ra < A.doc.length && rb < B.doc.length) {
            var da = A.doc[ra], db = B.doc[rb];
            if (da < db || (da === db && A.text[ra] < B.text[rb])) { ra++; continue; }
            if (db < da || (da === db && B.text[rb] < A.text[ra])) { rb++; continue; }
            var pa = A.posStart[ra], na = Math.min(A.tf[ra], cap);
            var pb = B.posStart[rb], nb = Math.min(B.tf[rb], cap);
            var u = 0, v = 0, hit = false;
            while (u < na && v < nb) {
              var want = A.pos[pa + u] + 1, have = B.pos[pb + v];
              if (have === want) { hit = true; break; }
              if (have < want) v++; else u++;
            }
            if (hit) count(pi, da, A.text[ra]);
            ra++; rb++;
          }
        }
        for (x = 0; x < q.pairConcepts[pi].length; x++) {
          var C = q.entries[q.pairConcepts[pi][x]];
          if (!C) continue;
          for (var r = 0; r < C.doc.length; r++) count(pi, C.doc[r], C.text[r]);
        }
      }
    }
    var totalPairs = q.pairs.length;
    var scored = [];
    for (var i = 0; i < touched.length; i++) {
      d = touched[i];
      var cov = matched[d] / q.sumIdf;
      var adj = totalPairs === 0 ? 1 : 1 + beta * (maxPairs[d] / totalPairs);
      scored.push([bm25[d] * cov * adj, d]);
    }
    scored.sort(function (u, v) { return u[0] !== v[0] ? (v[0] - u[0] > 0 ? 1 : -1) : u[1] - v[1]; });
    scored = scored.slice(0, limit);
    var self = this;
    return scored.map(function (sd) {
      var d = sd[1];
      var best = bestText(self, d, q, pairCount);
      var r = { docIndex: d, score: sd[0], field: best.field < 0 ? null : meta.fields[best.field], textIndex: best.text,
        viaGlossary: q.literalCount < q.tokens.length ? viaGlossary(d, q) : [], viaExpansions: viaExpansions(d, q) };
      return self.docs[d] ? self.describe(r) : r;
    });
  };

  // pairCount keys: TEXT_KEY * document + text (documents have far fewer texts than this).
  var TEXT_KEY = 1048576;

  /**
   * The text of d that matches best: field weight × matched IDF × phrase factor, first wins ties
   * ({text, field}). Only texts with records of the query's tokens can score above 0, so only
   * they are visited (with text 0, the answer when none scores above 0); their fields come with
   * the records. field is -1 when text 0 wins without records (describe() fills it in then).
   */
  function bestText(index, d, q, pairCount) {
    var meta = index.meta;
    var sums = Object.create(null), stamp = Object.create(null), fieldOf = Object.create(null);
    var candidates = [0];
    function texts(e, body) {
      if (!e) return;
      var lo = 0, hi = e.doc.length;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (e.doc[mid] < d) lo = mid + 1; else hi = mid;
      }
      for (var r = lo; r < e.doc.length && e.doc[r] === d; r++) {
        var t = e.text[r];
        if (!(t in fieldOf)) { fieldOf[t] = e.field[r]; sums[t] = 0; stamp[t] = -1; if (t !== 0) candidates.push(t); }
        body(t);
      }
    }
    // A text counts a query token's idf when it contains the token, else the largest of
    // conceptWeight × min(idf, the concept's idf) (a concept covering it) and an expansion's
    // factor (the expansion).
    var alternative = Object.create(null);
    for (var qi = 0; qi < q.literalCount; qi++) {
      texts(q.entries[qi], function (t) { stamp[t] = qi; sums[t] += q.idfs[qi]; });
      var offered = [];
      var offer = function (v) {
        return function (t) {
          if (stamp[t] === qi) return;
          if (stamp[t] !== -2 - qi) { stamp[t] = -2 - qi; alternative[t] = v; offered.push(t); }
          else if (v > alternative[t]) alternative[t] = v;
        };
      };
      for (var x = 0; x < q.coveredBy[qi].length; x++) {
        var qc = q.coveredBy[qi][x];
        texts(q.entries[qc], offer(meta.conceptWeight * Math.min(q.idfs[qi], q.idfs[qc])));
      }
      for (x = 0; x < q.expansions[qi].length; x++) texts(q.expansions[qi][x].entry, offer(q.expansions[qi][x].factor));
      for (x = 0; x < offered.length; x++) sums[offered[x]] += alternative[offered[x]];
    }
    candidates.sort(function (u, v) { return u - v; });
    var best = 0, bestScore = -1;
    for (var i = 0; i < candidates.length; i++) {
      var t = candidates[i];
      if (!(t in fieldOf)) continue; // text 0 without records scores 0
      var s = meta.fieldWeights[fieldOf[t]] * sums[t];
      if (q.pairs.length && pairCount) s = s * (1 + meta.beta * ((pairCount.get(TEXT_KEY * d + t) || 0) / q.pairs.length));
      if (s > bestScore) { bestScore = s; best = t; }
    }
    // Texts without records score 0: text 0 wins when nothing scored above 0.
    if (!(bestScore > 0)) best = 0;
    return { text: best, field: best in fieldOf ? fieldOf[best] : -1 };
  }

  /**
   * Loads an index from a base URL (search-meta.json, search-shard-<i>.json,
   * search-token-<k>.json, search-doc-<d>.json, search-filters.json) with fetch.
   * Returns {index, search(query, options) -> Promise<results>} (results described).
   */
  function load(baseURL, fetchImpl) {
    var f = fetchImpl || (typeof fetch !== 'undefined' ? fetch : null);
    var base = String(baseURL).replace(/\/?$/, '/');
    function json(name) { return f(base + name).then(function (r) { return r.json(); }); }
    return json('search-meta.json').then(function (meta) {
      var index = new Index(meta);
      return {
        index: index,
        search: function (query, options) {
          // Shards, token files and vocabulary files, in rounds until nothing is missing (an
          // expansion is known once its word's vocabulary file and df are loaded).
          function fill() {
            var m = index.missing(query);
            var need = m.shards.map(function (i) {
              return json('search-shard-' + i + '.json').then(function (j) { index.addShard(i, j); });
            }).concat(m.tokenFiles.map(function (k) {
              return json('search-token-' + k + '.json').then(function (j) { index.addTokenFile(k, j); });
            }), m.vocabularies.map(function (v) {
              return json('search-vocab-' + v + '.json').then(function (j) { index.addVocabulary(v, j); });
            }));
            return need.length ? Promise.all(need).then(fill) : Promise.resolve();
          }
          var need = [fill()];
          if (options && hasFilters(options.filters) && !index.filters) {
            need.push(json('search-filters.json').then(function (j) { index.addFilters(j); }));
          }
          return Promise.all(need).then(function () {
            var results = index.search(query, options);
            return Promise.all(index.missingDocs(results).map(function (d) {
              return json('search-doc-' + d + '.json').then(function (j) { index.addDoc(d, j); });
            })).then(function () { return results.map(function (r) { return index.describe(r); }); });
          });
        }
      };
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Snippets

  /**
   * A window of `text` around the query's tokens (and extraTokens, e.g. the expansions a result
   * matched through): {text, highlights: [[start, end]], truncatedStart,
   * truncatedEnd}; highlight offsets are in code points of the returned text (see also
   * highlightHTML).
   */
  function snippet(text, query, length, glossary, extraTokens) {
    length = length === undefined ? 120 : length;
    var qt = Object.create(null);
    tokenize(query, 'query', glossary).forEach(function (t) { qt[t] = true; });
    (extraTokens || []).forEach(function (t) { qt[t] = true; });
    var ranges = [];
    analyze(text, 'document', glossary).forEach(function (t) { if (qt[t.text] === true) ranges.push([t.start, t.end]); });
    ranges.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var merged = [];
    ranges.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    });
    var cps = codePoints(String(text));
    var n = cps.length, context = Math.floor(length / 6), ws = 0;
    if (merged.length) {
      // The ranges inside a window [s, e) run from the first that starts at s or later to the
      // last that ends by e; merged is sorted and its ranges apart, so both only move forward.
      var bestCount = -1, first = 0, past = 0;
      merged.forEach(function (h) {
        var s = Math.max(0, Math.min(h[0] - context, n - length));
        var e = Math.min(n, s + length);
        while (first < merged.length && merged[first][0] < s) first++;
        while (past < merged.length && merged[past][1] <= e) past++;
        var c = Math.max(0, past - first);
        if (c > bestCount) { bestCount = c; ws = s; }
      });
    }
    var we = Math.min(n, ws + length);
    var out = [], map = new Array(we - ws + 1), o = 0, lastSpace = false;
    for (var i = ws; i < we; i++) {
      map[i - ws] = o;
      var v = cps[i];
      var space = v === 0x20 || v === 0x09 || v === 0x0A || v === 0x0D;
      if (space) { if (!lastSpace) { out.push(0x20); o++; } } else { out.push(v); o++; }
      lastSpace = space;
    }
    map[we - ws] = o;
    var highlights = [];
    merged.forEach(function (h) {
      var s = Math.max(h[0], ws), e = Math.min(h[1], we);
      if (s < e) highlights.push([map[s - ws], map[e - ws]]);
    });
    var str = '';
    for (i = 0; i < out.length; i += 4096) str += String.fromCodePoint.apply(null, out.slice(i, i + 4096));
    return { text: str, highlights: highlights, truncatedStart: ws > 0, truncatedEnd: we < n };
  }

  function escapeHTML(s) {
    return s.replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  /** HTML of a snippet with <mark> around highlights (text escaped). */
  function highlightHTML(snip) {
    var cps = codePoints(snip.text), html = '', at = 0;
    function piece(a, b) { return escapeHTML(String.fromCodePoint.apply(null, cps.slice(a, b))); }
    snip.highlights.forEach(function (h) {
      html += piece(at, h[0]) + '<mark>' + piece(h[0], h[1]) + '</mark>';
      at = h[1];
    });
    html += piece(at, cps.length);
    return (snip.truncatedStart ? '…' : '') + html + (snip.truncatedEnd ? '…' : '');
  }

  /**
   * The snippet of a result's text (`text`; default: the text describe() gave the result from
   * its document file), as `kb search` makes it: glossary terms are highlighted except in the
   * code field.
   */
  Index.prototype.snippet = function (result, text, query, length) {
    if (text === undefined || text === null) text = result.text || '';
    var extra = (result.viaExpansions || []).map(function (e) { return e.token; });
    return snippet(text, query, length, result.field === 'code' ? null : this.glossary, extra);
  };

  var KBSearch = {
    version: 3,
    normalize: normalize,
    analyze: analyze,
    tokenize: tokenize,
    tokenHash: tokenHash,
    shardOf: shardOf,
    stopWords: STOP_WORDS.slice(),
    Index: Index,
    createIndex: function (meta) { return new Index(meta); },
    compileGlossary: compileGlossary,
    load: load,
    decodeVarints: decodeVarints,
    fieldLengthCode: fieldLengthCode,
    fieldLength: fieldLength,
    snippet: snippet,
    highlightHTML: highlightHTML
  };

  if (typeof module === 'object' && module && module.exports) module.exports = KBSearch;
  else root.KBSearch = KBSearch;
})(typeof globalThis !== 'undefined' ? globalThis : this);
