import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseSpec, SpecLoadError } from '../../../src/core/catalogue/spec-loader';
import { loadBundledSpec, loadSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue, RAW_TOOL_NAME } from '../../../src/core/catalogue/tool-catalogue';
import { HTTP_METHODS, type SwaggerParameter } from '../../../src/core/catalogue/swagger-types';

describe('tool catalogue from the bundled Gitea spec', () => {
  const spec = loadBundledSpec();
  const catalogue = buildCatalogue(spec, { maxBinaryBytes: 1024 * 1024 });

  it('has one tool per operationId: all 485', () => {
    const ids: string[] = [];
    for (const item of Object.values(spec.paths))
      for (const m of HTTP_METHODS) if (item[m]) ids.push(item[m]!.operationId);
    expect(ids).toHaveLength(485);
    expect(catalogue.operations.map((o) => o.operationId).sort()).toEqual([...ids].sort());
    expect(new Set(catalogue.operations.map((o) => o.tool.name)).size).toBe(485);
    expect(catalogue.operations.every((o) => o.tool.name === o.operationId)).toBe(true);
    expect(catalogue.byName.has(RAW_TOOL_NAME)).toBe(false);
  });

  it('shares one object per distinct sub-schema, across all tools', () => {
    // Every structurally equal object or array in the input and body schemas is the same instance.
    const byJson = new Map<string, Set<object>>();
    const walk = (value: unknown) => {
      if (value === null || typeof value !== 'object') return;
      const json = JSON.stringify(value);
      const same = byJson.get(json) ?? new Set<object>();
      same.add(value);
      byJson.set(json, same);
      for (const child of Array.isArray(value) ? value : Object.values(value)) walk(child);
    };
    for (const op of catalogue.operations) {
      walk(op.tool.inputSchema);
      if (op.body) walk(op.body.schema);
    }
    const duplicated = [...byJson].filter(([, same]) => same.size > 1).map(([json]) => json.slice(0, 80));
    expect(duplicated).toEqual([]);
    // And it does share: the 485 tools' schemas reach each distinct object about three times.
    const reached = [...byJson.values()].reduce((n, same) => n + same.size, 0);
    let visits = 0;
    const count = (value: unknown) => {
      if (value === null || typeof value !== 'object') return;
      visits++;
      for (const child of Array.isArray(value) ? value : Object.values(value)) count(child);
    };
    for (const op of catalogue.operations) {
      count(op.tool.inputSchema);
      if (op.body) count(op.body.schema);
    }
    expect(visits).toBeGreaterThan(reached * 2);
  });

  it('compiles every input schema with ajv in strict mode', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv);
    const failures: string[] = [];
    for (const op of catalogue.operations) {
      try {
        ajv.compile(op.tool.inputSchema);
      } catch (error) {
        failures.push(`${op.operationId}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('sets annotations from the method', () => {
    for (const op of catalogue.operations) {
      const a = op.tool.annotations!;
      expect(a.readOnlyHint).toBe(op.method === 'GET');
      if (op.method !== 'GET') expect(a.destructiveHint).toBe(op.method === 'DELETE');
      expect(a.idempotentHint).toBe(['GET', 'PUT', 'DELETE'].includes(op.method));
    }
    expect(catalogue.byName.get('repoDelete')!.tool.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    });
  });

  it('requires exactly the path parameters, required query parameters and required bodies of the spec', () => {
    for (const [route, item] of Object.entries(spec.paths)) {
      for (const m of HTTP_METHODS) {
        const sop = item[m];
        if (!sop) continue;
        const tool = catalogue.byName.get(sop.operationId)!.tool;
        const expected = (sop.parameters as SwaggerParameter[])
          .filter((p) => p.in === 'path' || p.required)
          .map((p) => (p.in === 'body' ? 'body' : p.name))
          .sort();
        expect([...((tool.inputSchema.required as string[]) ?? [])].sort()).toEqual(expected);
        for (const p of sop.parameters as SwaggerParameter[]) {
          if (p.in === 'path') expect(route).toContain(`{${p.name}}`);
          expect(Object.keys(tool.inputSchema.properties as object)).toContain(
            p.in === 'body' ? 'body' : p.name,
          );
        }
        expect(tool.inputSchema.additionalProperties).toBe(false);
      }
    }
  });

  it('exposes formData files as base64 with a file name, and inlines body definitions', () => {
    const upload = catalogue.byName.get('repoCreateReleaseAttachment')!;
    expect(upload.multipart).toBe(true);
    const attachment = (upload.tool.inputSchema.properties as Record<string, any>).attachment;
    expect(attachment.required).toEqual(['content_base64', 'filename']);
    const create = (
      catalogue.byName.get('issueCreateIssue')!.tool.inputSchema.properties as Record<string, any>
    ).body;
    expect(create.properties.title.type).toBe('string');
    expect(create.required).toContain('title');
    expect(JSON.stringify(catalogue.operations.map((o) => o.tool))).not.toContain('$ref');
  });

  it('declares the runner registration token header and list results', () => {
    expect(catalogue.byName.get('repoCreateRunnerRegistrationToken')!.responseHeaders).toEqual(['token']);
    expect(catalogue.byName.get('repoListBranches')!.listResult).toBe(true);
    expect(catalogue.byName.get('repoGet')!.listResult).toBe(false);
  });

  it('keeps the full tools/list near the expected size', () => {
    const size = JSON.stringify(catalogue.operations.map((o) => o.tool)).length;
    expect(size).toBeGreaterThan(100_000);
  });
});

describe('spec loading', () => {
  it('rejects unusable documents with a clear error', () => {
    expect(() => parseSpec('not json', 'x')).toThrow(SpecLoadError);
    expect(() => parseSpec('{"openapi":"3.0.0","paths":{}}', 'x')).toThrow(/Swagger 2.0/);
    expect(() => parseSpec('{"swagger":"2.0","paths":{"/a":{"get":{}}}}', 'x')).toThrow(/operationId/);
    expect(() =>
      parseSpec(
        '{"swagger":"2.0","paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"$ref":"#/responses/none"}}}}}}',
        'x',
      ),
    ).toThrow(/unresolved/);
  });

  it('resolves parameter refs', () => {
    const spec = parseSpec(
      JSON.stringify({
        swagger: '2.0',
        parameters: { p: { name: 'id', in: 'path', type: 'integer', required: true } },
        paths: { '/a/{id}': { get: { operationId: 'a', parameters: [{ $ref: '#/parameters/p' }] } } },
      }),
      'x',
    );
    expect(spec.paths['/a/{id}']!.get!.parameters![0]!.name).toBe('id');
  });

  it('falls back from an unusable live spec to the bundled one with a warning', async () => {
    const warnings: string[] = [];
    const loaded = await loadSpec({
      source: 'live',
      giteaUrl: 'http://127.0.0.1:1',
      fetchText: async () => '<html>',
      warn: (m) => warnings.push(m),
    });
    expect(loaded.source).toBe('bundled');
    expect(warnings[0]).toMatch(/falling back/);
    const live = await loadSpec({
      source: 'live',
      giteaUrl: 'http://g',
      fetchText: async () => JSON.stringify(loadBundledSpec()),
    });
    expect(live.source).toBe('live');
    await expect(loadSpec({ source: '/nonexistent/spec.json' })).rejects.toThrow(SpecLoadError);
  });
});
