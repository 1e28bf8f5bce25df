// The competition picker of the new-analysis screen: a disclosure that says which competition the
// fixtures come from; open, a search (name, country or code, accents aside) over every competition,
// the user's recent ones first, the others grouped by country. One radio group: Tab enters it, the
// arrows move through it. It ships with the new-analysis screen's chunk, never with the first screen.
import { useState } from 'preact/hooks';
import { type Competition, competitionLabel, groupByCountry, recentCompetitions } from '../competitions.js';
import { currentLanguage, t } from '../i18n/index.js';
import './competition-picker.css';

export interface PickerProps {
  competitions: readonly Competition[];
  /** The recent competition codes, most recent first. */
  recent: readonly string[];
  /** The chosen competition's code; '' for every competition. */
  chosen: string;
  onChoose: (code: string) => void;
}

function Choice({
  competition,
  chosen,
  onChoose,
}: {
  competition: Competition;
  chosen: string;
  onChoose: (code: string) => void;
}) {
  const notes = [t('upcomingMatches', { count: competition.upcoming_fixtures })];
  if (competition.basis === 'results') notes.push(t('basisResults'));
  if (competition.basis === 'priors') notes.push(t('basisPriors'));
  return (
    <li>
      <label class="choice">
        <input
          type="radio"
          name="competition"
          value={competition.code}
          checked={chosen === competition.code}
          onChange={() => onChoose(competition.code)}
        />
        <span>
          {competition.name}
          <span class="muted block">{notes.join(' · ')}</span>
        </span>
      </label>
    </li>
  );
}

export function CompetitionPicker({ competitions, recent, chosen, onChoose }: PickerProps) {
  const [search, setSearch] = useState('');
  const language = currentLanguage();
  const byCode = new Map(competitions.map((competition) => [competition.code, competition]));
  const recents = recentCompetitions(recent, byCode, search);
  const shownFirst = new Set(recents.map((competition) => competition.code));
  const groups = groupByCountry(
    competitions.filter((competition) => !shownFirst.has(competition.code)),
    search,
    language,
  );
  const current = byCode.get(chosen);
  const summary = current ? competitionLabel(current, byCode) : t('allLeagues');
  const groupOf = (key: string, legend: string, members: Competition[]) => (
    <fieldset key={key} class="competition-group">
      <legend>{legend}</legend>
      <ul>
        {members.map((competition) => (
          <Choice key={competition.code} competition={competition} chosen={chosen} onChoose={onChoose} />
        ))}
      </ul>
    </fieldset>
  );
  return (
    <details class="competition-picker">
      <summary>{t('competitionChosen', { name: summary })}</summary>
      <label>
        {t('searchCompetition')}
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      <div class="competition-list">
        <label class="choice">
          <input
            type="radio"
            name="competition"
            value=""
            checked={chosen === ''}
            onChange={() => onChoose('')}
          />
          <span>{t('allLeagues')}</span>
        </label>
        {recents.length > 0 && groupOf('recent', t('recentCompetitions'), recents)}
        {groups.map((group) =>
          groupOf(
            group.key || 'none',
            group.country ??
              (group.key === 'international' ? t('nationalTeamCompetitions') : t('noCountryCompetitions')),
            group.competitions,
          ),
        )}
        {recents.length === 0 && groups.length === 0 && <p>{t('noCompetitionFound')}</p>}
      </div>
    </details>
  );
}
