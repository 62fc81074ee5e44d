// TroubleshootKB: small progressive enhancements. The site works without this file.
// - Keeps the home page's search box and the `?q=` query in the URL in step, so a search can be
//   bookmarked or shared. The search itself lives in assets/search.js (optional).
// - On the other pages, "/" outside a text field puts the cursor in the header's search box
//   (a plain form to the home page; search.js does the same for the home page's box).
(function () {
  "use strict";
  var header = document.getElementById("header-search");
  if (header && !document.getElementById("search")) {
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      var target = event.target;
      var tag = target && target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
      event.preventDefault();
      header.focus();
      header.select();
    });
  }
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
