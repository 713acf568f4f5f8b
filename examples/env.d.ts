/// <reference types="vite/client" />
// Vite's client types (`?url` imports, import.meta.env) for the examples.
