// custom-elements.json is generated from the components' JSDoc: `npm run analyze`.
export default {
  globs: ['src/components/**/*.ts'],
  exclude: ['src/components/**/*.styles.ts', 'src/components/**/*.d.ts'],
  litelement: true,
  outdir: process.env.CEM_OUTDIR || '.',
};
