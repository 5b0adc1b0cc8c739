// Keeps the Helm chart in step with the configuration table (src/config/env.schema.ts): writes
// helm/aegis-gitea-mcp/values.schema.json and the generated blocks of values.yaml (`config`:
// every plain variable, `secrets.values`: every secret one). A new variable in ENV_VARS reaches
// the chart by running `npm run helm:generate`; test/unit/helm/values-drift.test.ts fails until
// then. The templates iterate over both maps, so no template changes for a new variable.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_VARS, type EnvVarSpec } from '../src/config/env.schema';

export const CHART_DIR = join(__dirname, '../helm/aegis-gitea-mcp');

/** Values the chart sets differently from the service's own default, and why (shown in values.yaml). */
export const CHART_DEFAULTS: Record<string, { value: string | number; why: string }> = {
  HOST: { value: '0.0.0.0', why: 'listen on the pod network' },
  PORT: { value: 8080, why: 'the container port and the Service target' },
  DATA_DIR: { value: '/data', why: 'the mounted volume (emptyDir or a PersistentVolumeClaim)' },
  METRICS_PORT: { value: 9464, why: 'the container port "metrics" (ServiceMonitor, NetworkPolicy)' },
};

const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
};

type Specs = readonly EnvVarSpec[];
const plainVars = (specs: Specs): EnvVarSpec[] => specs.filter((spec) => !spec.sensitive);
const secretVars = (specs: Specs): EnvVarSpec[] => specs.filter((spec) => spec.sensitive);

const serviceDefault = (spec: EnvVarSpec): string => (spec.defaultText === null ? 'unset' : spec.defaultText);

function yamlScalar(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The generated lines of values.yaml, indented for their place under `config:` / `secrets.values:`. */
export function valuesBlocks(specs: Specs = ENV_VARS): { config: string; secrets: string } {
  const block = (specs: EnvVarSpec[], indent: string, chartDefaults: boolean): string =>
    specs
      .map((spec) => {
        const chart = chartDefaults ? CHART_DEFAULTS[spec.name] : undefined;
        const note = chart
          ? `Chart default: ${chart.why} (service default: ${serviceDefault(spec)}).`
          : `Service default: ${serviceDefault(spec)}.`;
        const comment = wrap(`${spec.description} ${note}`, 96 - indent.length).map(
          (line) => `${indent}# ${line}`,
        );
        return [...comment, `${indent}${spec.name}: ${yamlScalar(chart ? chart.value : '')}`].join('\n');
      })
      .join('\n');
  return { config: block(plainVars(specs), '  ', true), secrets: block(secretVars(specs), '    ', false) };
}

const BEGIN = '# BEGIN GENERATED';
const END = '# END GENERATED';

/** values.yaml with its generated blocks replaced by the current ones. */
export function renderValuesYaml(current: string, specs: Specs = ENV_VARS): string {
  const blocks = valuesBlocks(specs);
  let index = 0;
  const replaced = current.replace(
    /^([ ]*)# BEGIN GENERATED(.*)\n[\s\S]*?^[ ]*# END GENERATED.*$/gm,
    (_match, indent: string, rest: string) => {
      const name = rest.includes('secrets') ? 'secrets' : 'config';
      index += 1;
      return `${indent}${BEGIN}${rest}\n${blocks[name]}\n${indent}${END} (npm run helm:generate)`;
    },
  );
  if (index !== 2) throw new Error(`values.yaml must hold two generated blocks, found ${index}`);
  return replaced;
}

type Schema = Record<string, unknown>;
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const int = (description: string, minimum = 0): Schema => ({ type: 'integer', minimum, description });
const obj = (description: string, properties: Schema, extra: Schema = {}): Schema => ({
  type: 'object',
  description,
  additionalProperties: false,
  properties,
  ...extra,
});
const freeObject = (description: string): Schema => ({ type: 'object', description });
const stringMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
});
const array = (description: string, items: Schema = { type: 'object' }): Schema => ({
  type: 'array',
  description,
  items,
});

const peerList = (description: string) =>
  array(`${description} (NetworkPolicyPeer objects; empty: any destination).`);
const portList = array('Ports (NetworkPolicyPort objects).', {
  type: 'object',
  required: ['port'],
  properties: {
    port: { type: ['integer', 'string'] },
    protocol: { type: 'string', enum: ['TCP', 'UDP', 'SCTP'] },
    endPort: { type: 'integer' },
  },
  additionalProperties: false,
});
const egressRule = (description: string): Schema =>
  obj(description, { to: peerList('Allowed destinations'), ports: portList });

/** The whole values.schema.json. */
export function valuesSchema(specs: Specs = ENV_VARS): Schema {
  const configProperties = Object.fromEntries(
    plainVars(specs).map((spec) => [
      spec.name,
      {
        type: ['string', 'integer', 'boolean'],
        description: `${spec.description} Service default: ${serviceDefault(spec)}. Empty: the service default.`,
      },
    ]),
  );
  const secretValueProperties = Object.fromEntries(
    secretVars(specs).map((spec) => [spec.name, str(`${spec.description} Empty: unset.`)]),
  );
  const secretRef = {
    oneOf: [
      { type: 'string', minLength: 1, description: 'Key in secrets.existingSecret.' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['key'],
        properties: {
          name: str('Secret name (default: secrets.existingSecret).', { minLength: 1 }),
          key: str('Key in that Secret.', { minLength: 1 }),
        },
      },
    ],
  };
  const secretRefProperties = Object.fromEntries(secretVars(specs).map((spec) => [spec.name, secretRef]));
  const probe = (description: string) =>
    obj(description, {
      enabled: bool('Render this probe.'),
      initialDelaySeconds: int('Seconds before the first probe.'),
      periodSeconds: int('Seconds between probes.', 1),
      timeoutSeconds: int('Seconds one probe may take.', 1),
      failureThreshold: int('Failures in a row before the probe fails.', 1),
      successThreshold: int('Successes in a row before the probe passes.', 1),
    });

  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'aegis-gitea-mcp values',
    description:
      'Generated by scripts/helm-values.ts from src/config/env.schema.ts (npm run helm:generate); do not edit by hand.',
    type: 'object',
    additionalProperties: false,
    properties: {
      global: freeObject('Values shared with parent charts (unused here).'),
      nameOverride: str('Replaces the chart name in resource names.'),
      fullnameOverride: str('Replaces the full resource name prefix.'),
      image: obj(
        'The service image.',
        {
          repository: str('Image repository.', { minLength: 1 }),
          tag: str('Image tag (default: the chart appVersion).'),
          digest: str('Image digest (sha256:...); wins over the tag.', {
            pattern: '^(sha256:[a-f0-9]{64})?$',
          }),
          pullPolicy: str('Image pull policy.', { enum: ['Always', 'IfNotPresent', 'Never'] }),
        },
        { required: ['repository'] },
      ),
      imagePullSecrets: array('Pull secrets ({name: ...}).'),
      replicaCount: int('Pods when autoscaling is off.', 1),
      revisionHistoryLimit: int('Old ReplicaSets kept.'),
      serviceAccount: obj('The pod ServiceAccount.', {
        create: bool('Create one.'),
        name: str('Name (default: the full name).'),
        annotations: stringMap('Annotations.'),
        automountServiceAccountToken: bool('Mount a Kubernetes API token (the service never needs one).'),
      }),
      podAnnotations: stringMap('Extra pod annotations.'),
      podLabels: stringMap('Extra pod labels.'),
      podSecurityContext: freeObject('Pod securityContext.'),
      securityContext: freeObject('Container securityContext.'),
      resources: freeObject('Container resources.'),
      terminationGracePeriodSeconds: int(
        'Seconds Kubernetes waits after SIGTERM; must exceed SHUTDOWN_TIMEOUT_MS.',
        1,
      ),
      probes: obj('Probes on /healthz (startup, liveness) and /readyz (readiness).', {
        startup: probe('Startup probe on /healthz (covers migrations at start).'),
        liveness: probe('Liveness probe on /healthz.'),
        readiness: probe('Readiness probe on /readyz.'),
      }),
      topologySpreadConstraints: array('Replaces the default spread (by node and by zone, ScheduleAnyway).'),
      nodeSelector: stringMap('Node selector.'),
      tolerations: array('Tolerations.'),
      affinity: freeObject('Affinity.'),
      priorityClassName: str('Priority class.'),
      extraEnv: array('Extra container env entries (name/value or valueFrom).'),
      service: obj('The ClusterIP Service in front of the MCP port.', {
        type: str('Service type.', { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] }),
        port: int('Service port.', 1),
        annotations: stringMap('Annotations.'),
      }),
      ingress: obj('Optional Ingress to the MCP port.', {
        enabled: bool('Render an Ingress.'),
        className: str('IngressClass name.'),
        annotations: stringMap('Annotations.'),
        hosts: array('Hosts and paths.', {
          type: 'object',
          required: ['host'],
          additionalProperties: false,
          properties: {
            host: str('Host name.', { minLength: 1 }),
            paths: array('Paths.', {
              type: 'object',
              additionalProperties: false,
              required: ['path'],
              properties: {
                path: str('Path.'),
                pathType: str('Path type.', { enum: ['Prefix', 'Exact', 'ImplementationSpecific'] }),
              },
            }),
          },
        }),
        tls: array('TLS (secretName and hosts).', {
          type: 'object',
          additionalProperties: false,
          required: ['hosts'],
          properties: {
            secretName: str('TLS Secret.'),
            hosts: array('Hosts.', { type: 'string' }),
          },
        }),
      }),
      metrics: obj('Prometheus metrics on their own port (METRICS_PORT).', {
        serviceMonitor: obj('prometheus-operator ServiceMonitor.', {
          enabled: bool('Render a ServiceMonitor (needs the monitoring.coreos.com CRDs).'),
          interval: str('Scrape interval.'),
          scrapeTimeout: str('Scrape timeout.'),
          labels: stringMap('Labels your Prometheus selects ServiceMonitors by.'),
        }),
      }),
      persistence: obj('The data volume at DATA_DIR (embedded PGlite when DATABASE_URL is unset).', {
        enabled: bool('Use a PersistentVolumeClaim instead of an emptyDir.'),
        existingClaim: str('Use this claim instead of creating one.'),
        storageClass: str('Storage class of the created claim.'),
        accessModes: array('Access modes.', { type: 'string' }),
        size: str('Size of the created claim.'),
      }),
      autoscaling: obj('HorizontalPodAutoscaler.', {
        enabled: bool('Render an HPA (replicaCount is then ignored).'),
        minReplicas: int('Fewest pods.', 1),
        maxReplicas: int('Most pods.', 1),
        targetCPUUtilizationPercentage: int('CPU target, percent of requests.', 1),
        targetMemoryUtilizationPercentage: {
          type: ['integer', 'null'],
          description: 'Memory target (null: off).',
        },
      }),
      podDisruptionBudget: obj('PodDisruptionBudget (rendered only with more than one replica).', {
        enabled: bool('Render it when there is more than one replica.'),
        maxUnavailable: { type: ['integer', 'string'], description: 'Pods that may be down at once.' },
      }),
      networkPolicy: obj(
        'NetworkPolicy for the service pods: ingress to the ports, egress only to Gitea, PostgreSQL, Redis and DNS.',
        {
          enabled: bool('Render it.'),
          ingress: obj('Who may connect.', {
            from: peerList('Peers allowed to reach the MCP port'),
            metricsFrom: peerList('Peers allowed to reach the metrics port'),
          }),
          egress: obj('Where the pods may connect.', {
            gitea: egressRule('Gitea (REST API, OAuth, live spec).'),
            postgresql: egressRule('PostgreSQL (rendered when DATABASE_URL is set).'),
            redis: egressRule('Redis (rendered when REDIS_URL is set).'),
            dns: egressRule('DNS.'),
            extra: array('Further egress rules (NetworkPolicyEgressRule objects).'),
          }),
        },
      ),
      migrations: obj('Migration Job run as a pre-install/pre-upgrade hook (when DATABASE_URL is set).', {
        enabled: bool('Render the Job.'),
        backoffLimit: int('Retries.'),
        activeDeadlineSeconds: int('Longest run.', 1),
        resources: freeObject('Job container resources.'),
      }),
      tests: obj('`helm test` hook.', { enabled: bool('Render the test Pod.') }),
      config: {
        type: 'object',
        description:
          'Plain environment variables (ConfigMap), by name; see docs/configuration.md. Empty: the service default. Secrets go under secrets.',
        additionalProperties: false,
        properties: configProperties,
      },
      secrets: obj('Secret environment variables.', {
        existingSecret: str('A Secret you manage; the keys named in existingSecretKeys are read from it.'),
        existingSecretKeys: {
          type: 'object',
          description:
            'Variable name -> key in existingSecret (or {name, key} for another Secret). Only listed variables are read.',
          additionalProperties: false,
          properties: secretRefProperties,
        },
        values: {
          type: 'object',
          description: 'Values for the Secret the chart creates (prefer existingSecret in production).',
          additionalProperties: false,
          properties: secretValueProperties,
        },
      }),
    },
  };
}

export const renderValuesSchema = (specs: Specs = ENV_VARS): string =>
  `${JSON.stringify(valuesSchema(specs), null, 2)}\n`;

if (require.main === module) {
  const valuesPath = join(CHART_DIR, 'values.yaml');
  writeFileSync(valuesPath, renderValuesYaml(readFileSync(valuesPath, 'utf8')));
  writeFileSync(join(CHART_DIR, 'values.schema.json'), renderValuesSchema());
  process.stdout.write(`wrote ${valuesPath} and values.schema.json\n`);
}
