/**
 * Typed documents for Gatehouse's own GraphQL operations (docs/api.md §7.3): every `graphql(`...`)`
 * call under src/ is checked against the committed SDL and typed. `npm run codegen` writes
 * src/graphql-client/generated/ (committed); `npm run codegen:check` fails in CI when it is stale.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'src/graphql-client/generated/': {
      documents: ['src/**/*.ts', '!src/generated/**', '!src/graphql-client/generated/**', '!src/**/*.spec.ts', '!src/sdk/**', '!src/console/ui/**'],
      preset: 'client',
      // The REST shim compiles each route's operation text with graphql-jit, so documents are typed
      // strings (TypedDocumentString) rather than parsed DocumentNodes; the server reads fields
      // directly, so fragments are not masked.
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        importExtension: '.js', // NodeNext resolution needs explicit extensions
        useTypeImports: true,
        enumType: 'string-literal', // unions, no runtime enum objects
        scalars: { DateTime: 'string', JSON: 'unknown' },
        strictScalars: true,
      },
    },
    // The client SDK (gatehouse/client, src/sdk/): its own target so the browser bundle carries only
    // its own documents, typed against the same SDL.
    'src/sdk/generated/': {
      documents: ['src/sdk/**/*.ts', '!src/sdk/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        importExtension: '.js',
        useTypeImports: true,
        enumType: 'string-literal',
        scalars: { DateTime: 'string', JSON: 'unknown' },
        strictScalars: true,
      },
    },
    // The web console (src/console/ui): its own target, so its bundle carries only its own documents.
    'src/console/ui/generated/': {
      documents: ['src/console/ui/**/*.tsx', '!src/console/ui/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        importExtension: '.js',
        useTypeImports: true,
        enumType: 'string-literal',
        scalars: { DateTime: 'string', JSON: 'unknown' },
        strictScalars: true,
      },
    },
    // The README's third-party client example, generated the way an app would (defaults: masked
    // fragments), so typecheck and codegen:check keep the documented snippet working.
    'examples/graphql-client/gql/': {
      documents: ['examples/graphql-client/*.ts'],
      preset: 'client',
      config: {
        documentMode: 'string',
        importExtension: '.js',
        useTypeImports: true,
        enumType: 'string-literal',
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
  ignoreNoDocuments: false,
};

export default config;
