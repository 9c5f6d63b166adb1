// Lint: a few rules that catch real bugs (a promise nobody awaits, a name nobody uses,
// a switch that forgets a case) and the size limits the working rules set for src.
// Formatting is prettier's job (npm run format), not eslint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', '.tools/', 'coverage/', 'test/.tmp/', 'bench/.tmp/', 'meterdata-*/'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // The scripts, the benchmark and a few test fixtures are plain JavaScript outside
    // tsconfig's program: no type information, so only the rules that need none.
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Whole functions count, nested closures included (a factory of closures is one
    // function to read); blank lines and comments count too.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }],
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
);
