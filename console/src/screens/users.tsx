export function Users({ id }: { id: number | undefined }) {
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Utilisateurs {id ?? ''}</h1>
      <p>En attente des routes d’administration.</p>
    </section>
  );
}
