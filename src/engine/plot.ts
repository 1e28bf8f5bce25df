// The evaluation's pictures as one hand-written SVG (a small string builder; no chart library is
// worth a dependency for two charts): a reliability diagram of home / draw / away and of over 2.5
// goals, the engine's points beside the bookmaker's, and the engine / bookmaker RPS ratio per
// season with its bootstrap interval.
import { groupScores, isPriced, type PricedMatch, type ScoredMatch } from './evaluation.js';

const BINS = 10;
const PANEL = 220;
const MARGIN = 40;
const COLOURS = { engine: '#d95f02', bookmaker: '#1b9e77' } as const;

export interface ReliabilityPoint {
  predicted: number;
  observed: number;
  count: number;
}

/** 0, 1, 2: home win, draw, away win; `over`: more than 2.5 goals (matches the bookmaker priced). */
export type PlottedOutcome = 0 | 1 | 2 | 'over';

/** Per probability bin (tenths): mean forecast and observed frequency of one outcome. */
export function reliability(
  matches: readonly PricedMatch[],
  outcome: PlottedOutcome,
  source: 'engine' | 'bookmaker',
): ReliabilityPoint[] {
  const sum = new Float64Array(BINS);
  const hits = new Float64Array(BINS);
  const count = new Float64Array(BINS);
  for (const match of matches) {
    if (outcome === 'over' && !match.overUnder) continue;
    const p = outcome === 'over' ? match.overUnder![source][0] : match[source][outcome];
    const happened = outcome === 'over' ? match.overUnder!.over : match.outcome === outcome;
    const bin = Math.min(Math.floor(p * BINS), BINS - 1);
    sum[bin]! += p;
    hits[bin]! += happened ? 1 : 0;
    count[bin]! += 1;
  }
  const points: ReliabilityPoint[] = [];
  for (let bin = 0; bin < BINS; bin++) {
    const n = count[bin]!;
    if (n >= 20) points.push({ predicted: sum[bin]! / n, observed: hits[bin]! / n, count: n });
  }
  return points;
}

const f = (value: number) => value.toFixed(1);
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function text(x: number, y: number, content: string, extra = ''): string {
  return `<text x="${f(x)}" y="${f(y)}" ${extra}>${escapeXml(content)}</text>`;
}

function reliabilityPanel(
  matches: readonly PricedMatch[],
  outcome: PlottedOutcome,
  left: number,
  top: number,
): string {
  const title = outcome === 'over' ? 'Over 2.5 goals' : ['Home win', 'Draw', 'Away win'][outcome]!;
  const x = (p: number) => left + p * PANEL;
  const y = (p: number) => top + PANEL - p * PANEL;
  const parts = [
    `<rect x="${left}" y="${top}" width="${PANEL}" height="${PANEL}" fill="none" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#ccc" stroke-dasharray="4 3"/>`,
    text(left + PANEL / 2, top - 8, title, 'text-anchor="middle" font-weight="bold"'),
    text(left + PANEL / 2, top + PANEL + 30, 'predicted probability', 'text-anchor="middle"'),
  ];
  for (const tick of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
    parts.push(text(x(tick), top + PANEL + 14, tick.toFixed(1), 'text-anchor="middle" font-size="10"'));
    parts.push(text(left - 4, y(tick) + 3, tick.toFixed(1), 'text-anchor="end" font-size="10"'));
  }
  for (const source of ['bookmaker', 'engine'] as const) {
    const points = reliability(matches, outcome, source);
    const path = points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${f(x(p.predicted))},${f(y(p.observed))}`)
      .join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${COLOURS[source]}" stroke-width="1.5"/>`);
    for (const p of points) {
      const radius = Math.min(6, 1.5 + Math.sqrt(p.count) / 8);
      parts.push(
        `<circle cx="${f(x(p.predicted))}" cy="${f(y(p.observed))}" r="${f(radius)}" fill="${COLOURS[source]}" fill-opacity="0.7"><title>${source}: ${p.count} matches, predicted ${p.predicted.toFixed(3)}, observed ${p.observed.toFixed(3)}</title></circle>`,
      );
    }
  }
  return parts.join('\n');
}

function seasonPanel(matches: readonly PricedMatch[], left: number, top: number, width: number): string {
  const seasons = [...new Set(matches.map((m) => m.season))].sort();
  // Priced matches only: every season here has a ratio and an interval.
  const scores = seasons.map((season) => {
    const group = groupScores(matches.filter((m) => m.season === season));
    return { ...group, rps_ratio: group.rps_ratio ?? 1, rps_ratio_ci: group.rps_ratio_ci ?? [1, 1] };
  });
  const values = scores.flatMap((s) => [s.rps_ratio_ci[0], s.rps_ratio_ci[1], 1]).filter(Number.isFinite);
  const low = Math.min(0.98, ...values);
  const high = Math.max(1.06, ...values);
  const y = (value: number) => top + PANEL - ((value - low) / (high - low)) * PANEL;
  const step = width / Math.max(seasons.length, 1);
  const parts = [
    `<rect x="${left}" y="${top}" width="${width}" height="${PANEL}" fill="none" stroke="#999"/>`,
    text(
      left + width / 2,
      top - 8,
      'RPS ratio engine / bookmaker per season (95 % bootstrap)',
      'text-anchor="middle" font-weight="bold"',
    ),
    `<line x1="${left}" y1="${f(y(1))}" x2="${left + width}" y2="${f(y(1))}" stroke="${COLOURS.bookmaker}" stroke-dasharray="4 3"/>`,
  ];
  for (let tick = Math.ceil(low * 100) / 100; tick <= high; tick += 0.01) {
    parts.push(text(left - 4, y(tick) + 3, tick.toFixed(2), 'text-anchor="end" font-size="10"'));
  }
  scores.forEach((s, i) => {
    const cx = left + step * (i + 0.5);
    parts.push(
      `<line x1="${f(cx)}" y1="${f(y(s.rps_ratio_ci[0]))}" x2="${f(cx)}" y2="${f(y(s.rps_ratio_ci[1]))}" stroke="#555"/>`,
      `<circle cx="${f(cx)}" cy="${f(y(s.rps_ratio))}" r="4" fill="${COLOURS.engine}"><title>${seasons[i]}: ${s.rps_ratio.toFixed(4)} over ${s.matches} matches</title></circle>`,
      text(cx, top + PANEL + 14, seasons[i]!, 'text-anchor="middle" font-size="10"'),
    );
  });
  return parts.join('\n');
}

/**
 * The whole picture: four reliability panels on top (1X2, over 2.5), the season chart below; the
 * matches the bookmaker priced only, so both sides are drawn over the same matches.
 */
export function evaluationPlot(scored: readonly ScoredMatch[]): string {
  const matches = scored.filter(isPriced);
  const width = MARGIN + 4 * (PANEL + MARGIN);
  const height = 2 * (PANEL + 2 * MARGIN) + 30;
  const body = [
    `<rect width="${width}" height="${height}" fill="white"/>`,
    reliabilityPanel(matches, 0, MARGIN, MARGIN),
    reliabilityPanel(matches, 1, MARGIN + PANEL + MARGIN, MARGIN),
    reliabilityPanel(matches, 2, MARGIN + 2 * (PANEL + MARGIN), MARGIN),
    reliabilityPanel(matches, 'over', MARGIN + 3 * (PANEL + MARGIN), MARGIN),
    seasonPanel(matches, MARGIN, PANEL + 3 * MARGIN + 10, width - 2 * MARGIN),
    `<g font-size="12"><rect x="${width - 250}" y="${height - 22}" width="10" height="10" fill="${COLOURS.engine}"/>${text(width - 236, height - 13, 'engine')}<rect x="${width - 170}" y="${height - 22}" width="10" height="10" fill="${COLOURS.bookmaker}"/>${text(width - 156, height - 13, 'bookmaker (margin-free)')}</g>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">\n<title>Engine calibration: ${matches.length} matches</title>\n${body.join('\n')}\n</svg>\n`;
}
