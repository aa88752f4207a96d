"""Accessibility checks for the browser tests: axe-core (the npm package the web app installs) run
on the page as it is, and the keyboard focus ring measured on the focused element."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from playwright.sync_api import Page

# Rules on top of axe's defaults (WCAG 2.0-2.2 A/AA and best practices): a visible label that
# is not part of the accessible name (WCAG 2.5.3 Label in Name) is an experimental rule.
EXTRA_RULES = ("label-content-name-mismatch",)


@cache
def _axe_source() -> str:
    path = Path(settings.SPA_DIST_DIR).parent / "node_modules" / "axe-core" / "axe.min.js"
    if not path.exists():
        raise AssertionError(f"axe-core is missing ({path}): run `make install`")
    return path.read_text()


def axe_violations(page: Page, *, include: str | None = None) -> list[dict]:
    """axe-core's violations on the page (or the part matching the CSS selector `include`)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the browser's debugging protocol: the app's CSP refuses inline scripts.
        page.evaluate(_axe_source() + "\n;undefined")
    # Transitions and entrance animations finish before colours are measured (endless ones,
    # a spinner's or a skeleton's, are left running).
    page.wait_for_function(
        """() => document.getAnimations().every((a) =>
            a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity)"""
    )
    options = {"rules": {rule: {"enabled": True} for rule in EXTRA_RULES}}
    return page.evaluate(
        """async ([include, options]) => {
            const result = await window.axe.run(include ?? document, options);
            return result.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
            }));
        }""",
        [include, options],
    )


def expect_axe_clean(page: Page, screen: str, *, include: str | None = None) -> None:
    """Fails with every violation axe-core finds on the screen, named `screen`."""
    violations = axe_violations(page, include=include)
    assert not violations, f"axe-core on {screen} ({page.url}):\n" + json.dumps(
        violations, indent=2
    )


# The focused element's ring: its own outline, or that of the nearest element React Aria marks
# with data-focus-visible (a chip's label around its visually hidden radio), or a box-shadow.
FOCUS_RING = """() => {
  const active = document.activeElement;
  if (!active || active === document.body) return { element: 'body', ring: false };
  const holder = active.closest('[data-focus-visible]') ?? active;
  const style = getComputedStyle(holder);
  const width = parseFloat(style.outlineWidth) || 0;
  const outline = style.outlineStyle !== 'none' && width >= 2
    && style.outlineColor !== 'transparent' && !style.outlineColor.endsWith(', 0)');
  const shadow = style.boxShadow && style.boxShadow !== 'none';
  const name = (holder.getAttribute('aria-label') || holder.textContent || '').trim().slice(0, 60);
  return {
    element: `${holder.tagName.toLowerCase()} "${name}"`,
    ring: outline || !!shadow,
    outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
  };
}"""


def focus_ring(page: Page) -> dict:
    return page.evaluate(FOCUS_RING)


def tab_through(page: Page, stops: int, *, journey: str) -> list[str]:
    """Presses Tab `stops` times and asserts a visible focus ring (>= 2 px outline, or a ring
    shadow) on every element that receives focus. Returns the elements it visited."""
    visited = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        state = focus_ring(page)
        if state["element"] == "body":
            break
        assert state["ring"], f"{journey}: no visible focus ring on {state}"
        visited.append(state["element"])
    assert visited, f"{journey}: Tab reached no element"
    return visited
