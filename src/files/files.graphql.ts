/**
 * File metadata over GraphQL (docs/api.md §13): lists, moves between rooms, mounts and deletes.
 * The bytes themselves travel over the streaming REST routes (/v1/files/...), never GraphQL.
 */
import { requirePrincipal } from '../core/caller.rules.js';
import { FILES_PAGE_DEFAULT, FILES_PAGE_MAX, type FileScope, type FileView } from './files.service.js';
import { builder } from '../graphql/builder.js';
import { OkRef } from '../graphql/common.js';
import { pageRows } from '../graphql/row-budget.js';

const FileRef = builder.objectRef<FileView>('File').implement({
  description: 'A file in a bucket. etag is the quoted SHA-256 of its bytes; roomId is null in the default room and for mounts.',
  fields: t => ({
    id: t.exposeID('id'),
    bucket: t.exposeString('bucket'),
    path: t.exposeString('path'),
    size: t.exposeFloat('size', { description: 'Bytes.' }),
    contentType: t.exposeString('contentType'),
    etag: t.exposeString('etag'),
    roomId: t.exposeID('roomId', { nullable: true }),
    creatorId: t.exposeID('creatorId', { nullable: true }),
    resourceId: t.exposeID('resourceId', { nullable: true }),
    linked: t.exposeBoolean('linked', { description: "A user's own file mounted into this resource bucket (§4.4 rule 10)." }),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
  }),
});

const FilePageRef = builder.objectRef<{ files: FileView[]; nextCursor: string | null }>('FilePage').implement({
  fields: t => ({
    files: t.field({ type: [FileRef], resolve: p => p.files }),
    nextCursor: t.string({ nullable: true, resolve: p => p.nextCursor }),
  }),
});

const FileMoveRef = builder.objectRef<{ ok: true; moved: number }>('FileMove').implement({
  fields: t => ({ ok: t.boolean({ resolve: () => true }), moved: t.exposeInt('moved') }),
});

/** resourceId absent: the caller's own bucket; roomId: one room of the resource. */
const scopeOf = (args: { bucket: string; resourceId?: string | number | null; roomId?: string | number | null }): FileScope =>
  args.resourceId == null
    ? { kind: 'user', bucket: args.bucket }
    : { kind: 'resource', resourceId: String(args.resourceId), bucket: args.bucket, roomId: args.roomId == null ? undefined : String(args.roomId) };

builder.queryFields(t => ({
  files: t.field({
    type: FilePageRef,
    description: "A page of a bucket by path: without resourceId your own files; with it the resource's, across the rooms you may read, and mounts.",
    args: {
      bucket: t.arg.string({ required: true }),
      resourceId: t.arg.id(),
      roomId: t.arg.id(),
      prefix: t.arg.string(),
      limit: t.arg.int(),
      cursor: t.arg.string(),
    },
    extensions: pageRows({ default: FILES_PAGE_DEFAULT, max: FILES_PAGE_MAX }),
    resolve: (_, args, ctx) => ctx.services.files.list(requirePrincipal(ctx.caller), scopeOf(args), args),
  }),
}));

builder.mutationFields(t => ({
  moveFiles: t.field({
    type: FileMoveRef,
    description:
      'Moves files of a resource bucket to a room (null: the default room): admin in each source room, upload in the destination; one charge.',
    args: {
      resourceId: t.arg.id({ required: true }),
      bucket: t.arg.string({ required: true }),
      paths: t.arg.stringList({ required: true }),
      roomId: t.arg.id(),
    },
    resolve: (_, args, ctx) =>
      ctx.services.files.move(requirePrincipal(ctx.caller), {
        resourceId: String(args.resourceId),
        bucket: args.bucket,
        paths: args.paths,
        roomId: args.roomId == null ? null : String(args.roomId),
      }),
  }),
  linkFile: t.field({
    type: FileRef,
    description: "Mounts one of your own files into a resource's bucket, at `path` (default: its own path).",
    args: {
      resourceId: t.arg.id({ required: true }),
      bucket: t.arg.string({ required: true }),
      fileId: t.arg.id({ required: true }),
      path: t.arg.string(),
    },
    resolve: (_, args, ctx) =>
      ctx.services.files.link(requirePrincipal(ctx.caller), {
        resourceId: String(args.resourceId),
        bucket: args.bucket,
        fileId: String(args.fileId),
        path: args.path,
      }),
  }),
  deleteFile: t.field({
    type: OkRef,
    description: 'Deletes a file (a mount: unmounts it). Same as DELETE /v1/files/...',
    args: { bucket: t.arg.string({ required: true }), path: t.arg.string({ required: true }), resourceId: t.arg.id(), roomId: t.arg.id() },
    resolve: (_, args, ctx) => ctx.services.files.delete(requirePrincipal(ctx.caller), scopeOf(args), args.path),
  }),
}));
