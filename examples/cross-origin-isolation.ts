/**
 * The two response headers that make a page cross-origin isolated, so that it may share memory
 * with a worker (`SharedArrayBuffer`): physics in a worker publishes its poses through shared
 * memory when they are set, and falls back to `postMessage` when they are not
 * (docs/cross-origin-isolation.md). `npm start` (serve.ts), the Vite dev and preview servers
 * (vite.config.ts) and the end-to-end tests serve every page with them.
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
