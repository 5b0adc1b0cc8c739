// Issue 16: policy decisions key on the method and route as well as the name, so a description
// that names an operation differently (SPEC_SOURCE=live) cannot move it out of its rule, neither
// out of DISABLED_TOOLS (the floor) nor out of an organisation's disabled_tools.
import { buildCatalogue, operationNamesByRoute } from '../catalogue/tool-catalogue';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../catalogue/spec-loader';
import { operationSubject, patternReachesAny } from '../catalogue/tool-filter';
import {
  decideGlobal,
  decideToolCall,
  isRoutePattern,
  matchSubject,
  routeKey,
  type GlobalRules,
} from './call-policy';
import { decideCall, defaultOrgPolicy, resolveEffectivePolicy, type GlobalFloor } from './org-policy';

// The bundled swagger, read here: the core itself does no file I/O (src/infra/gitea/spec-source.ts).
const loadBundledSpec = () =>
  parseSpec(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8'), 'bundled spec');

const open: GlobalRules = { disabledTools: [], toolsets: [], readOnly: false };
const floor: GlobalFloor = { ...open, detectionMode: 'mask' };

// The bundled description as a changed live one could serve it: repoDelete renamed, with its
// route's parameters renamed too.
const bundledText = JSON.stringify(loadBundledSpec());
const renamedText = bundledText
  .replace('"operationId":"repoDelete"', '"operationId":"repoRemove"')
  .replace('"/repos/{owner}/{repo}":', '"/repos/{username}/{name}":');
const live = parseSpec(renameRouteParams(renamedText), 'renamed');
const reference = operationNamesByRoute(loadBundledSpec());
const catalogue = buildCatalogue(live, { maxBinaryBytes: 1000, referenceNames: reference });
const renamed = catalogue.byName.get('repoRemove')!;

/** The path parameters of the renamed route follow its new names (parseSpec checks they match). */
function renameRouteParams(text: string): string {
  const spec = JSON.parse(text) as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
  };
  for (const op of Object.values(spec.paths['/repos/{username}/{name}'] ?? {}))
    for (const p of op.parameters ?? [])
      if (p.in === 'path') p.name = p.name === 'owner' ? 'username' : p.name === 'repo' ? 'name' : p.name;
  return JSON.stringify(spec);
}

describe('route-keyed policy', () => {
  it('routeKey blanks parameter names; a route pattern is a method and a path', () => {
    expect(routeKey('delete', '/repos/{owner}/{repo}')).toBe('DELETE /repos/{}/{}');
    expect(routeKey('DELETE', '/repos/{username}/{name}')).toBe('DELETE /repos/{}/{}');
    expect(isRoutePattern('DELETE /repos/{owner}/{repo}')).toBe(true);
    expect(isRoutePattern('* /admin/*')).toBe(true);
    expect(isRoutePattern('repoDelete')).toBe(false);
  });

  it('the live catalogue knows the renamed operation by its bundled name', () => {
    expect(renamed.route).toBe('/repos/{username}/{name}');
    expect(renamed.referenceName).toBe('repoDelete');
    expect(catalogue.byName.get('repoGet')!.referenceName).toBeUndefined(); // same name: nothing added
    expect(operationSubject(renamed)).toMatchObject({ method: 'DELETE', referenceName: 'repoDelete' });
  });

  it('DISABLED_TOOLS by name still refuses the renamed operation (the floor)', () => {
    expect(decideGlobal(operationSubject(renamed), { ...open, disabledTools: ['repoDelete'] })).toMatchObject(
      {
        allowed: false,
        kind: 'tool_disabled',
        source: 'global',
        rule: 'repoDelete',
      },
    );
    expect(decideGlobal(operationSubject(renamed), { ...open, disabledTools: ['repoDel*'] })).toMatchObject({
      allowed: false,
    });
    // without the reference name, the name alone would have let it through
    const { referenceName: _dropped, ...nameOnly } = renamed;
    expect(decideGlobal(operationSubject(nameOnly), { ...open, disabledTools: ['repoDelete'] })).toEqual({
      allowed: true,
    });
  });

  it('a method-and-route pattern refuses the operation whatever it and its parameters are called', () => {
    const { referenceName: _dropped, ...nameOnly } = renamed;
    const subject = operationSubject(nameOnly);
    expect(matchSubject(subject, ['delete /repos/{owner}/{repo}'])).toBe('delete /repos/{owner}/{repo}');
    expect(matchSubject(subject, ['GET /repos/{owner}/{repo}'])).toBeNull();
    expect(matchSubject(subject, ['* /repos/{a}/{b}'])).toBe('* /repos/{a}/{b}');
    expect(
      decideToolCall(subject, { global: { ...open, disabledTools: ['DELETE /repos/{o}/{r}'] } }),
    ).toMatchObject({ allowed: false, rule: 'DELETE /repos/{o}/{r}' });
    expect(matchSubject({ kind: 'raw', name: 'gitea_api_request' }, ['DELETE /repos/{o}/{r}'])).toBeNull();
  });

  it("an organisation's disabled_tools keys on the route too", () => {
    const acme = { ...defaultOrgPolicy('acme'), disabledTools: ['repoDelete'], version: 1 };
    const effective = resolveEffectivePolicy(floor, 'acme', acme);
    expect(decideCall(renamed, { org: 'acme', repo: 'widgets' }, floor, effective)).toMatchObject({
      allowed: false,
      kind: 'tool_disabled',
      rule: { source: 'org', name: 'disabled_tools', value: 'repoDelete' },
    });
    const byRoute = resolveEffectivePolicy(floor, 'acme', {
      ...acme,
      disabledTools: ['DELETE /repos/{x}/{y}'],
    });
    const { referenceName: _dropped, ...nameOnly } = renamed;
    expect(decideCall(nameOnly, { org: 'acme', repo: 'widgets' }, floor, byRoute)).toMatchObject({
      allowed: false,
      rule: { value: 'DELETE /repos/{x}/{y}' },
    });
  });

  it('a pattern reaches an operation by name, reference name or route (start-up and admin API checks)', () => {
    expect(patternReachesAny('repoDelete', catalogue.operations)).toBe(true);
    expect(patternReachesAny('DELETE /repos/{owner}/{repo}', catalogue.operations)).toBe(true);
    expect(patternReachesAny('DELETE /nowhere/{x}', catalogue.operations)).toBe(false);
    expect(patternReachesAny('repoNoSuchThing', catalogue.operations)).toBe(false);
  });
});
