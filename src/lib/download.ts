// Downloading a data file (football-data.co.uk's results and fixtures): one GET with a deadline,
// refused unless 2xx, the body as bytes for the caller's decoder, never more than a set size.

/** A download that takes longer has stalled: the sync logs it and tries again next time. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** A file past DOWNLOAD_MAX_BYTES: its message is the one line the sync logs. */
export class DownloadTooLarge extends Error {
  constructor(url: string, maxBytes: number) {
    super(`GET ${url}: the file is larger than DOWNLOAD_MAX_BYTES (${maxBytes} bytes)`);
    this.name = 'DownloadTooLarge';
  }
}

export interface DownloadOptions {
  /** DOWNLOAD_MAX_BYTES: the body is read up to this size and the download fails past it. */
  maxBytes: number;
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
}

export async function downloadBytes(
  url: string,
  { maxBytes, fetchImpl = fetch, signal }: DownloadOptions,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`GET ${url} answered ${response.status}`);
  }
  // A declared length past the cap fails before a byte is read; a server that declares none (or
  // lies) is stopped by counting, so a file of any size never sits whole in memory.
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new DownloadTooLarge(url, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new DownloadTooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
