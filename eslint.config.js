import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'child_process', 'stream'];

/** Where code may run is said mechanically: these bans keep the core free of Electron and the web side free of Node. */
const noElectron = {
  group: ['electron'],
  message: 'Only src/main/electron, src/main/ipc and src/preload may import electron.',
};
const noNode = {
  group: nodeBuiltins,
  message: 'The renderer and src/shared run in a browser: no Node built-ins.',
};
const noMainFromWeb = {
  group: ['**/main/**', '**/preload/**'],
  message: 'Web code talks to the core only through the contract client.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-output/**', 'bench-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
  {
    files: ['src/main/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/main/electron/**', 'src/main/ipc/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noElectron, noNode, noMainFromWeb] }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [noElectron, noNode, noMainFromWeb] }],
    },
  },
);
