// Recent form: a team's last few results before a date, for the analysis text (not the model).
import type { Form, PlayedMatch } from './types.js';

export function recentForm(
  matches: readonly PlayedMatch[],
  team: string,
  asOf: number,
  count = 5,
): Form | null {
  const played = matches
    .filter((match) => match.date < asOf && (match.home === team || match.away === team))
    .sort((a, b) => a.date - b.date)
    .slice(-count);
  if (played.length === 0) return null;
  const form: Form = { results: [], goalsFor: 0, goalsAgainst: 0 };
  for (const match of played) {
    const isHome = match.home === team;
    const scored = isHome ? match.homeGoals : match.awayGoals;
    const conceded = isHome ? match.awayGoals : match.homeGoals;
    form.goalsFor += scored;
    form.goalsAgainst += conceded;
    form.results.push(scored > conceded ? 'V' : scored === conceded ? 'N' : 'D');
  }
  return form;
}
