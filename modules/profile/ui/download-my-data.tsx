/** The export path: a plain download link (a document request, not a client navigation). */
export const EXPORT_PATH = "/api/profile/me/export";

/** Settings → "Your data": one JSON file with everything the user made (docs/product-notes.md). */
export function DownloadMyData() {
  return (
    <section className="card" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p className="field-hint">Your profile, echos, likes, scrolls and follows, as one JSON file.</p>
      <a className="btn" href={EXPORT_PATH} download>
        Download my data
      </a>
    </section>
  );
}
