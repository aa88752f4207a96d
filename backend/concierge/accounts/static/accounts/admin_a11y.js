// Django admin's two-box selects (filter_horizontal) label their filter boxes with a magnifier
// icon: a <span> carrying an aria-label but no role, which screen readers may ignore and axe
// refuses (aria-prohibited-attr). Given role="img", the icon is read as the picture of the hint
// it is. The widget builds its boxes once the page has loaded, so new icons are watched for.
"use strict";
(() => {
  const name = (root) => {
    for (const icon of root.querySelectorAll("span.help-tooltip[aria-label]:not([role])")) {
      icon.setAttribute("role", "img");
    }
  };
  const watch = () => {
    name(document);
    new MutationObserver(() => name(document)).observe(document.body, {
      childList: true,
      subtree: true,
    });
  };
  if (document.body) watch();
  else document.addEventListener("DOMContentLoaded", watch);
})();
