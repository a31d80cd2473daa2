/* Typeset the math of rendered explanations with KaTeX (vendored in static/vendor/katex/).
 *
 * The server emits <span class="math inline">\(..\)</span> and <div class="math display">\[..\]</div>;
 * this file runs KaTeX's auto-render over every .explanation-body. Load it after katex.min.js and
 * auto-render.min.js, all with `defer` (no inline script: the CSP forbids them). For a live preview,
 * call window.prepTypesetMath(element) after replacing the element's HTML.
 */
(function () {
  "use strict";

  var OPTIONS = {
    delimiters: [
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true }
    ],
    throwOnError: false,
    trust: false,
    ignoredClasses: ["highlight"]
  };

  function typeset(root) {
    if (typeof window.renderMathInElement !== "function" || !root) {
      return;
    }
    var bodies = root.classList && root.classList.contains("explanation-body")
      ? [root]
      : root.querySelectorAll(".explanation-body");
    for (var i = 0; i < bodies.length; i++) {
      window.renderMathInElement(bodies[i], OPTIONS);
    }
  }

  window.prepTypesetMath = typeset;

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { typeset(document); });
  } else {
    typeset(document);
  }
})();
