/**
 * The browser examples, in the order the index lists them. This list is the single source of
 * truth: the Vite build takes its pages from it, the index page renders it, and the end-to-end
 * suite (test/e2e) loads every entry and checks it for console errors and a non-blank canvas.
 * Adding an example is one line here plus its folder (`<slug>/index.html` + `<slug>/main.ts`).
 */
export interface ExampleEntry {
  /** Folder name under examples/ and URL path (`/<slug>/`). */
  readonly slug: string;
  /** Link text on the index. */
  readonly title: string;
  /** One sentence: what the example shows. */
  readonly summary: string;
}

/** Every browser example. */
export const examples: readonly ExampleEntry[] = [
  {
    slug: 'three-jump',
    title: 'The 96 px ledge (three.js)',
    summary:
      'Three runners jump side by side — moved per frame, scaled by dt, and fixed 60 Hz steps with interpolation — at a simulated 30, 60 or 144 fps display.',
  },
  {
    slug: 'three-interpolation',
    title: 'Interpolation modes at 10 Hz physics (three.js)',
    summary:
      "Fast moving, spinning bodies under 10 Hz physics drawn with 'none', 'interpolate' and 'extrapolate' side by side, with follow cameras and teleports.",
  },
  {
    slug: 'babylon-havok',
    title: 'A Havok pile (Babylon.js)',
    summary:
      'Three hundred Havok boxes and a fast projectile on BabylonFixedLoop: physics rate, interpolation mode, teleport, follow camera.',
  },
  {
    slug: 'port-unity',
    title: 'A Unity controller, ported (three.js)',
    summary:
      'A MonoBehaviour moved over as written: Time.deltaTime in FixedUpdate, Update and LateUpdate through UnityTime, an interpolated rigid body, timeScale 0 pausing FixedUpdate.',
  },
  {
    slug: 'port-roblox',
    title: 'A Roblox script, ported (three.js)',
    summary:
      'RunService as in Luau: a platform moved in PreSimulation, a camera bound with BindToRenderStep at Camera priority, BindToSimulation at Hz60, Hz30 and Hz1.',
  },
];
