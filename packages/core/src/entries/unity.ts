/**
 * `@fixedtick/core/unity`: Unity's `Time`, `MonoBehaviour` messages and `RigidbodyInterpolation`
 * over one `FixedLoop`, so C# scripts port with their timing names and semantics intact.
 * See `docs/porting/unity.md`.
 * @packageDocumentation
 */
export { MonoBehaviour, type UnityBehaviour } from '../unity/mono-behaviour.ts';
export { RigidbodyInterpolation } from '../unity/rigidbody-interpolation.ts';
export { UnityTime } from '../unity/unity-time.ts';
