// Which stage a finals tournament's match belongs to, inferred from the tournament's own results
// dated before it (decision 0159): the results file has no stage column, and a knockout match's
// recorded score includes extra time, so the outcome it records is the 120-minute one.
//
// An edition is a run of one tournament's matches with no gap over `EDITION_GAP_DAYS`. Its group
// stage is over once the sides seen so far split into groups that are each a complete round robin
// of three sides or more (every pair of a connected group has met): from that day on, every match
// of the edition is a knockout. A pair's second meeting in one edition is a knockout too (a group
// stage meets each pair once). Only results learnt so far are read: a forecast never sees its own
// day's matches, so the inference is leak-free.

/** Longest gap between two matches of one edition (finals last about a month, editions years apart). */
export const EDITION_GAP_DAYS = 20;
const DAY = 86_400_000;

/**
 * Tournament classes (international.ts's) whose editions have a group stage then knockouts:
 * qualifiers and nations leagues meet home and away, friendlies have no stage.
 */
const STAGED_CLASSES: ReadonlySet<string> = new Set(['world-cup', 'continental-final', 'other']);

export interface StagedMatch {
  date: number;
  home: string;
  away: string;
  /** The tournament's name (one edition = one name's run of close dates); none: no stage inferred. */
  tournament?: string;
  /** Its class (`TournamentClass`; a string here, the engine's model imports this file). */
  tournamentClass: string;
}

interface Edition {
  last: number;
  opponents: Map<string, Set<string>>;
  knockout: boolean;
}

/** Whether the sides met so far split into complete round robins of three sides or more. */
function groupsComplete(opponents: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  if (opponents.size === 0) return false;
  const seen = new Set<string>();
  for (const start of opponents.keys()) {
    if (seen.has(start)) continue;
    // The connected group of `start`; complete when each side met every other side of it.
    const group = [start];
    seen.add(start);
    for (let index = 0; index < group.length; index++) {
      for (const other of opponents.get(group[index]!) ?? []) {
        if (!seen.has(other)) {
          seen.add(other);
          group.push(other);
        }
      }
    }
    if (group.length < 3) return false;
    if (group.some((team) => opponents.get(team)!.size !== group.length - 1)) return false;
  }
  return true;
}

/** The editions seen so far, learnt one match-day at a time (after the day's forecasts). */
export class TournamentStages {
  private readonly editions = new Map<string, Edition>();

  private current(match: StagedMatch): Edition | undefined {
    if (!match.tournament || !STAGED_CLASSES.has(match.tournamentClass)) return undefined;
    const edition = this.editions.get(match.tournament);
    return edition && match.date - edition.last <= EDITION_GAP_DAYS * DAY ? edition : undefined;
  }

  /** Whether a match (not yet learnt, dated after every learnt one) is a knockout match. */
  isKnockout(match: StagedMatch): boolean {
    const edition = this.current(match);
    if (!edition) return false;
    if (edition.knockout || groupsComplete(edition.opponents)) return true;
    return edition.opponents.get(match.home)?.has(match.away) ?? false;
  }

  /** Learns one match-day: the stage of each edition is settled from the days before, then the day added. */
  playDay(day: readonly StagedMatch[]): void {
    const staged = day.filter((match) => match.tournament && STAGED_CLASSES.has(match.tournamentClass));
    for (const match of staged) {
      const edition = this.current(match);
      if (edition && !edition.knockout && groupsComplete(edition.opponents)) edition.knockout = true;
    }
    for (const match of staged) {
      let edition = this.current(match);
      if (!edition) {
        edition = { last: match.date, opponents: new Map(), knockout: false };
        this.editions.set(match.tournament!, edition);
      }
      edition.last = Math.max(edition.last, match.date);
      const add = (team: string, other: string) => {
        const set = edition.opponents.get(team) ?? new Set<string>();
        set.add(other);
        edition.opponents.set(team, set);
      };
      add(match.home, match.away);
      add(match.away, match.home);
    }
  }
}
