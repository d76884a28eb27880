/** Placeholder home until the dashboard lands. */
export default function Home() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', lineHeight: 1.5 }}>
      <h1>Publisher Portal</h1>
      <p>
        The reporting API is served under <code>/api/v1</code>. See the README for examples.
      </p>
    </main>
  );
}
