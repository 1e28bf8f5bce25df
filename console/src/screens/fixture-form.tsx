// The admin's fixture entry (issues 51 and 52): a match the synced calendars do not list, with its
// competition picked from the catalogue (grouped by kind), its teams picked from the known ones as
// the admin types, its kick-off in UTC, city, stage and neutral venue (`POST /api/admin/fixtures`); a file
// of fixtures (`POST /api/admin/fixtures/import`) with its report; and a knockout match's score
// after 90 minutes, what its predictions settle on (`PATCH /api/admin/fixtures/{id}`).
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData, uploadForm } from '../api.js';
import { t } from '../i18n.js';
import { Field, number, useAction, useLoad } from '../ui.js';

type Competition = ResponseData<'/api/competitions', 'get'>['competitions'][number];
type ImportReport = ResponseData<'/api/admin/fixtures/import', 'post'>;

const KINDS = ['international', 'cup', 'league'] as const;

/** A team field whose suggestions are the known teams matching what is typed. */
function TeamField({
  label,
  value,
  onInput,
  id,
}: {
  label: string;
  value: string;
  onInput: (v: string) => void;
  id: string;
}) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const typed = async (text: string) => {
    onInput(text);
    if (text.trim().length < 2) return;
    try {
      const found = await dataOf(
        api.GET('/api/admin/teams', { params: { query: { q: text.trim(), per_page: 12 } } }),
      );
      setSuggestions(found.teams.map((team) => team.name));
    } catch {
      setSuggestions([]);
    }
  };
  return (
    <Field label={label} hint={t.fixtures.form.teamHint}>
      <input
        required
        list={id}
        autocomplete="off"
        maxLength={100}
        value={value}
        onInput={(e) => typed(e.currentTarget.value)}
      />
      <datalist id={id}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </Field>
  );
}

export function NewFixture({ onDone }: { onDone: () => void }) {
  const f = t.fixtures.form;
  const competitions = useLoad(() => dataOf(api.GET('/api/competitions', { params: { query: {} } })), []);
  const [league, setLeague] = useState('');
  const [home, setHome] = useState('');
  const [away, setAway] = useState('');
  const [kickoff, setKickoff] = useState('');
  const [city, setCity] = useState('');
  const [neutral, setNeutral] = useState(false);
  const [knockout, setKnockout] = useState(false);
  const [stage, setStage] = useState('');
  const { busy, run } = useAction();
  const byKind = new Map<string, Competition[]>();
  for (const competition of competitions.data?.competitions ?? []) {
    byKind.set(competition.kind, [...(byKind.get(competition.kind) ?? []), competition]);
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/fixtures', {
            body: {
              league,
              home: home.trim(),
              away: away.trim(),
              // The field reads in UTC, as every time on the console.
              kickoff_at: `${kickoff}:00Z`,
              neutral,
              knockout,
              ...(city.trim() ? { city: city.trim() } : {}),
              ...(stage.trim() ? { stage: stage.trim() } : {}),
            },
          }),
        ),
      (answer) => f.added(answer.fixture.home, answer.fixture.away),
    );
    if (ok) {
      setHome('');
      setAway('');
      setCity('');
      setStage('');
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-fixture-title">
      <h2 id="new-fixture-title">{f.title}</h2>
      <p class="lead">{f.lead}</p>
      <div class="row">
        <Field label={f.competition}>
          <select required value={league} onChange={(e) => setLeague(e.currentTarget.value)}>
            <option value="">{f.choose}</option>
            {KINDS.filter((kind) => byKind.has(kind)).map((kind) => (
              <optgroup key={kind} label={f.kinds[kind]}>
                {byKind.get(kind)!.map((competition) => (
                  <option key={competition.code} value={competition.code}>
                    {competition.name} ({competition.code})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
        <TeamField id="fixture-home-teams" label={f.home} value={home} onInput={setHome} />
        <TeamField id="fixture-away-teams" label={f.away} value={away} onInput={setAway} />
      </div>
      <div class="row">
        <Field label={f.kickoff}>
          <input
            type="datetime-local"
            required
            value={kickoff}
            onInput={(e) => setKickoff(e.currentTarget.value)}
          />
        </Field>
        <Field label={f.city}>
          <input maxLength={100} value={city} onInput={(e) => setCity(e.currentTarget.value)} />
        </Field>
        <Field label={f.stage} hint={f.stageHint}>
          <input maxLength={80} value={stage} onInput={(e) => setStage(e.currentTarget.value)} />
        </Field>
      </div>
      <div class="row">
        <label class="check">
          <input type="checkbox" checked={neutral} onChange={(e) => setNeutral(e.currentTarget.checked)} />{' '}
          {f.neutral}
        </label>
        <label class="check">
          <input type="checkbox" checked={knockout} onChange={(e) => setKnockout(e.currentTarget.checked)} />{' '}
          {f.knockout}
        </label>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {f.add}
      </button>
    </form>
  );
}

export function ImportFixtures({ onDone }: { onDone: () => void }) {
  const u = t.fixtures.upload;
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const { busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    const form = new FormData();
    form.set('file', file);
    let answer: ImportReport | null = null;
    const ok = await run(
      async () => {
        answer = await uploadForm<ImportReport>('/api/admin/fixtures/import', form);
        return answer;
      },
      (done) => u.done(number(done.added), number(done.already_known), number(done.skipped.length)),
    );
    setReport(answer);
    if (ok) onDone();
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="import-fixtures-title">
      <h2 id="import-fixtures-title">{u.title}</h2>
      <p class="lead">{u.lead}</p>
      <Field label={u.file}>
        <input
          type="file"
          required
          accept=".csv,.txt,text/csv,text/plain"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
      </Field>
      <button type="submit" class="primary" disabled={busy || !file}>
        {u.send}
      </button>
      {report ? (
        <div data-field="import-report">
          <p>{u.done(number(report.added), number(report.already_known), number(report.skipped.length))}</p>
          {report.skipped.length > 0 ? (
            <ul>
              {report.skipped.map((line) => (
                <li key={line.line}>{u.skippedLine(String(line.line), line.reason)}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

export function RegularTimeScore({ onDone }: { onDone: () => void }) {
  const r = t.fixtures.regular;
  const [id, setId] = useState('');
  const [home, setHome] = useState('');
  const [away, setAway] = useState('');
  const { busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.PATCH('/api/admin/fixtures/{id}', {
            params: { path: { id: Number(id) } },
            body: { knockout: true, regular_time_score: { home: Number(home), away: Number(away) } },
          }),
        ),
      r.saved(id),
    );
    if (ok) onDone();
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="regular-score-title">
      <h2 id="regular-score-title">{r.title}</h2>
      <p class="lead">{r.lead}</p>
      <div class="row">
        <Field label={r.fixture}>
          <input type="number" min={1} required value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </Field>
        <Field label={r.home}>
          <input
            type="number"
            min={0}
            max={99}
            required
            value={home}
            onInput={(e) => setHome(e.currentTarget.value)}
          />
        </Field>
        <Field label={r.away}>
          <input
            type="number"
            min={0}
            max={99}
            required
            value={away}
            onInput={(e) => setAway(e.currentTarget.value)}
          />
        </Field>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {r.save}
      </button>
    </form>
  );
}
