// The chart follows the configuration table: values.schema.json and the generated blocks of
// values.yaml are exactly what scripts/helm-values.ts makes from src/config/env.schema.ts today.
// When this fails after adding a variable: npm run helm:generate (and commit the chart).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_VARS } from '../../../src/config/env.schema';
import { CHART_DIR, renderValuesSchema, renderValuesYaml } from '../../../scripts/helm-values';

const read = (name: string) => readFileSync(join(CHART_DIR, name), 'utf8');

describe('helm chart values', () => {
  it('values.schema.json is generated from the configuration table', () => {
    expect(read('values.schema.json')).toBe(renderValuesSchema());
  });

  it("values.yaml's config and secrets blocks are generated from the configuration table", () => {
    const current = read('values.yaml');
    expect(current).toBe(renderValuesYaml(current));
  });

  it('covers every variable once: plain ones under config, secrets under secrets.values and existingSecretKeys', () => {
    const schema = JSON.parse(read('values.schema.json')) as {
      properties: {
        config: { properties: Record<string, unknown> };
        secrets: { properties: Record<string, { properties: Record<string, unknown> }> };
      };
    };
    const config = Object.keys(schema.properties.config.properties);
    const secretValues = Object.keys(schema.properties.secrets.properties.values!.properties);
    const secretKeys = Object.keys(schema.properties.secrets.properties.existingSecretKeys!.properties);
    expect([...config, ...secretValues].sort()).toEqual(ENV_VARS.map((spec) => spec.name).sort());
    expect(secretValues).toEqual(ENV_VARS.filter((spec) => spec.sensitive).map((spec) => spec.name));
    expect(secretKeys).toEqual(secretValues);
  });

  it('a variable added to the table reaches the chart by regenerating, with no template change', () => {
    const plain = {
      ...ENV_VARS[0]!,
      name: 'NEW_PLAIN_SETTING',
      description: 'A new knob.',
      sensitive: false,
    };
    const secret = { ...ENV_VARS[0]!, name: 'NEW_SECRET', description: 'A new credential.', sensitive: true };
    const specs = [...ENV_VARS, plain, secret];
    const yaml = renderValuesYaml(read('values.yaml'), specs);
    const config = yaml.slice(yaml.indexOf('\nconfig:'), yaml.indexOf('\nsecrets:'));
    const secrets = yaml.slice(yaml.indexOf('\nsecrets:'));
    expect(config).toContain('  # A new knob. Service default: 127.0.0.1.\n  NEW_PLAIN_SETTING: ""');
    expect(config).not.toContain('NEW_SECRET');
    expect(secrets).toContain('    # A new credential. Service default: 127.0.0.1.\n    NEW_SECRET: ""');
    const schema = renderValuesSchema(specs);
    expect(schema).toContain('"NEW_PLAIN_SETTING"');
    expect(JSON.parse(schema).properties.secrets.properties.existingSecretKeys.properties).toHaveProperty(
      'NEW_SECRET',
    );
  });
});
