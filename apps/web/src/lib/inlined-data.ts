/**
 * Reads a JSON data block the server inlined into the page (`<script type="application/json"
 * id="…">`, platform/web-app.ts and first-screen.ts). A data block is never run, so the
 * Content-Security-Policy needs no 'unsafe-inline' for it (ADR 027). Undefined when the block is
 * absent (under `vite dev`) or not valid JSON.
 */
export function inlinedData(id: string, doc: Pick<Document, 'getElementById'> = document): unknown {
  const text = doc.getElementById(id)?.textContent
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
