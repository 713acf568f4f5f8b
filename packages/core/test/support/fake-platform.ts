/**
 * A fake engine for the core tracker's contract tests: nodes that store a pose as ten plain
 * numbers (position, quaternion, scale), a parent and children; instanced meshes with a
 * `Float32Array` of column-major TRS matrices and a version raised on upload; and, optionally,
 * physics bodies that hold the simulation pose themselves (`capture`), like Havok or Rapier.
 * Every platform call is counted, so tests can assert on the work a pass does.
 */
import { FixedLoop } from '@fixedtick/core';
import { composeMatrix, Tracker, type TrackingPlatform } from '@fixedtick/core/tracking';

/** A node of the fake engine. */
export interface FakeNode {
  readonly name: string;
  /** Position `x y z`, quaternion `x y z w`, scale `x y z`, in the parent's space. */
  pose: number[];
  parent: FakeNode | null;
  readonly children: FakeNode[];
  alive: boolean;
  /** For an instanced mesh: 16 numbers per instance. */
  matrices?: Float32Array;
  /** Raised whenever the matrices are flagged for upload. */
  version: number;
  /** For a body (`FakePlatform` with `bodies`): the pose the engine holds, in the same layout. */
  body?: number[];
}

/** A node at `x y z`, no rotation, unit scale, under `parent` if given. */
export function fakeNode(name: string, x = 0, y = 0, z = 0, parent?: FakeNode): FakeNode {
  const node: FakeNode = {
    name,
    pose: [x, y, z, 0, 0, 0, 1, 1, 1, 1],
    parent: null,
    children: [],
    alive: true,
    version: 0,
  };
  if (parent !== undefined) setParent(node, parent);
  return node;
}

/** Moves `node` under `parent` (`null`: to the root), keeping its local pose. */
export function setParent(node: FakeNode, parent: FakeNode | null): void {
  if (node.parent !== null) node.parent.children.splice(node.parent.children.indexOf(node), 1);
  node.parent = parent;
  parent?.children.push(node);
}

/** An instanced mesh of `count` instances, instance `i` at `(i, 0, 0)`. */
export function fakeMesh(name: string, count: number): FakeNode {
  const mesh = fakeNode(name);
  mesh.matrices = new Float32Array(count * 16);
  const row = new Float64Array(10);
  for (let i = 0; i < count; i++) {
    row.set([i, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
    composeMatrix(mesh.matrices, i * 16, row, 0);
  }
  return mesh;
}

/** Platform calls, by member name. */
export type CallCounts = Record<string, number>;

/** The fake engine's side of the tracker. */
export class FakePlatform implements TrackingPlatform<FakeNode> {
  readonly calls: CallCounts = {};
  /** Poses `adopted` was called with (copies), for the engine's side of teleports. */
  readonly adoptions: number[][] = [];

  count(name: string): void {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  read(node: FakeNode, _slot: number, rows: Float64Array, at: number): void {
    this.count('read');
    for (let k = 0; k < 10; k++) rows[at + k] = node.pose[k];
  }
  writePosition(node: FakeNode, _slot: number, rows: Float64Array, at: number): void {
    this.count('writePosition');
    for (let k = 0; k < 3; k++) node.pose[k] = rows[at + k];
  }
  writeRotation(node: FakeNode, _slot: number, rows: Float64Array, at: number): void {
    this.count('writeRotation');
    for (let k = 3; k < 7; k++) node.pose[k] = rows[at + k];
  }
  writeScale(node: FakeNode, _slot: number, rows: Float64Array, at: number): void {
    this.count('writeScale');
    for (let k = 7; k < 10; k++) node.pose[k] = rows[at + k];
  }
  parentOf(node: FakeNode): FakeNode | null {
    this.count('parentOf');
    return node.parent;
  }
  hasChildren(node: FakeNode): boolean {
    return node.children.length > 0;
  }
  isAlive(node: FakeNode): boolean {
    return node.alive;
  }
  adopted(node: FakeNode, _slot: number, rows: Float64Array, at: number): void {
    this.count('adopted');
    this.adoptions.push(Array.from(rows.subarray(at, at + 10)));
    if (node.body !== undefined) for (let k = 0; k < 10; k++) node.body[k] = rows[at + k];
  }
  instanceMatrices(mesh: FakeNode): Float32Array | null {
    return mesh.matrices ?? null;
  }
  decompose(matrices: Float32Array, offset: number, rows: Float64Array, at: number): void {
    this.count('decompose');
    decomposeMatrix(matrices, offset, rows, at);
  }
  instancesUpdated(mesh: FakeNode): void {
    mesh.version++;
  }
  instancesVersion(mesh: FakeNode): number {
    return mesh.version;
  }
}

/**
 * The fake engine with physics bodies: a node's `body` holds its simulation pose, read after each
 * step (`capture`), as Havok's and Rapier's platforms do.
 */
export class FakeBodyPlatform extends FakePlatform {
  capture(node: FakeNode, _slot: number, rows: Float64Array, at: number): boolean {
    this.count('capture');
    const body = node.body as number[];
    for (let k = 0; k < 10; k++) rows[at + k] = body[k];
    return true;
  }
}

/** A loop at 10 Hz with a tracker over `platform` plugged in. */
export function trackerOver(platform: FakePlatform = new FakePlatform()): {
  loop: FixedLoop;
  tracker: Tracker<FakeNode>;
  platform: FakePlatform;
} {
  const loop = new FixedLoop({ tickRate: 10 });
  const tracker = new Tracker(platform);
  loop.addAdapter(tracker);
  return { loop, tracker, platform };
}

/** three.js's `Matrix4.decompose` (positive determinant assumed), into a pose row. */
export function decomposeMatrix(m: Float32Array, o: number, rows: Float64Array, at: number): void {
  const sx = Math.hypot(m[o], m[o + 1], m[o + 2]);
  const sy = Math.hypot(m[o + 4], m[o + 5], m[o + 6]);
  const sz = Math.hypot(m[o + 8], m[o + 9], m[o + 10]);
  const m11 = m[o] / sx;
  const m21 = m[o + 1] / sx;
  const m31 = m[o + 2] / sx;
  const m12 = m[o + 4] / sy;
  const m22 = m[o + 5] / sy;
  const m32 = m[o + 6] / sy;
  const m13 = m[o + 8] / sz;
  const m23 = m[o + 9] / sz;
  const m33 = m[o + 10] / sz;
  const trace = m11 + m22 + m33;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / s;
    x = (m32 - m23) * s;
    y = (m13 - m31) * s;
    z = (m21 - m12) * s;
  } else if (m11 > m22 && m11 > m33) {
    const s = 2 * Math.sqrt(1 + m11 - m22 - m33);
    w = (m32 - m23) / s;
    x = 0.25 * s;
    y = (m12 + m21) / s;
    z = (m13 + m31) / s;
  } else if (m22 > m33) {
    const s = 2 * Math.sqrt(1 + m22 - m11 - m33);
    w = (m13 - m31) / s;
    x = (m12 + m21) / s;
    y = 0.25 * s;
    z = (m23 + m32) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m33 - m11 - m22);
    w = (m21 - m12) / s;
    x = (m13 + m31) / s;
    y = (m23 + m32) / s;
    z = 0.25 * s;
  }
  rows[at] = m[o + 12];
  rows[at + 1] = m[o + 13];
  rows[at + 2] = m[o + 14];
  rows[at + 3] = x;
  rows[at + 4] = y;
  rows[at + 5] = z;
  rows[at + 6] = w;
  rows[at + 7] = sx;
  rows[at + 8] = sy;
  rows[at + 9] = sz;
}
