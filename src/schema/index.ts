export { defineSchema, type ResourceDefinition, type SchemaDefinition, type TableDefinition } from './define-schema.js';
export { validateSchemaIR } from './validate.js';
export { droppedBy, type SchemaDrops } from './schema-diff.js';
export { SchemaValidationError, type SchemaIssue } from './schema-validation-error.js';
export { compileVisibility, type VisibilityPair } from '../membership/visibility.rules.js';
export type { ColumnBuilder, ColumnValues, AccessInput, TableBuilder } from './table-builder.js';
export type { GrantInput, InlineTableDefinition, OwnBuilder, ResourceBuilder, ShareBuilder, VisibilityInput } from './resource-builder.js';
export type { BucketOptions } from './bucket-builder.js';
export * from './ir.js';
