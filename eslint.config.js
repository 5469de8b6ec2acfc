// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// typescript-eslint with type information (STYLE.md item 14): the rules that
// catch real bugs — floating promises, misused promises, unsafe any — over style.
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'out/**',
      'coverage/**',
      '**/.tmp/**',
      'examples/**/*.mjs',
      'bench/**/*.mjs',
      'build/**/*.mjs',
      'schemas/**/*.mjs',
      // Plain scripts run by worker threads on the built dist/ (test/sandbox/helpers/gated-document-worker.mjs).
      'test/**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // STYLE.md: functions under ~150 lines, so a name can say what each part does. Blank
    // lines and comments do not count (a comment explaining why never pushes a function over).
    // A function left longer carries the reason next to it, as an eslint-disable comment.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests read service answers as untyped JSON and check their shape with expect(): that
    // assertion is the runtime check, so the unsafe-any family only adds casts there.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  {
    // dependency-cruiser reads a CommonJS config; it is plain data, outside the TypeScript project.
    files: ['.dependency-cruiser.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { module: 'writable' },
    },
  },
);
