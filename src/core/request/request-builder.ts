// Builds the HTTP request to Gitea from validated tool arguments.
import type { GiteaRequest } from '../ports';
import { BYTE_RANGE_ARG, BYTE_RANGE_OPERATIONS, type CatalogueOperation } from '../catalogue/tool-catalogue';
import { buildPath, PathValueError } from './path-encoding';

export class RequestBuildError extends Error {
  constructor(
    readonly kind: 'invalid_arguments' | 'payload_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'RequestBuildError';
  }
}

export type UploadArg = { content_base64: string; filename: string; content_type?: string };

/** Decoded size of a base64 string, computed from its length alone (nothing is decoded). */
export function base64DecodedSize(text: string): number {
  const length = text.length;
  let padding = 0;
  if (text.endsWith('==')) padding = 2;
  else if (text.endsWith('=')) padding = 1;
  return Math.floor((length * 3) / 4) - padding;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeUpload(param: string, upload: UploadArg, maxBinaryBytes: number): Uint8Array {
  // Refuse before decoding: a huge upload must not cost memory first.
  const size = base64DecodedSize(upload.content_base64);
  if (size > maxBinaryBytes) {
    throw new RequestBuildError(
      'payload_too_large',
      `upload ${param} is ${size} bytes decoded, more than MAX_BINARY_BYTES (${maxBinaryBytes})`,
    );
  }
  if (upload.content_base64.length % 4 !== 0 || !BASE64.test(upload.content_base64)) {
    throw new RequestBuildError('invalid_arguments', `upload ${param}.content_base64 is not valid base64`);
  }
  return new Uint8Array(Buffer.from(upload.content_base64, 'base64'));
}

export function stringifyQueryValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Query pairs: arrays become repeated parameters (collectionFormat multi) or a comma list (csv). */
export function queryPairs(name: string, value: unknown, collectionFormat?: string): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    if (collectionFormat && collectionFormat !== 'multi') {
      const sep = { csv: ',', ssv: ' ', tsv: '\t', pipes: '|' }[collectionFormat] ?? ',';
      return [[name, value.map(stringifyQueryValue).join(sep)]];
    }
    return value.map((v) => [name, stringifyQueryValue(v)] as [string, string]);
  }
  return [[name, stringifyQueryValue(value)]];
}

export function buildRequest(
  op: CatalogueOperation,
  args: Record<string, unknown>,
  limits: { maxBinaryBytes: number },
): GiteaRequest {
  const pathValues: Record<string, unknown> = {};
  const query: Array<[string, string]> = [];
  const fields: Array<[string, string]> = [];
  const files: Array<{ field: string; filename: string; contentType: string; data: Uint8Array }> = [];
  for (const p of op.params) {
    const value = args[p.name];
    if (p.in === 'path') pathValues[p.name] = value;
    else if (p.in === 'query') query.push(...queryPairs(p.name, value, p.collectionFormat));
    else if (value !== undefined && p.file) {
      const upload = value as UploadArg;
      files.push({
        field: p.name,
        filename: upload.filename,
        contentType: upload.content_type || 'application/octet-stream',
        data: decodeUpload(p.name, upload, limits.maxBinaryBytes),
      });
    } else if (value !== undefined) fields.push([p.name, stringifyQueryValue(value)]);
  }
  let path: string;
  try {
    path = buildPath(op.route, pathValues);
  } catch (error) {
    if (error instanceof PathValueError) throw new RequestBuildError('invalid_arguments', error.message);
    throw error;
  }
  const request: GiteaRequest = { method: op.method, path, query, headers: {} };
  const range = args[BYTE_RANGE_ARG];
  if (typeof range === 'string' && BYTE_RANGE_OPERATIONS.has(op.operationId))
    request.headers.range = `bytes=${range}`;
  if (op.multipart) request.body = { kind: 'multipart', fields, files };
  else if (op.body && args.body !== undefined) {
    request.body =
      op.body.contentType === 'text'
        ? { kind: 'text', value: String(args.body), contentType: 'text/plain' }
        : { kind: 'json', value: args.body };
  }
  return request;
}
