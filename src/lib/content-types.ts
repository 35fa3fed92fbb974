/** The media type a file is served with, from its name (`application/octet-stream` when unknown), with its charset. */
import mime from 'mime-types';

export function contentTypeOf(path: string): string {
  const type = mime.lookup(path) || 'application/octet-stream';
  const charset = mime.charset(type);
  return charset ? `${type}; charset=${charset.toLowerCase()}` : type;
}
