// What every browser test checks on a page, in one place: Debian's Chromium (playwright-core) and
// its launch flags, the overflow finder (nothing wider than the viewport, no box whose content
// spills out of it) and axe-core's WCAG A/AA pass, plus the folder the screenshots are kept in.
// Without Chromium a browser file is skipped locally and fails in CI (CI=true).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
/** Run the browser files: with Chromium, or in CI (where its absence fails the file). */
export const runBrowserTests = chromiumAvailable || inCi;
/** Where screenshots are kept (`.ci/run` keeps the folder as the build's artefacts). */
export const OUT = join(process.cwd(), '.ci', 'out');

/** The phone and desktop widths every page is laid out for. */
export const WIDTHS = [390, 1280] as const;

export function warnWithoutChromium(what: string): void {
  if (!runBrowserTests)
    console.warn(`${what} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable) throw new Error(`CI: Chromium is required at ${CHROMIUM} for the browser tests`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * What spills: the page wider than the viewport, or an element whose content is wider than its own
 * box (a word overflowing a squeezed card), or an SVG's text drawn outside the SVG (a clipped tick
 * label). Content inside a box that scrolls or clips on purpose (a wide table in its scroller) is
 * that box's business, and visually hidden helpers are skipped.
 */
export const FIND_OVERFLOW = `(() => {
  const found = [];
  const root = document.documentElement;
  const nameOf = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  if (root.scrollWidth > root.clientWidth + 1) {
    // Name the innermost elements that stick out, not the containers that hold them.
    const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1);
    const innermost = out.filter((el) => !out.some((other) => other !== el && el.contains(other)));
    found.push('the page is ' + root.scrollWidth + ' px wide in a ' + root.clientWidth + ' px viewport: ' + innermost.slice(0, 5).map(nameOf).join(', '));
    return found;
  }
  const clipped = (el) => {
    for (let p = el; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none') return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('body *')) {
    if (el.clientWidth === 0 || clipped(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push(nameOf(el) + ': content ' + el.scrollWidth + ' px in a ' + el.clientWidth + ' px box (' + (el.textContent || '').trim().slice(0, 40) + ')');
    }
  }
  // An SVG clips what it draws outside its viewport: a label cut there is lost, not overflowing.
  for (const svg of document.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
        found.push(nameOf(svg.closest('[id]') || svg) + ': the label "' + text.textContent + '" is cut by its chart');
      }
    }
  }
  return found;
})()`;

/** Text of an SVG chart drawn over other text of the same chart (an axis title across a tick). */
export const FIND_OVERLAPPING_LABELS = `(() => {
  const found = [];
  for (const svg of document.querySelectorAll('svg')) {
    const boxes = [...svg.querySelectorAll('text')].map((t) => [t.textContent, t.getBoundingClientRect()]).filter((b) => b[1].width > 0);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i][1], b = boxes[j][1];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
          found.push('"' + boxes[i][0] + '" overlaps "' + boxes[j][0] + '"');
        }
      }
    }
  }
  return found;
})()`;

/** Chart labels drawn smaller than `min` px once the SVG is scaled to the page (unreadable axes). */
export const findSmallLabels = (min = 10) => `(() => {
  const found = [];
  for (const text of document.querySelectorAll('svg text')) {
    const matrix = text.getScreenCTM();
    if (!matrix) continue;
    const size = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(matrix.a, matrix.b);
    if (size < ${min} - 0.01) found.push('"' + text.textContent + '" is drawn at ' + size.toFixed(1) + ' px');
  }
  return found;
})()`;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The WCAG 2.x A and AA rules; only the violations are collected (the passes' details cost time).
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  resultTypes: ['violations'],
};

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page, as "rule: help (targets)". axe-core is
 * injected as an inline script, so only this page's context may bypass the service's CSP
 * (`newPage({ bypassCSP: true })`): a test that checks the page under its CSP uses another context.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate('typeof axe')) === 'undefined') await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(
    `axe.run(document, ${JSON.stringify(AXE_OPTIONS)}).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
