export function Types() {
  return (
    <section aria-labelledby="types-title">
      <h1 id="types-title">Types de pronostic</h1>
      <p>En attente des routes d’administration.</p>
    </section>
  );
}
