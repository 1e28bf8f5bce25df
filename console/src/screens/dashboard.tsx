export function Dashboard() {
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Tableau de bord</h1>
      <p>En attente des routes d’administration.</p>
    </section>
  );
}
