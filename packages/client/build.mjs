// Builds @gatehouse/client from src/sdk (scripts/build-package.mjs): dist/index.js and dist/types/.
import { buildPackage } from '../../scripts/build-package.mjs';

await buildPackage({
  packageDir: import.meta.dirname,
  entry: 'src/sdk/index.ts',
  typesRoot: 'src/sdk',
  // Browsers and Node alike: fetch, WebSocket, Blob and streams are the host's globals.
  lib: ['ES2023', 'DOM'],
  // graphql-ws is bundled, its client only: its main module also loads its server, which needs the
  // graphql package (a 3 MB peer the client never uses).
  alias: { 'graphql-ws': 'graphql-ws/client' },
  declaredTypes: {
    // The generated documents' type decoration: one interface, declared in the package rather than
    // a dependency on @graphql-typed-document-node/core (whose graphql peer npm would install).
    '@graphql-typed-document-node/core': {
      file: 'typed-document-node.d.ts',
      declarations: `/** As @graphql-typed-document-node/core (MIT) declares it: what typed GraphQL documents carry. */
export interface DocumentTypeDecoration<TResult, TVariables> {
  __apiType?: (variables: TVariables) => TResult;
}
`,
    },
  },
});
