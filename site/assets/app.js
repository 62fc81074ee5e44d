// TroubleshootKB: small progressive enhancements. The site works without this file.
// - Keeps the home page's search box and the `?q=` query in the URL in step, so a search can be
//   bookmarked or shared. The search itself lives in assets/search.js (optional).
// - "/" outside a text field puts the cursor in the page's search box: the home page's, else the
//   header's (a plain form to the home page).
(function () {
  "use strict";
  var header = document.getElementById("search") || document.getElementById("header-search");
  if (header) {
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

// - Gives every code block a copy button (in the block's head, which the page already reserves,
//   so nothing moves). Its words come from the page (<body data-copy data-copied>), in the page's
//   language. The Clipboard API where the page may use it; otherwise (file:// in some browsers)
//   the code is selected in a hidden text area and copied with execCommand("copy").
(function () {
  "use strict";
  var heads = document.querySelectorAll(".code-block > .code-head");
  if (!heads.length) return;
  var body = document.body;
  var copyWord = body.getAttribute("data-copy") || "Copy";
  var copiedWord = body.getAttribute("data-copied") || "Copied";

  function copyBySelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.top = "0";
    area.style.left = "0";
    area.style.opacity = "0";
    body.appendChild(area);
    var active = document.activeElement;
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    body.removeChild(area);
    if (active && active.focus) active.focus();
    return done;
  }

  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(null, function () {
        if (!copyBySelection(text)) throw new Error("copy failed");
      });
    }
    return copyBySelection(text) ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }

  Array.prototype.forEach.call(heads, function (head) {
    var code = head.parentNode.querySelector("pre > code");
    if (!code) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "code-copy";
    button.textContent = copyWord;
    // Screen readers hear "Copied" from a status region (a button's own text change is not read).
    var status = document.createElement("span");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    var timer = null;
    button.addEventListener("click", function () {
      copy(code.textContent).then(function () {
        button.textContent = copiedWord;
        button.setAttribute("data-state", "copied");
        status.textContent = copiedWord;
        clearTimeout(timer);
        timer = setTimeout(function () {
          button.textContent = copyWord;
          button.removeAttribute("data-state");
          status.textContent = "";
        }, 2000);
      }, function () {
        button.setAttribute("data-state", "failed");
      });
    });
    head.appendChild(button);
    head.appendChild(status);
  });
})();
