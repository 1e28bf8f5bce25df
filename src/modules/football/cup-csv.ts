// Reads footballcsv's European-cup season files (`champs.csv`: the Champions League to 2015-16)
// into the same matches as a Football.TXT file, so one importer and one model read both formats.
// Columns (looked up by name): Stage (`Qualifying`, `Group`, `Knockout`), Round (`Qual. Round 1 |
// Leg 1`, `Matchday ?`, `Final`), Group, Date (`(Tue) 30 Jun 2015 (W26)`), Team 1 / Team 2
// (`Real Madrid CF › ESP (12)`: club › country (running match number)), FT (90 minutes, `(*)`
// when extra time followed), HT, ET (`2-1 (a.e.t.)`: after extra time), P (`4-2 (pen.)`).
import { parseCsv } from './csv.js';
import { type FootballTxtMatch, type FootballTxtSeason, type Goals, seasonOfTitle } from './football-txt.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Whether a header is footballcsv's cup layout. */
export function isCupCsvHeader(header: readonly string[]): boolean {
  const names = new Set(header.map((name) => name.trim()));
  return names.has('Stage') && names.has('Round') && names.has('Team 1') && names.has('FT');
}

/** `(Tue) 30 Jun 2015 (W26)` (or `30 Jun 2015`) → `2015-06-30`; null otherwise. */
export function cupCsvDate(text: string): string | null {
  const match = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[2]!.toLowerCase());
  const day = Number(match[1]);
  const check = new Date(Date.UTC(Number(match[3]), month, day));
  if (month < 0 || check.getUTCDate() !== day) return null;
  return check.toISOString().slice(0, 10);
}

/** `Real Madrid CF › ESP (12)` → the club and its country code. */
function club(text: string): { name: string; country: string | null } {
  const [name, rest] = text.split('›');
  const country = /^\s*([A-Z]{2,3})\b/.exec(rest ?? '');
  return { name: (name ?? '').trim().replace(/\s+/g, ' '), country: country ? country[1]! : null };
}

function goalsOf(text: string | undefined): Goals | null {
  const match = /^\s*(\d{1,2})\s*-\s*(\d{1,2})/.exec(text ?? '');
  return match ? { home: Number(match[1]), away: Number(match[2]) } : null;
}

/**
 * Parses one cup season CSV. `competition` is our code of the cup (`UCL`…), `season` the season
 * (`2015-16`, else from the first date); rows without a readable date or clubs are skipped and reported.
 */
export function parseCupCsv(
  text: string,
  options: { competition?: string; season?: string } = {},
): FootballTxtSeason {
  const records = parseCsv(text);
  const header = records[0]?.fields.map((name) => name.trim()) ?? [];
  const at = (name: string) => header.indexOf(name);
  const result: FootballTxtSeason = {
    title: null,
    competition: options.competition ?? null,
    season: options.season ? seasonOfTitle(options.season) : null,
    matches: [],
    skipped: [],
  };
  if (!isCupCsvHeader(header)) {
    result.skipped.push({ line: 1, reason: 'not a cup CSV (Stage, Round, Team 1, FT columns)' });
    return result;
  }
  for (const record of records.slice(1)) {
    const get = (name: string) => {
      const i = at(name);
      return i < 0 ? '' : (record.fields[i] ?? '').trim();
    };
    if (record.fields.every((field) => field.trim() === '')) continue;
    const date = cupCsvDate(get('Date'));
    const home = club(get('Team 1'));
    const away = club(get('Team 2'));
    if (date === null) {
      result.skipped.push({ line: record.line, reason: `unreadable date "${get('Date')}"` });
      continue;
    }
    if (home.name === '' || away.name === '' || home.name === away.name) {
      result.skipped.push({ line: record.line, reason: 'missing or identical clubs' });
      continue;
    }
    const stageKind = get('Stage').toLowerCase();
    const [roundName, legText] = get('Round')
      .split('|')
      .map((part) => part.trim());
    const group = get('Group') || null;
    const leg = /leg\s*([12])/i.exec(legText ?? '');
    const fullTime = get('FT');
    const score = goalsOf(fullTime);
    if (fullTime !== '' && score === null && !/^[-?]*$/.test(fullTime)) {
      result.skipped.push({ line: record.line, reason: `unreadable score "${fullTime}"` });
      continue;
    }
    const match: FootballTxtMatch = {
      line: record.line,
      stage: stageKind === 'group' ? `Group ${group ?? '?'}` : roundName || get('Stage') || null,
      group: stageKind === 'group' ? group : null,
      knockout: stageKind !== 'group',
      leg: leg ? (Number(leg[1]) as 1 | 2) : null,
      date,
      kickoff: null,
      home: home.name,
      away: away.name,
      homeCountry: home.country,
      awayCountry: away.country,
      score,
      halfTime: score ? goalsOf(get('HT')) : null,
      extraTime: score ? goalsOf(get('ET')) : null,
      penalties: score ? goalsOf(get('P')) : null,
    };
    result.matches.push(match);
  }
  if (result.season === null && result.matches[0]) {
    const first = result.matches[0].date;
    const year = Number(first.slice(0, 4));
    const start = Number(first.slice(5, 7)) >= 6 ? year : year - 1;
    result.season = `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
  }
  return result;
}
