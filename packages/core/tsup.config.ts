import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.ts';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    debug: 'src/entries/debug.ts',
    unity: 'src/entries/unity.ts',
    godot: 'src/entries/godot.ts',
    roblox: 'src/entries/roblox.ts',
  }),
);
