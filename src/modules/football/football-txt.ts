// Reads Football.TXT season files (openfootball's `cl.txt`, `el.txt`, `conf.txt`…) into typed
// matches, played or scheduled. The format is plain text, one thing per line:
//   = UEFA Champions League 2019/20          title: the competition and its season
//   # Date  Tue Sep/17 2019 - …              comment (also anything after ` # ` or `##`)
//   » Group A  /  » Round of 16 / » Final     stage heading (`▪` too); `…, Leg 2` names the leg
//     Tue Sep/17 2019   /   [Wed Oct/1]       date line; the year is written when it changes
//     21.00  Home (FRA) v Away (ESP)  3-0 (2-0)
//            Home (ENG) v Away (GER)  4-2 a.e.t. (1-2, 0-0)
//            Home v Away  1-1 a.e.t. (1-1, 0-1), 4-3 pen.
//     21.00  Home (FRA)  3-0 (2-0)  Away (ESP)      (the score between the teams: older files)
// A blank kick-off time means the one of the line above. A match without a score is scheduled.
// The 90-minute score is kept apart from the extra-time score and the shoot-out (DESIGN,
// "Fixtures": knockout scores settle by their 90 minutes). Pure: text in, matches out.

import { splitLeg } from '../../lib/stages.js';

export interface Goals {
  home: number;
  away: number;
}

export interface FootballTxtMatch {
  /** Line in the file, for reports. */
  line: number;
  /** The stage heading as written (`Group A`, `Round of 16`, `Final`); null before any heading. */
  stage: string | null;
  /** The group's letter or name when the stage is a group (`A`), else null. */
  group: string | null;
  /** Whether the stage is a knockout round (not a group, not a league phase). */
  knockout: boolean;
  /** Which leg of a two-legged tie (1 or 2): from the heading, or the pair's order in a knockout
   *  stage where the same two clubs meet twice; null for single matches (finals, groups). */
  leg: 1 | 2 | null;
  /** Match day, `yyyy-mm-dd`, as the file writes it (the competition's local calendar). */
  date: string;
  /** Local kick-off `HH:MM` as written (Central European time for UEFA's cups), or null. */
  kickoff: string | null;
  home: string;
  away: string;
  /** Country code the file writes after the club (`ENG`), or null. */
  homeCountry: string | null;
  awayCountry: string | null;
  /** The score after 90 minutes; null for a match not played yet. */
  score: Goals | null;
  halfTime: Goals | null;
  /** The score after extra time (it includes the 90 minutes), when the match went to extra time. */
  extraTime: Goals | null;
  /** The shoot-out's score, when there was one. */
  penalties: Goals | null;
}

export interface FootballTxtSeason {
  /** The title line's text (`UEFA Champions League 2019/20`), or null. */
  title: string | null;
  /** Our code of the competition the title names (`UCL`, `UEL`, `UECL`), or null. */
  competition: string | null;
  /** `2019-20` (or `2020` for a calendar-year competition), from the title or the first date. */
  season: string | null;
  matches: FootballTxtMatch[];
  /** Lines that looked like matches but could not be read, with why. */
  skipped: { line: number; reason: string }[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?';
/** `Tue Sep/17 2019`, `[Wed Oct/1]`, `Sep/17`, `Tue Sep 17 2019`, `Tue 17 Sep 2019`. */
const DATE_LINE = new RegExp(
  `^\\[?\\s*(?:${WEEKDAY}\\s+)?(?:([a-z]{3})[a-z]*\\.?[/ ](\\d{1,2})|(\\d{1,2})[/ .]([a-z]{3})[a-z]*\\.?)(?:[/ ,]+(\\d{4}))?\\s*\\]?$`,
  'i',
);
const TIME = /^(\d{1,2})[.:h](\d{2})(?:\s*(?:UTC|CET|CEST)?[+-]?\d*)?\s+/i;
const SCORE = '(\\d{1,2})\\s*[-:]\\s*(\\d{1,2})';

/** The cup a title names: our competition codes for UEFA's three club cups. */
export function cupCodeOf(title: string): string | null {
  const text = title.toLowerCase();
  if (text.includes('champions league') || text.includes('champions cup')) return 'UCL';
  if (text.includes('europa conference') || text.includes('conference league')) return 'UECL';
  if (text.includes('europa league') || text.includes('uefa cup')) return 'UEL';
  return null;
}

/** `2019/20`, `2019/2020`, `2019-20` → `2019-20`; a lone `2020` stays; else null. */
export function seasonOfTitle(title: string): string | null {
  const split = /(\d{4})\s*[/-]\s*(\d{2}|\d{4})(?!\d)/.exec(title);
  if (split) {
    const start = Number(split[1]);
    if ((start + 1) % 100 === Number(split[2]!.slice(-2))) {
      return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
    }
  }
  const single = /(?:^|\s)(\d{4})(?:\s|$)/.exec(title);
  return single ? single[1]! : null;
}

/** `Real Madrid (ESP)` → name and country code; a name without a code keeps null. */
export function splitClub(text: string): { name: string; country: string | null } {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match = /^(.*?)\s*\(([A-Z]{2,3})\)$/.exec(trimmed);
  return match ? { name: match[1]!, country: match[2]! } : { name: trimmed, country: null };
}

interface ScoreParts {
  score: Goals | null;
  halfTime: Goals | null;
  extraTime: Goals | null;
  penalties: Goals | null;
}

const goals = (home: string | undefined, away: string | undefined): Goals => ({
  home: Number(home),
  away: Number(away),
});

/**
 * Reads a score block: `3-0`, `3-0 (2-0)`, `4-2 a.e.t. (1-2, 0-0)`, `1-1 a.e.t. (1-1, 0-1), 4-3 pen.`,
 * `4-3 pen. 1-1 a.e.t. (1-1, 0-1)`. Null when the text is not a score (a scheduled match's `-`).
 */
export function parseScoreBlock(text: string): ScoreParts | null {
  let rest = text.trim().replace(/\s+/g, ' ');
  if (rest === '') return null;
  let penalties: Goals | null = null;
  const pen = new RegExp(`(?:^|[\\s,])${SCORE}\\s*(?:pen\\.?|p\\.?|on penalties)(?=$|[\\s,;])`, 'i').exec(
    rest,
  );
  if (pen) {
    penalties = goals(pen[1], pen[2]);
    rest = `${rest.slice(0, pen.index)} ${rest.slice(pen.index + pen[0].length)}`.replace(
      /^[\s,]+|[\s,]+$/g,
      '',
    );
  }
  const aet = new RegExp(`^${SCORE}\\s*(?:a\\.?e\\.?t\\.?|n\\.V\\.?)\\s*(?:\\(([^)]*)\\))?$`, 'i').exec(rest);
  if (aet) {
    const inner = (aet[3] ?? '').split(',').map((part) => new RegExp(`^\\s*${SCORE}\\s*$`).exec(part));
    return {
      extraTime: goals(aet[1], aet[2]),
      score: inner[0] ? goals(inner[0][1], inner[0][2]) : null,
      halfTime: inner[1] ? goals(inner[1][1], inner[1][2]) : null,
      penalties,
    };
  }
  const plain = new RegExp(`^${SCORE}(?:\\s*\\(${SCORE}\\))?$`).exec(rest);
  if (!plain) return null;
  return {
    score: goals(plain[1], plain[2]),
    halfTime: plain[3] === undefined ? null : goals(plain[3], plain[4]),
    extraTime: null,
    penalties,
  };
}

/** Where a score block starts in `Away (ESP)  3-0 (2-0)`: the first space after which a score reads. */
function scoreStart(text: string): { at: number; parts: ScoreParts | null } | null {
  const spaces = /\s+/g;
  for (let found = spaces.exec(text); found; found = spaces.exec(text)) {
    const rest = text.slice(found.index + found[0].length);
    if (/^[-?–]+(?:\s*\(-\))?$/.test(rest)) return { at: found.index, parts: null };
    if (!new RegExp(`^${SCORE}(?:\\s|,|$)`).test(rest)) continue;
    return { at: found.index, parts: parseScoreBlock(rest) };
  }
  return null;
}

/** A match line's teams and score, from `Home v Away score` or `Home score Away`. */
function splitMatchLine(
  text: string,
): { home: string; away: string; parts: ScoreParts | null; scoreText: string } | null {
  const versus = /\s+(?:v|vs\.?)\s+/i.exec(text);
  if (versus) {
    const home = text.slice(0, versus.index);
    const after = text.slice(versus.index + versus[0].length);
    const start = scoreStart(after);
    if (!start) return { home, away: after, parts: null, scoreText: '' };
    const scoreText = after.slice(start.at).trim();
    const scheduled = /^[-?–]+(?:\s*\(-\))?$/.test(scoreText);
    return {
      home,
      away: after.slice(0, start.at),
      parts: start.parts,
      scoreText: start.parts || scheduled ? '' : scoreText,
    };
  }
  // The older layout: the score between the clubs.
  const middle = new RegExp(
    `^(.*?\\S)\\s+(${SCORE}(?:\\s*(?:a\\.e\\.t\\.|pen\\.)|\\s*\\([^)]*\\)|,?\\s*${SCORE}\\s*(?:pen\\.|a\\.e\\.t\\.))*)\\s+(\\D.*)$`,
    'i',
  ).exec(text);
  if (!middle) return null;
  const parts = parseScoreBlock(middle[2]!);
  return { home: middle[1]!, away: middle[middle.length - 1]!, parts, scoreText: parts ? '' : middle[2]! };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Parses a Football.TXT season file. Unreadable match lines are skipped and reported, never thrown. */
export function parseFootballTxt(text: string): FootballTxtSeason {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = source.split(/\r\n|\r|\n/);
  const result: FootballTxtSeason = {
    title: null,
    competition: null,
    season: null,
    matches: [],
    skipped: [],
  };
  let stage: string | null = null;
  let group: string | null = null;
  let knockout = false;
  let headingLeg: 1 | 2 | null = null;
  let year: number | null = null;
  let lastMonth: number | null = null;
  let date: string | null = null;
  let kickoff: string | null = null;

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const withoutComment = raw.replace(/(?:^|\s)##.*$/, '').replace(/\s+#\s.*$/, '');
    const line = withoutComment.trim();
    if (line === '' || line.startsWith('#')) return;

    if (line.startsWith('=')) {
      result.title ??= line.replace(/^=+\s*/, '').replace(/\s*=+$/, '');
      result.competition ??= cupCodeOf(result.title);
      result.season ??= seasonOfTitle(result.title);
      const titleYear = /(\d{4})/.exec(result.title);
      if (titleYear && year === null) year = Number(titleYear[1]);
      return;
    }

    const heading = /^(?:»|▪|::|\*\*)\s*(.+?)\s*$/.exec(line);
    if (heading) {
      stage = heading[1]!;
      const groupName = /^group\s+(\S+)/i.exec(stage);
      group = groupName ? groupName[1]!.replace(/[,:]$/, '') : null;
      knockout = group === null && !/matchday|league phase|league stage|round \d+$/i.test(stage);
      // The one reading of a heading's leg, the admin's stage field's too.
      headingLeg = splitLeg(stage).leg;
      kickoff = null;
      return;
    }

    const dateLine = DATE_LINE.exec(line);
    if (dateLine) {
      const monthText = (dateLine[1] ?? dateLine[4])!.toLowerCase();
      const month = MONTHS.indexOf(monthText);
      const day = Number(dateLine[2] ?? dateLine[3]);
      if (month >= 0) {
        if (dateLine[5]) year = Number(dateLine[5]);
        else if (year !== null && lastMonth !== null && month < lastMonth - 5) year += 1;
        if (year === null) {
          result.skipped.push({ line: lineNo, reason: 'date without a year before any year' });
          date = null;
          return;
        }
        const check = new Date(Date.UTC(year, month, day));
        date = check.getUTCDate() === day ? `${year}-${pad(month + 1)}-${pad(day)}` : null;
        if (date === null) result.skipped.push({ line: lineNo, reason: `impossible date "${line}"` });
        lastMonth = month;
        kickoff = null;
        return;
      }
    }

    let body = line.replace(/\s+@\s+.*$/, '');
    const time = TIME.exec(body);
    if (time) {
      kickoff = `${pad(Number(time[1]))}:${time[2]}`;
      body = body.slice(time[0].length);
    }
    const split = splitMatchLine(body);
    if (!split) {
      result.skipped.push({ line: lineNo, reason: `not a match line "${line}"` });
      return;
    }
    if (split.scoreText !== '') {
      result.skipped.push({ line: lineNo, reason: `unreadable score "${split.scoreText}"` });
      return;
    }
    if (date === null) {
      result.skipped.push({ line: lineNo, reason: 'match before any date line' });
      return;
    }
    const home = splitClub(split.home);
    const away = splitClub(split.away);
    if (home.name === '' || away.name === '' || home.name.toLowerCase() === away.name.toLowerCase()) {
      result.skipped.push({ line: lineNo, reason: 'missing or identical clubs' });
      return;
    }
    result.matches.push({
      line: lineNo,
      stage,
      group,
      knockout,
      leg: headingLeg,
      date,
      kickoff,
      home: home.name,
      away: away.name,
      homeCountry: home.country,
      awayCountry: away.country,
      score: split.parts?.score ?? null,
      halfTime: split.parts?.halfTime ?? null,
      extraTime: split.parts?.extraTime ?? null,
      penalties: split.parts?.penalties ?? null,
    });
  });

  markLegs(result.matches);
  result.season ??= result.matches[0] ? seasonOfDate(result.matches[0].date) : null;
  return result;
}

/** In a knockout stage without legs in its heading, the same two clubs meeting twice are a tie's legs. */
function markLegs(matches: FootballTxtMatch[]): void {
  const seen = new Map<string, FootballTxtMatch>();
  for (const match of matches) {
    if (!match.knockout || match.leg !== null) continue;
    const key = `${match.stage}|${[match.home, match.away].sort().join('|')}`;
    const first = seen.get(key);
    if (first && first.home === match.away) {
      first.leg = 1;
      match.leg = 2;
    } else {
      seen.set(key, match);
    }
  }
}

/** The season a date falls in, for cups starting in the summer: 2019-09-18 → `2019-20`. */
function seasonOfDate(date: string): string {
  const year = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= 7 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * A match's kick-off as a UTC instant, reading the file's local time as Central European time
 * (UEFA's files: CET, CEST from the last Sunday of March to the last Sunday of October). Without a
 * kick-off time, the match day at 00:00 UTC.
 */
export function centralEuropeanKickoff(date: string, kickoff: string | null): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (kickoff === null) return new Date(Date.UTC(year, month - 1, day));
  const [hour, minute] = kickoff.split(':').map(Number) as [number, number];
  const lastSunday = (monthIndex: number) => {
    const last = new Date(Date.UTC(year, monthIndex + 1, 0));
    return last.getUTCDate() - last.getUTCDay();
  };
  const summerStart = Date.UTC(year, 2, lastSunday(2), 1);
  const summerEnd = Date.UTC(year, 9, lastSunday(9), 1);
  const asWinter = Date.UTC(year, month - 1, day, hour - 1, minute);
  const summer = asWinter - 3600_000 >= summerStart && asWinter - 3600_000 < summerEnd;
  return new Date(summer ? asWinter - 3600_000 : asWinter);
}
