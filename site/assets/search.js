// TroubleshootKB: search as you type on the home page.
// The engine is assets/search-core.js (the same tokenizer and ranking as `kb search`,
// docs/search.md). The index lives in search/*.js files that call __kbSearchData(kind, n, data):
// they load as <script> elements, so the search works from file:// as well as from any host.
// Entry text is only ever put into the page as text nodes, never as HTML.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var list = document.getElementById("results");
  if (!input || !list || !window.KBSearch) return;

  // The site root, relative to this page: the folder above assets/search.js.
  var self = document.querySelector('script[src$="assets/search.js"]');
  var root = self ? self.getAttribute("src").replace(/assets\/search\.js$/, "") : "";

  var loaded = Object.create(null);   // "kind:n" -> data
  var waiting = Object.create(null);  // "kind:n" -> [resolve, reject]
  var promises = Object.create(null); // "kind:n" -> Promise

  window.__kbSearchData = function (kind, n, data) {
    var key = kind + ":" + n;
    loaded[key] = data;
    var w = waiting[key];
    if (w) { delete waiting[key]; w[0](data); }
  };

  function load(kind, n, path) {
    var key = kind + ":" + n;
    if (key in loaded) return Promise.resolve(loaded[key]);
    if (promises[key]) return promises[key];
    promises[key] = new Promise(function (resolve, reject) {
      waiting[key] = [resolve, reject];
      var script = document.createElement("script");
      script.src = root + path;
      script.async = true;
      script.onerror = function () {
        delete promises[key];
        delete waiting[key];
        reject(new Error("cannot load " + path));
      };
      script.onload = function () {
        // A file that loaded without calling back is not part of this index.
        if (waiting[key]) { delete waiting[key]; delete promises[key]; reject(new Error("bad index file " + path)); }
      };
      document.head.appendChild(script);
    });
    return promises[key];
  }

  var indexPromise = null;
  function index() {
    if (!indexPromise) {
      indexPromise = load("meta", 0, "search/meta.js").then(function (meta) { return KBSearch.createIndex(meta); });
    }
    return indexPromise;
  }

  function search(query) {
    return index().then(function (idx) {
      // Shards, postings files of tokens with many records, and vocabulary files of words that
      // may be completed or corrected: loaded in rounds until the query needs nothing more.
      function fill() {
        var m = idx.missing(query);
        var need = m.shards.map(function (s) {
          return load("shard", s, "search/shard-" + s + ".js").then(function (shard) {
            if (!idx.shards[s]) idx.addShard(s, shard);
          });
        }).concat(m.tokenFiles.map(function (k) {
          return load("token", k, "search/token-" + k + ".js").then(function (file) {
            if (!idx.tokenFiles[k]) idx.addTokenFile(k, file);
          });
        }), m.vocabularies.map(function (v) {
          return load("vocab", v, "search/vocab-" + v + ".js").then(function (file) {
            if (!idx.vocabularies[v]) idx.addVocabulary(v, file);
          });
        }));
        return need.length ? Promise.all(need).then(fill) : null;
      }
      return Promise.resolve(fill()).then(function () {
        var results = idx.search(query, { limit: 10 });
        // Title, address and texts of the shown results only: one small file each.
        return Promise.all(results.map(function (r) {
          return load("doc", r.docIndex, "search/doc-" + r.docIndex + ".js").then(function (doc) {
            if (!idx.docs[r.docIndex]) idx.addDoc(r.docIndex, doc);
            idx.describe(r);
            r.snippet = idx.snippet(r, r.text || "", query, 120);
            return r;
          });
        }));
      });
    });
  }

  function text(tag, className, value) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (value !== undefined) node.appendChild(document.createTextNode(value));
    return node;
  }

  // A snippet as text nodes with <mark> elements around the matches.
  function snippetNode(snip) {
    var p = text("p", "result-snippet");
    var cps = Array.from(snip.text);
    var at = 0;
    if (snip.truncatedStart) p.appendChild(document.createTextNode("…"));
    snip.highlights.forEach(function (h) {
      p.appendChild(document.createTextNode(cps.slice(at, h[0]).join("")));
      p.appendChild(text("mark", null, cps.slice(h[0], h[1]).join("")));
      at = h[1];
    });
    p.appendChild(document.createTextNode(cps.slice(at).join("")));
    if (snip.truncatedEnd) p.appendChild(document.createTextNode("…"));
    return p;
  }

  // Language names as their readers write them (the codes are for machines).
  var languageNames = { "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ko": "한국어", "ja": "日本語", "en": "English" };
  var status = document.getElementById("search-status");
  function announce(message) { if (status) status.textContent = message; }

  // The page's words (its language), from the list's data attributes; {n}, {q} and {error} are
  // filled in here, as text.
  function words(name, fill) {
    var value = list.getAttribute("data-" + name) || "";
    return value.replace(/\{(n|q|error)\}/g, function (all, key) { return key in fill ? String(fill[key]) : all; });
  }

  function render(query, results) {
    while (list.firstChild) list.removeChild(list.firstChild);
    list.setAttribute("data-query", query);
    if (!query) { announce(""); return; }
    announce(results.length === 1 ? words("one-result", {}) : words("results", { n: results.length }));
    if (!results.length) {
      var none = text("li", "no-results", words("no-results", { q: query }));
      list.appendChild(none);
      return;
    }
    results.forEach(function (r) {
      var li = document.createElement("li");
      li.className = "result";
      li.setAttribute("data-id", r.id);
      li.lang = r.lang;
      var a = text("a", "result-title", r.title);
      a.href = root + (r.url || "") + (r.anchor ? "#" + encodeURIComponent(r.anchor) : "");
      li.appendChild(a);
      var meta = text("span", "result-meta", " ");
      var language = text("span", null, languageNames[r.lang] || r.lang);
      language.lang = r.lang;
      meta.appendChild(language);
      if (r.label) meta.appendChild(document.createTextNode(" · " + r.label));
      li.appendChild(meta);
      if (r.snippet && r.snippet.text) li.appendChild(snippetNode(r.snippet));
      list.appendChild(li);
    });
  }

  var sequence = 0;
  var timer = null;
  function run() {
    var query = input.value.trim();
    var mine = ++sequence;
    if (!query) { render("", []); return; }
    search(query).then(function (results) {
      if (mine === sequence) render(query, results);
    }, function (error) {
      if (mine !== sequence) return;
      while (list.firstChild) list.removeChild(list.firstChild);
      list.appendChild(text("li", "no-results", words("unavailable", { error: error.message })));
    });
  }

  // An input method (kana to kanji, pinyin to hanzi, Hangul) sends input events while the reader
  // converts: the search waits for the conversion to be committed (compositionend).
  var composing = false;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(run, 60);
  }
  input.addEventListener("compositionstart", function () { composing = true; });
  input.addEventListener("compositionend", function () { composing = false; later(); });
  input.addEventListener("input", function (event) {
    // Opened with ?q=, the page kept room for the results (style.css, .kb-query); once the
    // reader types, the lists below may move with the results.
    document.documentElement.classList.remove("kb-query");
    if (composing || event.isComposing) return;
    later();
  });

  // Keyboard: ↓ from the box into the results, ↑/↓ between them, Esc back to the box.
  function links() { return Array.prototype.slice.call(list.querySelectorAll("a.result-title")); }
  input.addEventListener("keydown", function (event) {
    // The Enter that commits a conversion is the input method's, not a request to open a result.
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === "ArrowDown") {
      var all = links();
      if (all.length) { event.preventDefault(); all[0].focus(); }
    } else if (event.key === "Enter") {
      var first = links()[0];
      if (first) { event.preventDefault(); window.location.href = first.href; }
    }
  });
  list.addEventListener("keydown", function (event) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at + 1 < all.length) { event.preventDefault(); all[at + 1].focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); (at === 0 ? input : all[at - 1]).focus(); }
    else if (event.key === "Escape") { event.preventDefault(); input.focus(); }
  });

  // "/" focusing the box is in assets/app.js (for every page's box).

  // ?q= in the address starts a search right away (app.js keeps the address in step).
  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) {
    if (!input.value) input.value = params.get("q");
    run();
  }
})();
