// Pronostic types: edit name, description, difficulty, activate; create for a market the engine
// answers (the service refuses any other slug with 422).
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { Field, LoadState, useAction, useLoad } from '../ui.js';

type PronosticType = ResponseData<'/api/admin/pronostic-types', 'get'>['types'][number];

export function Types() {
  const loaded = useLoad(() => dataOf(api.GET('/api/admin/pronostic-types')), []);
  return (
    <section aria-labelledby="types-title">
      <h1 id="types-title">{t.types.title}</h1>
      <LoadState loaded={loaded}>
        {loaded.data?.types.length === 0 ? <p class="empty">{t.types.empty}</p> : null}
        <ul class="cards">
          {loaded.data?.types.map((type) => (
            <TypeCard key={`${type.id}-${type.name}-${type.active}`} type={type} onDone={loaded.reload} />
          ))}
        </ul>
      </LoadState>
      <NewType onDone={loaded.reload} />
    </section>
  );
}

function TypeFields(props: {
  name: string;
  setName: (v: string) => void;
  description: string;
  setDescription: (v: string) => void;
  difficulty: string;
  setDifficulty: (v: string) => void;
}) {
  return (
    <div class="row">
      <Field label={t.types.name}>
        <input required value={props.name} onInput={(e) => props.setName(e.currentTarget.value)} />
      </Field>
      <Field label={t.types.difficulty}>
        <input
          type="number"
          min={1}
          max={5}
          required
          value={props.difficulty}
          onInput={(e) => props.setDifficulty(e.currentTarget.value)}
        />
      </Field>
      <Field label={t.types.description}>
        <textarea
          rows={2}
          required
          value={props.description}
          onInput={(e) => props.setDescription(e.currentTarget.value)}
        />
      </Field>
    </div>
  );
}

function TypeCard({ type, onDone }: { type: PronosticType; onDone: () => void }) {
  const [name, setName] = useState(type.name);
  const [description, setDescription] = useState(type.description);
  const [difficulty, setDifficulty] = useState(String(type.difficulty));
  const { busy, run } = useAction();
  const patch = async (
    body: { name?: string; description?: string; difficulty?: number; is_active?: boolean },
    done: string,
  ) => {
    if (
      await run(
        () =>
          dataOf(api.PATCH('/api/admin/pronostic-types/{id}', { params: { path: { id: type.id } }, body })),
        done,
      )
    ) {
      onDone();
    }
  };
  return (
    <li class="card">
      <form
        aria-label={t.types.formLabel(type.name)}
        onSubmit={(event) => {
          event.preventDefault();
          patch(
            { name: name.trim(), description: description.trim(), difficulty: Number(difficulty) },
            t.types.saved(name.trim()),
          );
        }}
      >
        <h2>
          {type.name} <code>{type.slug}</code>{' '}
          <span class={type.active ? 'badge ok' : 'badge'}>
            {type.active ? t.editing.active : t.editing.inactive}
          </span>
        </h2>
        <TypeFields {...{ name, setName, description, setDescription, difficulty, setDifficulty }} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {t.editing.save}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              patch(
                { is_active: !type.active },
                type.active ? t.types.deactivated(type.name) : t.types.activated(type.name),
              )
            }
          >
            {type.active ? t.editing.deactivate : t.editing.activate}
          </button>
        </div>
      </form>
    </li>
  );
}

function NewType({ onDone }: { onDone: () => void }) {
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [difficulty, setDifficulty] = useState('3');
  const { busy, run } = useAction();
  const create = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/pronostic-types', {
            body: {
              slug: slug.trim(),
              name: name.trim(),
              description: description.trim(),
              difficulty: Number(difficulty),
            },
          }),
        ),
      t.types.created(name.trim()),
    );
    if (ok) {
      setSlug('');
      setName('');
      setDescription('');
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={create} aria-labelledby="new-type-title">
      <h2 id="new-type-title">{t.types.newType}</h2>
      <Field label={t.types.market} hint={t.types.marketHint}>
        <input required value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </Field>
      <TypeFields {...{ name, setName, description, setDescription, difficulty, setDifficulty }} />
      <button type="submit" class="primary" disabled={busy}>
        {t.types.create}
      </button>
    </form>
  );
}
