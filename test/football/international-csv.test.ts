import { describe, expect, it } from 'vitest';
import {
  canonicalNationalTeam,
  confederationOf,
  INTERNATIONAL_COMPETITION_CODES,
  internationalCompetitionCode,
  isInternationalResultsHeader,
  matchConfederation,
  NationalTeamNames,
  nationalTeamName,
  parseFormerNames,
  parseInternationalResults,
  parseShootouts,
  tournamentClassOf,
} from '../../src/modules/football/international-csv.js';

// The dataset's columns: a played final, a qualifier, a scheduled fixture (empty scores), a former
// name, a tournament with a comma inside quotes, and four bad rows.
const RESULTS = [
  'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral',
  '2017-02-05,Egypt,Cameroon,1,2,African Cup of Nations,Libreville,Gabon,TRUE',
  '2021-11-16,Cameroon,Ivory Coast,1,0,FIFA World Cup qualification,Douala,Cameroon,FALSE',
  '2026-03-27,Cameroun,Maroc,,,Friendly,Yaoundé,Cameroon,false',
  '1974-06-14,Zaïre,Scotland,0,2,FIFA World Cup,Dortmund,Germany,TRUE',
  '2015-07-04,Tibet,Panjab,1,1,"International Tournament of Peoples, Cultures and Tribes",Bolzano,Italy,TRUE',
  '04/07/2015,Ghana,Togo,1,0,Friendly,Accra,Ghana,FALSE',
  '2015-07-05,Ghana,,1,0,Friendly,Accra,Ghana,FALSE',
  '2015-07-06,Ghana,Togo,1,,Friendly,Accra,Ghana,FALSE',
  '2015-07-07,Ghana,Togo,x,0,Friendly,Accra,Ghana,FALSE',
  '',
].join('\n');

describe('international results reader', () => {
  it('reads played matches, scheduled fixtures and former names, and says why it skipped rows', () => {
    const { matches, skipped } = parseInternationalResults(RESULTS);
    expect(matches).toHaveLength(5);
    expect(matches[0]).toMatchObject({
      line: 2,
      date: '2017-02-05',
      timestamp: Date.UTC(2017, 1, 5),
      homeTeam: 'Egypt',
      awayTeam: 'Cameroon',
      homeGoals: 1,
      awayGoals: 2,
      tournament: 'African Cup of Nations',
      competition: 'INT-AFCON',
      city: 'Libreville',
      country: 'Gabon',
      neutral: true,
    });
    expect(matches[1]).toMatchObject({ competition: 'INT-WC-Q-CAF', neutral: false });
    expect(matches[2]).toMatchObject({
      homeTeam: 'Cameroon',
      awayTeam: 'Morocco',
      homeTeamAsWritten: 'Cameroun',
      awayTeamAsWritten: 'Maroc',
      homeGoals: null,
      awayGoals: null,
      competition: 'INT-FRIENDLY',
    });
    expect(matches[3]).toMatchObject({
      homeTeam: 'DR Congo',
      homeTeamAsWritten: 'Zaïre',
      competition: 'INT-WC',
    });
    expect(matches[4]).toMatchObject({
      tournament: 'International Tournament of Peoples, Cultures and Tribes',
      competition: 'INT-OTHER',
    });
    expect(skipped.map((row) => row.line)).toEqual([7, 8, 9, 10]);
    expect(skipped[0]!.reason).toMatch(/yyyy-mm-dd/);
    expect(skipped[1]!.reason).toMatch(/team is missing/);
    expect(skipped[2]!.reason).toMatch(/only one score/);
    expect(skipped[3]!.reason).toMatch(/not a count/);
  });

  it('refuses a file without the dataset columns', () => {
    const { matches, skipped } = parseInternationalResults('Div,Date,HomeTeam\nE0,01/01/20,A\n');
    expect(matches).toEqual([]);
    expect(skipped[0]).toMatchObject({ line: 1 });
    expect(isInternationalResultsHeader(['Date', 'home_team', 'away_team', 'home_score', 'away_score'])).toBe(
      false,
    );
  });

  it('brings French names, FIFA spellings and former names to the current names', () => {
    expect(canonicalNationalTeam('Cameroun')).toBe('Cameroon');
    expect(canonicalNationalTeam("Côte d'Ivoire")).toBe('Ivory Coast');
    expect(canonicalNationalTeam('cote d ivoire')).toBe('Ivory Coast');
    expect(canonicalNationalTeam('MAROC')).toBe('Morocco');
    expect(canonicalNationalTeam('Korea Republic')).toBe('South Korea');
    expect(canonicalNationalTeam('Swaziland')).toBe('Eswatini');
    expect(canonicalNationalTeam('Zaire', '1980-01-01')).toBe('DR Congo');
    // "Ireland" before 1956 is Northern Ireland; today it is the Republic.
    expect(canonicalNationalTeam('Ireland', '1950-01-01')).toBe('Northern Ireland');
    expect(canonicalNationalTeam('Ireland', '2020-01-01')).toBe('Republic of Ireland');
    expect(canonicalNationalTeam('  Atlantis  ')).toBe('Atlantis');
  });

  it('reads former_names.csv and uses it instead of the built-in copy', () => {
    const formers = parseFormerNames(
      'current,former,start_date,end_date\nBenin,Dahomey,1959-11-08,1975-11-30\nGhana,,1950-05-28,1957-03-06\n',
    );
    expect(formers).toEqual([
      { current: 'Benin', former: 'Dahomey', startDate: '1959-11-08', endDate: '1975-11-30' },
    ]);
    const names = new NationalTeamNames(formers);
    expect(names.canonical('Dahomey', '1960-01-01')).toBe('Benin');
    expect(names.canonical('Gold Coast', '1955-01-01')).toBe('Gold Coast');
  });

  it('reads shoot-outs with names brought to the current ones', () => {
    const shootouts = parseShootouts(
      'date,home_team,away_team,winner,first_shooter\n2017-02-05,Cameroun,Egypt,Cameroun,\nbad,,,,\n',
    );
    expect(shootouts).toEqual([
      { date: '2017-02-05', homeTeam: 'Cameroon', awayTeam: 'Egypt', winner: 'Cameroon' },
    ]);
  });

  it('codes World Cup qualifiers by confederation and classes every code', () => {
    expect(internationalCompetitionCode('FIFA World Cup qualification', 'Brazil', 'Chile')).toBe(
      'INT-WC-Q-CONMEBOL',
    );
    expect(internationalCompetitionCode('FIFA World Cup qualification', 'Peru', 'Australia')).toBe(
      'INT-WC-Q-PO',
    );
    expect(internationalCompetitionCode('African Cup of Nations qualification', 'Cameroon', 'Kenya')).toBe(
      'INT-AFCON-Q',
    );
    expect(internationalCompetitionCode('UEFA Euro', 'France', 'Portugal')).toBe('INT-EURO');
    expect(internationalCompetitionCode('CECAFA Cup', 'Kenya', 'Uganda')).toBe('INT-OTHER');
    expect(tournamentClassOf('INT-WC')).toBe('world-cup');
    expect(tournamentClassOf('INT-AFCON')).toBe('continental-final');
    expect(tournamentClassOf('INT-AFCON-Q')).toBe('qualifier');
    expect(tournamentClassOf('INT-WC-Q-UEFA')).toBe('qualifier');
    expect(tournamentClassOf('INT-UNL')).toBe('nations-league');
    expect(tournamentClassOf('INT-FRIENDLY')).toBe('friendly');
    expect(tournamentClassOf('INT-OTHER')).toBe('other');
    expect(new Set(INTERNATIONAL_COMPETITION_CODES).size).toBe(INTERNATIONAL_COMPETITION_CODES.length);
  });

  it('knows confederations and French names', () => {
    expect(confederationOf('Cameroon')).toBe('CAF');
    expect(confederationOf('Australia')).toBe('AFC');
    expect(confederationOf('Tibet')).toBeNull();
    expect(matchConfederation('Cameroon', 'Nigeria')).toBe('CAF');
    expect(matchConfederation('Cameroon', 'Brazil')).toBe('inter');
    expect(nationalTeamName('Ivory Coast', 'fr')).toBe("Côte d'Ivoire");
    expect(nationalTeamName('Ivory Coast', 'en')).toBe('Ivory Coast');
    expect(nationalTeamName('Ghana', 'fr')).toBe('Ghana');
  });
});
