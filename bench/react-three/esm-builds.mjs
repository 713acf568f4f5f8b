/**
 * Node module-resolution hooks (`module.register`) for the React Three Fiber bench: React Three
 * Fiber and its test renderer publish their ES modules under `"module"` only (no `exports` map),
 * so Node would load their CommonJS builds, which `require` three's CommonJS build — a second
 * three.js beside the one the adapters import. These hooks load the ES modules instead, as an
 * app's bundler (and vitest.config.ts) does. Plain JavaScript: hooks run in Node's loader thread.
 */
const ESM_BUILDS = {
  '@react-three/fiber': '@react-three/fiber/dist/react-three-fiber.esm.js',
  '@react-three/test-renderer': '@react-three/test-renderer/dist/react-three-test-renderer.esm.js',
};
const ESM_FILE = /\/node_modules\/@react-three\/[^/]+\/dist\/[^/]+\.esm\.js$/;

export async function resolve(specifier, context, next) {
  const resolved = await next(ESM_BUILDS[specifier] ?? specifier, context);
  // the files are ES modules in packages that do not say so ("type" is not "module")
  return ESM_FILE.test(resolved.url) ? { ...resolved, format: 'module' } : resolved;
}
