// Credit packs: list, edit name / credits / price, activate or deactivate, create.
import { useState } from 'preact/hooks';
import { api, dataOf, type ResponseData } from '../api.js';
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
      <h1 id="packs-title">Packs</h1>
      <LoadState loaded={loaded}>
        {loaded.data?.packs.length === 0 ? (
          <p class="empty">
            Aucun pack : créez-en un ci-dessous ; un pack actif est proposé aux utilisateurs à l’achat.
          </p>
        ) : null}
        <ul class="cards">
          {loaded.data?.packs.map((pack) => (
            <PackCard key={`${pack.id}-${pack.updated_at}`} pack={pack} onDone={loaded.reload} />
          ))}
        </ul>
        {loaded.data ? <Pager meta={loaded.data.meta} onPage={setPage} label="packs" /> : null}
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
      `Pack « ${name.trim()} » enregistré.`,
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
      pack.active ? `Pack « ${pack.name} » désactivé.` : `Pack « ${pack.name} » activé.`,
    );
    if (ok) onDone();
  };
  return (
    <li class="card">
      <form onSubmit={save} aria-label={`Pack ${pack.name}`}>
        <h2>
          {pack.name}{' '}
          <span class={pack.active ? 'badge ok' : 'badge'}>{pack.active ? 'Actif' : 'Inactif'}</span>
        </h2>
        <p>
          {pack.credits} crédits pour {xaf(pack.price)}
        </p>
        <div class="row">
          <Field label="Nom">
            <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <Field label="Crédits">
            <input
              type="number"
              min={1}
              required
              value={credits}
              onInput={(e) => setCredits(e.currentTarget.value)}
            />
          </Field>
          <Field label="Prix (XAF)">
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
            Enregistrer
          </button>
          <button type="button" disabled={busy} onClick={toggle}>
            {pack.active ? 'Désactiver' : 'Activer'}
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
      `Pack « ${name.trim()} » créé.`,
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
      <h2 id="new-pack-title">Nouveau pack</h2>
      <div class="row">
        <Field label="Nom">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Crédits">
          <input
            type="number"
            min={1}
            required
            value={credits}
            onInput={(e) => setCredits(e.currentTarget.value)}
          />
        </Field>
        <Field label="Prix (XAF)">
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
        Créer le pack
      </button>
    </form>
  );
}
