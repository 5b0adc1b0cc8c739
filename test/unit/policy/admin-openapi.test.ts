// Issue 14 point 4: /api/admin/openapi.json describes every route the admin controller serves (and
// nothing it does not), each with its parameters, request body and response schemas.
import 'reflect-metadata';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import Ajv2020 from 'ajv/dist/2020';
import { AdminController } from '../../../src/modules/policy/admin.controller';
import { GrantsController } from '../../../src/modules/grants/grants.controller';
import { adminOpenApiDocument, ADMIN_ROUTES } from '../../../src/modules/policy/admin-openapi';

/** Every /api/admin controller: the policy and audit routes, and what people granted. */
const CONTROLLERS = [AdminController, GrantsController];

function servedRoutes(): string[] {
  return CONTROLLERS.flatMap(routesOf).sort();
}

function routesOf(controller: (typeof CONTROLLERS)[number]): string[] {
  const base = String(Reflect.getMetadata(PATH_METADATA, controller)).replace(/^\/|\/$/g, '');
  const proto = controller.prototype as unknown as Record<string, unknown>;
  const routes: string[] = [];
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = proto[name];
    if (typeof handler !== 'function') continue;
    const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (path === undefined || method === undefined) continue;
    const full = `/${base}/${path.replace(/^\//, '')}`.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\/$/, '');
    routes.push(`${RequestMethod[method]} ${full}`);
  }
  return routes.sort();
}

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string }>;
        requestBody?: unknown;
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

describe('admin OpenAPI document', () => {
  const doc = adminOpenApiDocument() as Doc;

  it('lists exactly the routes the controller serves', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(servedRoutes().length).toBeGreaterThanOrEqual(13);
    expect(documented).toEqual(servedRoutes());
  });

  it('declares every path parameter, a body for PUT/POST, and a schema for every answer', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect([method, path, declared]).toEqual([method, path, names]);
        if (method === 'put' || method === 'post') expect(op.requestBody).toBeDefined();
        for (const [status, response] of Object.entries(op.responses)) {
          const content = response.content ?? {};
          expect([path, status, Object.keys(content).length > 0]).toEqual([path, status, true]);
          for (const media of Object.values(content)) expect(media.schema).toBeDefined();
          if (status !== '200') expect(Object.keys(content)).toEqual(['application/json']);
        }
      }
    }
  });

  it('is valid JSON Schema throughout (every schema compiles)', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', ...doc.components });
    for (const ops of Object.values(doc.paths))
      for (const op of Object.values(ops))
        for (const response of Object.values(op.responses)) {
          for (const media of Object.values(response.content!)) {
            const schema = JSON.parse(JSON.stringify(media.schema).replace(/"#\/components/g, '"doc#'));
            expect(() => ajv.compile(schema)).not.toThrow();
          }
        }
  });

  it('describes the PUT body with the field names of the issue, and refuses unknown fields', () => {
    const put = doc.paths['/api/admin/orgs/{org}/policy']!.put as unknown as {
      requestBody: {
        content: {
          'application/json': {
            schema: { properties: Record<string, unknown>; additionalProperties: boolean };
          };
        };
      };
    };
    const schema = put.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['allowed_repos', 'disabled_tools', 'quotas', 'read_only', 'secret_detection_mode'].sort(),
    );
    expect(schema.additionalProperties).toBe(false);
    expect(ADMIN_ROUTES.every((r) => r.operationId)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });
});
