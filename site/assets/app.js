// TroubleshootKB: small progressive enhancements. The site works without this file.
// - Keeps the home page's search box and the `?q=` query in the URL in step, so a search can be
//   bookmarked or shared. The search itself lives in assets/search.js (optional).
(function () {
  "use strict";
  var input = document.getElementById("search");
  if (!input) return;
  var params = new URLSearchParams(window.location.search);
  var q = params.get("q");
  if (q !== null && input.value === "") input.value = q;
  input.addEventListener("input", function () {
    if (!window.history || !window.history.replaceState) return;
    var next = new URLSearchParams(window.location.search);
    if (input.value) next.set("q", input.value); else next.delete("q");
    var query = next.toString();
    try {
      window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    } catch (e) { /* file:// in some browsers */ }
  });
})();
