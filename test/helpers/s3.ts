/**
 * A real S3-compatible server for tests and benchmarks: s3rver (npm), in-process on a loopback
 * port, storing in a temporary directory. `config` is the FilesConfig that points Gatehouse at it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { FilesConfig } from '../../src/config.js';

export interface S3Server {
  endpoint: string;
  config: FilesConfig;
  /** The same server with another bucket (each test app its own). */
  configFor(bucket: string): FilesConfig;
  close(): Promise<void>;
}

export async function startS3(bucket = 'gatehouse-files'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const configFor = (name: string): FilesConfig => ({
    maxFileBytes: 1024 ** 3,
    backend: { kind: 's3', endpoint, region: 'us-east-1', bucket: name, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
  });
  return {
    endpoint,
    config: configFor(bucket),
    configFor,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
