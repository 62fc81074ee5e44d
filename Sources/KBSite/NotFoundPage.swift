import KBCore
import KBSearch
import KBScenarios
/// What 404.html carries so it works at any depth. Hosts serve its content at the missing
/// address (`/a/b/c/missing`), where the page's relative links would point into folders that do
/// not exist. So the stylesheet is inlined, and, when no base URL is known, a small script finds
/// the site root and points the page's relative links and form actions at it (and loads its
/// scripts from there). Without JavaScript the links stay
/// relative to the site root: right for a missing page at the top level and for the file opened
/// from disk; `--base-url` (a `<base>` element) makes them right everywhere.
enum NotFoundPage {
    /// The theme's stylesheet as a `<style>` element. `</` is written `<\/` (the same in CSS,
    /// where `\/` is `/`), so no text of the stylesheet can close the element.
    static func styleElement(_ stylesheet: String) -> String {
        let safe = stylesheet.contains("</") ? stylesheet.replacingOccurrences(of: "</", with: "<\\/") : stylesheet
        return "<style>\n" + safe + (safe.hasSuffix("\n") ? "" : "\n") + "</style>"
    }

    /// Finds the site root: from the missing page's folder up to `/`, the first folder whose
    /// `assets/style.css` is served as CSS (a host that answers every path with HTML does not
    /// count); then every relative `href` and form `action` of the page is made to start there, and
    /// below the root the page's scripts are loaded from it. Only over http(s):
    /// opened from disk, 404.html sits at the root and its links work as they are.
    static let rootFinder = """
    <script>
    (function () {
      "use strict";
      if (!/^https?:$/.test(location.protocol) || !window.fetch) return;
      var folders = location.pathname.split("/").slice(0, -1), candidates = [];
      for (var n = folders.length; n >= 1; n--) candidates.push(folders.slice(0, n).join("/") + "/");
      function rebase(root) {
        if (document.readyState === "loading") {
          document.addEventListener("DOMContentLoaded", function () { rebase(root); });
          return;
        }
        function relative(url) { return !/^([a-z][a-z0-9+.-]*:|\\/|#)/i.test(url); }
        var links = document.querySelectorAll("a[href], link[href], form[action]");
        for (var i = 0; i < links.length; i++) {
          var name = links[i].tagName === "FORM" ? "action" : "href", url = links[i].getAttribute(name);
          if (relative(url)) links[i].setAttribute(name, root + url);
        }
        // Below the root, the page's own scripts (the header search's "/" key) did not load:
        // they are loaded again from the root.
        if (root !== candidates[0]) {
          var scripts = document.querySelectorAll("script[src]");
          for (var j = 0; j < scripts.length; j++) {
            var src = scripts[j].getAttribute("src");
            if (!relative(src)) continue;
            var again = document.createElement("script");
            again.src = root + src;
            document.head.appendChild(again);
          }
        }
        document.documentElement.setAttribute("data-site-root", root);
      }
      function probe(i) {
        if (i >= candidates.length) return;
        fetch(candidates[i] + "\(SitePaths.stylesheet)", { cache: "no-store" }).then(function (response) {
          var type = response.headers.get("content-type") || "";
          if (response.ok && type.indexOf("css") >= 0) rebase(candidates[i]); else probe(i + 1);
        }, function () {});
      }
      probe(0);
    })();
    </script>
    """
}
