// ESLint for the whole repository, run by `npm test` (scripts/lint.mjs). Besides the usual
// TypeScript and React rules it encodes the layers of docs/architecture.md: which folder may
// import which (boundaries/dependencies) and no import cycles (import-x/no-cycle), so that an
// upward import fails CI instead of growing unnoticed.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import boundaries from "eslint-plugin-boundaries";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// The layers, lowest first. Each may import itself and the layers listed in LAYER_IMPORTS.
const ELEMENTS = [
  { type: "gardener", pattern: "lib/gardener" }, // Gardener's API types, reading YAML/JSON
  { type: "engine", pattern: "lib/engine" }, // Gardener's behaviour, pure
  { type: "api", pattern: "lib/api" }, // the /api/v1 contract, shared by server and browser
  { type: "config", pattern: "lib/config" }, // the settings, read from the environment once
  { type: "db", pattern: "lib/db" }, // Postgres: client, migrations, change feed
  { type: "observability", pattern: "lib/observability" }, // the logger, request context, metrics
  { type: "store", pattern: "lib/store" }, // the tables: the mirror every read comes from
  { type: "auth", pattern: "lib/auth" }, // who is asking, and what their roles allow
  { type: "jobs", pattern: "lib/jobs" }, // background work on pg-boss (the simulated garden's controllers)
  { type: "garden", pattern: "lib/garden" }, // the write port and its implementations
  { type: "http", pattern: "lib/http" }, // problem responses, request parsing
  { type: "demo", pattern: "lib/demo" }, // the generated demo landscape
  { type: "server", pattern: "lib/server" }, // use cases
  { type: "cli", pattern: "lib/cli" }, // the almanac command line
  { type: "ui", pattern: "lib/ui" }, // what the pages compute, pure; the browser's API client
  { type: "client", pattern: "lib/client" }, // the browser's data layer: queries and the shoot-change hook
  { type: "components", pattern: "components" }, // React components
  { type: "app", pattern: "app" }, // pages and route handlers
];

const LAYER_IMPORTS = {
  gardener: [],
  engine: ["gardener"],
  api: ["engine", "gardener"],
  // Group roles name roles; defaults come from Gardener's own (the engine).
  config: ["api", "engine", "gardener"],
  db: ["config"],
  // Every server layer logs and counts; the logger redacts secrets with the engine's rule.
  observability: ["config", "engine"],
  store: ["config", "db", "engine", "gardener", "api"],
  auth: ["config", "store", "db", "engine", "gardener", "api"],
  jobs: ["config", "store", "db", "observability", "engine", "gardener", "api"],
  // A live garden acts as the person who asks (lib/auth/garden-identity.ts).
  garden: ["config", "jobs", "auth", "store", "db", "observability", "engine", "gardener", "api"],
  // The route wrapper asks lib/auth who calls and what they may do (authorize), handing it the
  // configured garden's access port (lib/garden/garden.ts) for a live garden's RBAC.
  http: ["config", "garden", "auth", "db", "observability", "engine", "gardener", "api"],
  demo: ["engine", "gardener"],
  // Use cases answer in outcomes and refusals (lib/api/refusal.ts), never in HTTP: only lib/http and
  // the route handlers turn a refusal's code into a status, so lib/server may not import lib/http.
  server: ["config", "garden", "jobs", "auth", "store", "db", "observability", "demo", "engine", "gardener", "api"],
  cli: ["engine", "gardener"],
  ui: ["engine", "gardener", "api"],
  client: ["ui", "engine", "gardener", "api"],
  components: ["client", "ui", "engine", "gardener", "api"],
  // Route handlers reach the garden only through use cases (lib/server) and the port's entry
  // (lib/garden/garden.ts, checked below); pages render components.
  app: [
    "config",
    "components",
    "client",
    "ui",
    "server",
    "garden",
    "auth",
    "http",
    "db",
    "observability",
    "api",
    "engine",
    "gardener",
  ],
};

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/db/generated/**",
      "test-results/**",
      "test-reports/**",
      "playwright-report/**",
      ".almanac/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: {
        console: "readonly",
        process: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        window: "readonly",
        document: "readonly",
        navigator: "readonly",
        fetch: "readonly",
        Request: "readonly",
        Response: "readonly",
        Headers: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        ReadableStream: "readonly",
        structuredClone: "readonly",
        performance: "readonly",
        crypto: "readonly",
        queueMicrotask: "readonly",
        globalThis: "readonly",
        EventSource: "readonly",
        localStorage: "readonly",
        sessionStorage: "readonly",
        HTMLElement: "readonly",
        requestAnimationFrame: "readonly",
        cancelAnimationFrame: "readonly",
        Intl: "readonly",
        PerformanceObserver: "readonly",
        MessageEvent: "readonly",
        Event: "readonly",
        KeyboardEvent: "readonly",
      },
    },
    rules: {
      // Unused names fail; a leading underscore says "deliberately unused" (a destructured rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          caughtErrors: "none",
        },
      ],
      "no-undef": "off", // TypeScript checks names; this rule does not know its globals
      // Prettier wraps code at 120 columns; this holds comments to the same. Long strings (a
      // Tailwind class list, a message) stay whole, so they can be searched for.
      "max-len": [
        "error",
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { "import-x": importX, boundaries },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true, project: "tsconfig.json" })],
      "import/resolver": { typescript: { alwaysTryTypes: true, project: "tsconfig.json" } },
      "boundaries/elements": ELEMENTS,
      "boundaries/files": [{ category: "test", pattern: ["**/*.test.ts", "tests/**", "e2e/**"] }],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: [
            ...Object.entries(LAYER_IMPORTS).map(([layer, below]) => ({
              from: { element: { type: layer } },
              allow: { to: { element: { types: { anyOf: [layer, ...below] } } } },
            })),
            // Tests may reach anything they exercise, and their own support files.
            { from: { file: { categories: "test" } }, allow: { to: { element: { type: "*" } } } },
            { from: { file: { categories: "test" } }, allow: { to: { file: { categories: "test" } } } },
          ],
        },
      ],
    },
  },
  {
    // Within the app, only the port's entry of lib/garden: its implementations stay behind it.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/garden/embedded/*", "@/lib/garden/kubernetes/*"],
              message: "Route handlers use lib/garden/garden.ts (the configured garden), not one implementation.",
            },
            {
              group: ["@/lib/store/*", "@/lib/jobs/*"],
              message: "Route handlers call a use case in lib/server; the store and the job queue sit behind it.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs["recommended-latest"].rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
    },
  },
  {
    files: ["**/*.test.ts", "tests/**", "e2e/**"],
    rules: {
      // Test doubles and fixtures are loosely typed on purpose.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
