// Downloading a data file (football-data.co.uk's results and fixtures): one GET with a deadline,
// refused unless 2xx, the body as bytes for the caller's decoder.

/** A download that takes longer has stalled: the sync logs it and tries again next time. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

export async function downloadBytes(
  url: string,
  fetchImpl: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
