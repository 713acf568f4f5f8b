import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.ts';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    input: 'src/entries/input.ts',
    interpolation: 'src/entries/interpolation.ts',
    node: 'src/entries/node.ts',
    debug: 'src/entries/debug.ts',
    unity: 'src/entries/unity.ts',
    godot: 'src/entries/godot.ts',
    roblox: 'src/entries/roblox.ts',
    tracking: 'src/entries/tracking.ts',
    net: 'src/entries/net.ts',
  }),
);
