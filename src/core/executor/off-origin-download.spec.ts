// Gitea's artifact download answers with a redirect to a signed link (ADR 0019): the transport
// fetches it without credentials; the executor turns what came back into the usual result.
import type { CallIdentity, GiteaResponse } from '../ports';
import { testToolService } from '../testing/tool-service-fixture';

const identity: CallIdentity = {
  login: 'alice',
  mode: 'oauth',
  sudo: null,
  token: 'tok-0123456789abcdef',
  isSiteAdmin: false,
  subject: 'oauth:1',
};

function call(response: GiteaResponse) {
  const { callAs } = testToolService({
    tools: { maxBinaryBytes: 64 },
    deps: { transport: { send: async () => response } },
  });
  return callAs(identity, 'downloadArtifact', { owner: 'o', repo: 'r', artifact_id: '7' }).then(
    ({ isError, json }) => ({ isError, json }),
  );
}

const STORAGE = 'https://storage.example';

describe('artifact downloads redirected off the Gitea origin', () => {
  it('returns the fetched bytes as binary data within MAX_BINARY_BYTES', async () => {
    const r = await call({
      status: 200,
      headers: { 'content-type': 'application/zip' },
      body: Buffer.from('PK\x03\x04zip'),
      offOrigin: { origin: STORAGE, followed: true },
    });
    expect(r.isError).toBe(false);
    expect(r.json.data).toEqual({
      content_base64: Buffer.from('PK\x03\x04zip').toString('base64'),
      content_type: 'application/zip',
      size: 7,
    });
  });

  it('refuses bytes over MAX_BINARY_BYTES as payload_too_large', async () => {
    const r = await call({
      status: 200,
      headers: { 'content-type': 'application/zip' },
      body: Buffer.alloc(65),
      offOrigin: { origin: STORAGE, followed: true },
    });
    expect(r.json.error).toMatchObject({ kind: 'payload_too_large' });
  });

  it('says where the link led and why it was not fetched, never the signed link', async () => {
    const r = await call({
      status: 302,
      headers: { location: `${STORAGE}/bucket/a.zip?X-Amz-Signature=abcdef0123456789` },
      body: new Uint8Array(),
      offOrigin: {
        origin: STORAGE,
        followed: false,
        reason: 'the link is plain http while Gitea is served over https',
      },
    });
    expect(r.isError).toBe(true);
    expect(r.json.error.message).toContain(STORAGE);
    expect(r.json.error.message).toContain('plain http');
    expect(JSON.stringify(r.json)).not.toContain('X-Amz-Signature');
  });

  it('names the download host when it answers with an error', async () => {
    const r = await call({
      status: 403,
      headers: { 'content-type': 'application/xml' },
      body: Buffer.from('<Error><Code>AccessDenied</Code></Error>'),
      offOrigin: { origin: STORAGE, followed: true },
    });
    expect(r.json.error).toMatchObject({ status: 403, kind: 'forbidden' });
    expect(r.json.error.message).toContain(`download at ${STORAGE}`);
  });
});
