import { defineConfig } from 'tsup';
import { packageBuild, packageEntries } from '../../tsup.base.ts';

export default defineConfig(
  packageBuild(packageEntries(import.meta.url), [
    'react',
    'react/jsx-runtime',
    '@react-three/fiber',
    'three',
  ]),
);
