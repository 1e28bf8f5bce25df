// Credit packs: list, edit name / credits / price, activate or deactivate, create.
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
import { byCount, t } from '../i18n.js';
import { Field, LoadState, Pager, useAction, useLoad, xaf } from '../ui.js';

type Pack = ResponseData<'/api/admin/packs', 'get'>['packs'][number];

export function Packs() {
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () => dataOf(api.GET('/api/admin/packs', { params: { query: { page, per_page: 20 } } })),
    [page],
  );
  return (
    <section aria-labelledby="packs-title">
      <h1 id="packs-title">{t.packs.title}</h1>
      <LoadState loaded={loaded}>
        {loaded.data?.packs.length === 0 ? <p class="empty">{t.packs.empty}</p> : null}
        <ul class="cards">
          {loaded.data?.packs.map((pack) => (
            <PackCard key={`${pack.id}-${pack.updated_at}`} pack={pack} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label={t.packs.pager} /> : null}
      </LoadState>
      <NewPack onDone={loaded.reload} />
    </section>
  );
}

function PackCard({ pack, onDone }: { pack: Pack; onDone: () => void }) {
  const [name, setName] = useState(pack.name);
  const [credits, setCredits] = useState(String(pack.credits));
  const [price, setPrice] = useState(String(pack.price));
  const { busy, run } = useAction();
  const params = { path: { id: pack.id } };
  const save = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.PATCH('/api/admin/packs/{id}', {
            params,
            body: { name: name.trim(), credits: Number(credits), price: Number(price) },
          }),
        ),
      t.packs.saved(name.trim()),
    );
    if (ok) onDone();
  };
  const toggle = async () => {
    const ok = await run(
      () =>
        dataOf(
          pack.active
            ? api.POST('/api/admin/packs/{id}/deactivate', { params })
            : api.POST('/api/admin/packs/{id}/activate', { params }),
        ),
      pack.active ? t.packs.deactivated(pack.name) : t.packs.activated(pack.name),
    );
    if (ok) onDone();
  };
  return (
    <li class="card">
      <form onSubmit={save} aria-label={t.packs.formLabel(pack.name)}>
        <h2>
          {pack.name}{' '}
          <span class={pack.active ? 'badge ok' : 'badge'}>
            {pack.active ? t.editing.active : t.editing.inactive}
          </span>
        </h2>
        <p>{byCount(pack.credits, t.packs.creditsFor)(String(pack.credits), xaf(pack.price))}</p>
        <div class="row">
          <Field label={t.packs.name}>
            <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <Field label={t.packs.credits}>
            <input
              type="number"
              min={1}
              required
              value={credits}
              onInput={(e) => setCredits(e.currentTarget.value)}
            />
          </Field>
          <Field label={t.packs.price}>
            <input
              type="number"
              min={1}
              required
              value={price}
              onInput={(e) => setPrice(e.currentTarget.value)}
            />
          </Field>
        </div>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {t.editing.save}
          </button>
          <button type="button" disabled={busy} onClick={toggle}>
            {pack.active ? t.editing.deactivate : t.editing.activate}
          </button>
        </div>
      </form>
    </li>
  );
}

function NewPack({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [credits, setCredits] = useState('');
  const [price, setPrice] = useState('');
  const { busy, run } = useAction();
  const create = async (event: Event) => {
    event.preventDefault();
    const ok = await run(
      () =>
        dataOf(
          api.POST('/api/admin/packs', {
            body: { name: name.trim(), credits: Number(credits), price: Number(price) },
          }),
        ),
      t.packs.created(name.trim()),
    );
    if (ok) {
      setName('');
      setCredits('');
      setPrice('');
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={create} aria-labelledby="new-pack-title">
      <h2 id="new-pack-title">{t.packs.newPack}</h2>
      <div class="row">
        <Field label={t.packs.name}>
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label={t.packs.credits}>
          <input
            type="number"
            min={1}
            required
            value={credits}
            onInput={(e) => setCredits(e.currentTarget.value)}
          />
        </Field>
        <Field label={t.packs.price}>
          <input
            type="number"
            min={1}
            required
            value={price}
            onInput={(e) => setPrice(e.currentTarget.value)}
          />
        </Field>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {t.packs.create}
      </button>
    </form>
  );
}
