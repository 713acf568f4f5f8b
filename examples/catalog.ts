/**
 * The browser examples, in the order the gallery lists them. This list is the single source of
 * truth: the Vite build takes its pages from it, the gallery (index.html) shows each with its
 * thumbnail, "what to look at" and source link, and the end-to-end suite (test/e2e) loads every
 * entry: no console error, a non-blank canvas, the timing graph, layouts that fit 1400×860 and a
 * 390 px phone, keys after a control, a current thumbnail. Adding an example is one entry here
 * plus its folder (docs/examples.md, "Adding an example").
 */
export interface ExampleEntry {
  /** Folder name under examples/ and URL path (`/<slug>/`). */
  readonly slug: string;
  /** Link text on the index. */
  readonly title: string;
  /** One sentence: what the example shows. */
  readonly summary: string;
  /** One line for the gallery: what to look at on the page. */
  readonly lookFor: string;
  /**
   * `false` for a page served as it is, without Vite (the import-map page): it is copied into
   * the build instead of bundled. @defaultValue true
   */
  readonly bundled?: boolean;
  /**
   * Frames of a perfect 60 Hz display the page runs before its thumbnail is taken
   * (test/e2e/thumbnails.ts): another moment of the same scene, so that two pages drawing the
   * same scene still get thumbnails of their own. @defaultValue 90 (1.5 s)
   */
  readonly thumbnailFrames?: number;
}

/**
 * Where "View source" points: the example's folder as the local server lists it
 * (`/source/<slug>/`, examples/serve.ts), so the source opens from the running `npm start`.
 */
export const sourceUrl = (slug: string): string => `/source/${slug}/`;

/** Every browser example. */
export const examples: readonly ExampleEntry[] = [
  {
    slug: 'three-jump',
    title: 'The 96 px ledge (three.js)',
    summary:
      'Three runners jump side by side — moved per frame, scaled by dt, and fixed 60 Hz steps with interpolation — at a simulated 30, 60 or 144 fps display.',
    lookFor:
      'Switch the display rate: only the fixed-step runner keeps its 95.0 px peak and its air time.',
  },
  {
    slug: 'r3f-jump',
    title: 'The 96 px ledge (React Three Fiber)',
    // The scene of three-jump: caught at another moment of the jump.
    thumbnailFrames: 66,
    summary:
      'The same jump as R3F components on @fixedtick/react-three: <FixedTick>, useFixedUpdate and a useTracked mesh, at a simulated 30, 60 or 144 fps display or on R3F’s own frame loop.',
    lookFor:
      'Pick any display rate, simulated or R3F’s own loop: the fixed-step runner peaks at 95.0 px every time.',
  },
  {
    slug: 'three-interpolation',
    title: 'Interpolation modes at 10 Hz physics (three.js)',
    summary:
      "Fast moving, spinning bodies under 10 Hz physics drawn with 'none', 'interpolate' and 'extrapolate' side by side, with follow cameras and teleports.",
    lookFor:
      "The 'none' body steps 10 times a second; 'interpolate' glides behind its ghost; 'extrapolate' overshoots each bounce.",
  },
  {
    slug: 'three-rapier',
    title: 'A Rapier pile and a character controller (three.js)',
    summary:
      'Three hundred to ten thousand Rapier boxes and spheres (the spheres one InstancedMesh, an instance per body), a projectile and a capsule walked by KinematicCharacterController, the world on the main thread (RapierPhysics) or in a worker (WorkerPhysics): physics rate, interpolation, display rate, body count, teleport, follow camera.',
    lookFor:
      'Press F to fire at the wall and T to put the pile back with no streak; the camera rides on the walking capsule without a jitter. At 5 000 bodies, switch the world to a worker and watch the timing graph’s cyan main-thread mark drop.',
  },
  {
    slug: 'babylon-havok',
    title: 'A Havok pile (Babylon.js)',
    summary:
      'Three hundred Havok boxes and a fast projectile on BabylonFixedLoop: physics rate, interpolation mode, teleport, follow camera.',
    lookFor:
      'Press F to shoot: 300 Havok bodies tumble smoothly at any physics rate; T puts the pile back with no streak.',
  },
  {
    slug: 'port-unity',
    title: 'A Unity controller, ported (three.js)',
    summary:
      'A MonoBehaviour moved over as written: Time.deltaTime in FixedUpdate, Update and LateUpdate through UnityTime, an interpolated rigid body, timeScale 0 pausing FixedUpdate.',
    lookFor:
      "The Time table: deltaTime reads 0.02 in FixedUpdate and the frame's time in Update; timeScale 0 stops FixedUpdate only.",
  },
  {
    slug: 'port-roblox',
    title: 'A Roblox script, ported (three.js)',
    summary:
      'RunService as in Luau: a platform moved in PreSimulation, a camera bound with BindToRenderStep at Camera priority, BindToSimulation at Hz60, Hz30 and Hz1.',
    lookFor:
      "The event table: RunService's order and deltas each frame, the camera bound at Camera priority.",
  },
  {
    slug: 'importmap',
    title: 'No bundler: an import map (three.js)',
    summary:
      'The getting-started cube of docs/three.md in a plain HTML page: an import map points three and @fixedtick/* at the built dist files, no Vite involved.',
    lookFor:
      'View the page source: one import map and one module script, nothing built for the page.',
    bundled: false,
  },
  {
    slug: 'multiplayer',
    title: 'Push the crates, together (Colyseus + three.js)',
    summary:
      'A Colyseus room on the 60 Hz server tick: your box predicted with the server’s own step, the other players and the crates drawn from tick-stamped snapshots through the pose store, with a latency / jitter / loss control.',
    lookFor:
      'Open a second tab and pick “80 ± 20 ms, 2 % loss”: the other box glides, the render delay grows to ride out resends, and your box stays put under your keys.',
  },
];
