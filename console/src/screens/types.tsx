// Pronostic types: edit name and description in French and English, difficulty, activate; create
// for a market the engine answers (the service refuses any other slug with 422). An English field
// left blank is not sent: users reading English then see the French (decision 0136).
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
            <TypeCard
              key={`${type.id}-${type.name}-${type.name_en}-${type.active}`}
              type={type}
              onDone={loaded.reload}
            />
          ))}
        </ul>
      </LoadState>
      <NewType onDone={loaded.reload} />
    </section>
  );
}

/** The texts of a type in both languages and its cost, as the two forms edit them. */
interface TypeTexts {
  name: string;
  description: string;
  nameEn: string;
  descriptionEn: string;
  difficulty: string;
}

function useTypeTexts(initial: TypeTexts) {
  const [texts, setTexts] = useState(initial);
  const set = (key: keyof TypeTexts) => (value: string) => setTexts((now) => ({ ...now, [key]: value }));
  return { texts, setTexts, set };
}

/** The body's texts: trimmed, an English one only when written. */
function textsBody(texts: TypeTexts) {
  const nameEn = texts.nameEn.trim();
  const descriptionEn = texts.descriptionEn.trim();
  return {
    name: texts.name.trim(),
    description: texts.description.trim(),
    ...(nameEn ? { name_en: nameEn } : {}),
    ...(descriptionEn ? { description_en: descriptionEn } : {}),
    difficulty: Number(texts.difficulty),
  };
}

function TypeFields({
  texts,
  set,
}: {
  texts: TypeTexts;
  set: (key: keyof TypeTexts) => (v: string) => void;
}) {
  return (
    <div class="row">
      <Field label={t.types.name}>
        <input required value={texts.name} onInput={(e) => set('name')(e.currentTarget.value)} />
      </Field>
      <Field label={t.types.nameEn}>
        <input lang="en" value={texts.nameEn} onInput={(e) => set('nameEn')(e.currentTarget.value)} />
      </Field>
      <Field label={t.types.difficulty}>
        <input
          type="number"
          min={1}
          max={5}
          required
          value={texts.difficulty}
          onInput={(e) => set('difficulty')(e.currentTarget.value)}
        />
      </Field>
      <Field label={t.types.description}>
        <textarea
          rows={2}
          required
          value={texts.description}
          onInput={(e) => set('description')(e.currentTarget.value)}
        />
      </Field>
      <Field label={t.types.descriptionEn}>
        <textarea
          rows={2}
          lang="en"
          value={texts.descriptionEn}
          onInput={(e) => set('descriptionEn')(e.currentTarget.value)}
        />
      </Field>
    </div>
  );
}

function TypeCard({ type, onDone }: { type: PronosticType; onDone: () => void }) {
  const { texts, set } = useTypeTexts({
    name: type.name,
    description: type.description,
    nameEn: type.name_en ?? '',
    descriptionEn: type.description_en ?? '',
    difficulty: String(type.difficulty),
  });
  const { busy, run } = useAction();
  const patch = async (body: ReturnType<typeof textsBody> | { is_active: boolean }, done: string) => {
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
          patch(textsBody(texts), t.types.saved(texts.name.trim()));
        }}
      >
        <h2>
          {type.name} <code>{type.slug}</code>{' '}
          <span class={type.active ? 'badge ok' : 'badge'}>
            {type.active ? t.editing.active : t.editing.inactive}
          </span>
        </h2>
        <TypeFields texts={texts} set={set} />
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
  const blank = { name: '', description: '', nameEn: '', descriptionEn: '', difficulty: '3' };
  const { texts, setTexts, set } = useTypeTexts(blank);
  const { busy, run } = useAction();
  const create = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/pronostic-types', {
            body: { slug: slug.trim(), ...textsBody(texts) },
          }),
        ),
      t.types.created(texts.name.trim()),
    );
    if (ok) {
      setSlug('');
      setTexts(blank);
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={create} aria-labelledby="new-type-title">
      <h2 id="new-type-title">{t.types.newType}</h2>
      <Field label={t.types.market} hint={t.types.marketHint}>
        <input required value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </Field>
      <TypeFields texts={texts} set={set} />
      <button type="submit" class="primary" disabled={busy}>
        {t.types.create}
      </button>
    </form>
  );
}
