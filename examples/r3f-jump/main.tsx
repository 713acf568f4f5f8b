/**
 * The 96 px ledge as React Three Fiber components: the jump of examples/three-jump, on
 * `@fixedtick/react-three`. See app.tsx (page, display rate) and ledge-scene.tsx (the scene).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

createRoot(document.getElementById('app') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
