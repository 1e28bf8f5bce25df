// The forecasts file `evaluate --forecasts OUT.csv` writes, one line per test match, for an outside
// evaluation to score: `date,competition,home_team,away_team,p_home,p_draw,p_away`. Shared by every
// competition kind (leagues, cups, national teams), so the file reads the same whoever wrote it.
// Team names are written exactly as the test file has them (quoted only where CSV needs it), so
// the evaluation can join on them; probabilities have a fixed six decimals.

export interface ForecastLine {
  /** The match day, `YYYY-MM-DD`. */
  date: string;
  /** The competition's code as the report keys it (`E1`, `BRA`, …). */
  competition: string;
  /** As written in the test file, not normalised. */
  homeTeam: string;
  awayTeam: string;
  pHome: number;
  pDraw: number;
  pAway: number;
}

export const FORECASTS_HEADER = 'date,competition,home_team,away_team,p_home,p_draw,p_away';
const DECIMALS = 6;

/** A match day's `YYYY-MM-DD` (UTC) from its epoch milliseconds. */
export function forecastDate(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(0, 10);
}

/** A field quoted as RFC 4180 asks, only when it holds a comma, a quote or a line break. */
function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function probability(value: number, name: string, line: ForecastLine): string {
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(
      `${name} of ${line.homeTeam} – ${line.awayTeam} on ${line.date} is not a probability: ${value}`,
    );
  return value.toFixed(DECIMALS);
}

/** The forecasts file: the header, then one line per forecast in the order given, `\n` after each. */
export function forecastsCsv(lines: readonly ForecastLine[]): string {
  const out = [FORECASTS_HEADER];
  for (const line of lines) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(line.date))
      throw new Error(`forecast date "${line.date}" is not YYYY-MM-DD`);
    out.push(
      [
        line.date,
        field(line.competition),
        field(line.homeTeam),
        field(line.awayTeam),
        probability(line.pHome, 'p_home', line),
        probability(line.pDraw, 'p_draw', line),
        probability(line.pAway, 'p_away', line),
      ].join(','),
    );
  }
  return `${out.join('\n')}\n`;
}
