"""Chart tests: `helm lint --strict` and `helm template` over every values file in ci/ and
examples/, each rendered manifest validated offline against the Kubernetes schemas
(kubernetes-validate, strict: unknown fields fail) for the oldest and newest supported versions,
what each scenario must render, and one template failure per contradiction (tests/invalid/).

Run: HELM=/path/to/helm python -m unittest discover -s helm/tests -v   (see .ci/run)
"""

import glob
import json
import os
import subprocess
import unittest

import jsonschema
import kubernetes_validate
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
HELM_DIR = os.path.dirname(HERE)
CHART = os.path.join(HELM_DIR, "aegis-gitea-mcp")
HELM = os.environ.get("HELM", "helm")
# The chart's kubeVersion floor and the newest schemas kubernetes-validate ships.
KUBE_VERSIONS = ["1.27.0", kubernetes_validate.latest_version()]
RELEASE = "aegis"

# prometheus-operator's CRD is not in the Kubernetes schemas: the fields this chart renders,
# strict, as monitoring.coreos.com/v1 defines them.
SERVICE_MONITOR_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "ServiceMonitor"},
        "metadata": {"type": "object", "required": ["name"]},
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "required": ["selector", "endpoints"],
            "properties": {
                "selector": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"matchLabels": {"type": "object", "additionalProperties": {"type": "string"}}},
                },
                "endpoints": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "port": {"type": "string"},
                            "path": {"type": "string"},
                            "interval": {"type": "string", "pattern": "^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"},
                            "scrapeTimeout": {"type": "string", "pattern": "^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"},
                            "authorization": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {
                                    "type": {"type": "string"},
                                    "credentials": {
                                        "type": "object",
                                        "additionalProperties": False,
                                        "required": ["key"],
                                        "properties": {"name": {"type": "string"}, "key": {"type": "string"}},
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def helm(*args, check=True):
    result = subprocess.run([HELM, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"helm {' '.join(args)} failed:\n{result.stderr}{result.stdout}")
    return result


def render(values_file, *extra):
    out = helm("template", RELEASE, CHART, "--namespace", "tools", "-f", values_file, *extra).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


def by_kind(docs, kind, name_suffix=None):
    found = [d for d in docs if d["kind"] == kind and (name_suffix is None or d["metadata"]["name"].endswith(name_suffix))]
    return found


def one(docs, kind, name_suffix=None):
    found = by_kind(docs, kind, name_suffix)
    if len(found) != 1:
        raise AssertionError(f"expected one {kind}, found {len(found)}: {[d['metadata']['name'] for d in found]}")
    return found[0]


def container(docs):
    return one(docs, "Deployment")["spec"]["template"]["spec"]["containers"][0]


def env_refs(docs):
    """{VAR: (secret name, key)} of the server container."""
    refs = {}
    for entry in container(docs).get("env", []):
        ref = entry.get("valueFrom", {}).get("secretKeyRef")
        if ref:
            refs[entry["name"]] = (ref["name"], ref["key"])
    return refs


def values_path(name):
    return os.path.join(CHART, "ci", f"{name}-values.yaml")


VALUES_FILES = sorted(glob.glob(os.path.join(CHART, "ci", "*-values.yaml"))) + sorted(
    glob.glob(os.path.join(HELM_DIR, "examples", "*.yaml"))
)


class EveryValuesFile(unittest.TestCase):
    def test_there_are_values_files(self):
        names = {os.path.basename(f) for f in VALUES_FILES}
        for expected in ["minimal-values.yaml", "external-db-redis-values.yaml", "ha-values.yaml",
                         "ingress-tls-values.yaml", "existing-secret-values.yaml", "beside-official-gitea.yaml"]:
            self.assertIn(expected, names)

    def test_lint_strict(self):
        for values_file in VALUES_FILES:
            with self.subTest(values=os.path.basename(values_file)):
                helm("lint", "--strict", CHART, "-f", values_file)

    def test_every_manifest_validates_against_the_kubernetes_schemas(self):
        for values_file in VALUES_FILES:
            docs = render(values_file)
            # `helm test` hooks are rendered too.
            self.assertTrue(any(d["kind"] == "Pod" for d in docs))
            for doc in docs:
                name = f"{os.path.basename(values_file)}: {doc['kind']}/{doc['metadata']['name']}"
                with self.subTest(manifest=name):
                    if doc["apiVersion"] == "monitoring.coreos.com/v1":
                        jsonschema.validate(doc, SERVICE_MONITOR_SCHEMA)
                        continue
                    for version in KUBE_VERSIONS:
                        kubernetes_validate.validate(doc, version, strict=True)

    def test_common_properties(self):
        for values_file in VALUES_FILES:
            with self.subTest(values=os.path.basename(values_file)):
                docs = render(values_file)
                pod = one(docs, "Deployment")["spec"]["template"]["spec"]
                c = pod["containers"][0]
                self.assertTrue(pod["securityContext"]["runAsNonRoot"])
                self.assertFalse(pod["automountServiceAccountToken"])
                self.assertTrue(c["securityContext"]["readOnlyRootFilesystem"])
                self.assertFalse(c["securityContext"]["allowPrivilegeEscalation"])
                self.assertEqual(c["securityContext"]["capabilities"]["drop"], ["ALL"])
                self.assertEqual(c["livenessProbe"]["httpGet"]["path"], "/healthz")
                self.assertEqual(c["readinessProbe"]["httpGet"]["path"], "/readyz")
                self.assertEqual(c["startupProbe"]["httpGet"]["path"], "/healthz")
                self.assertIn("requests", c["resources"])
                self.assertGreaterEqual(len(pod["topologySpreadConstraints"]), 1)
                # Only DATA_DIR and /tmp are writable.
                self.assertEqual(sorted(m["mountPath"] for m in c["volumeMounts"]), ["/data", "/tmp"])
                # Secrets never sit in the ConfigMap.
                config = one(docs, "ConfigMap")["data"]
                for secret in ["GITEA_TOKEN", "MCP_BEARER_TOKEN", "GITEA_OAUTH_CLIENT_SECRET", "ENCRYPTION_KEY",
                               "DATABASE_URL", "REDIS_URL", "METRICS_TOKEN"]:
                    self.assertNotIn(secret, config)
                self.assertEqual(config["HOST"], "0.0.0.0")
                self.assertEqual(config["METRICS_PORT"], "9464")
                ports = {p["name"]: p["containerPort"] for p in c["ports"]}
                self.assertEqual(ports, {"http": 8080, "metrics": 9464})


class Scenarios(unittest.TestCase):
    def test_minimal(self):
        docs = render(values_path("minimal"))
        self.assertEqual(one(docs, "Deployment")["spec"]["replicas"], 1)
        self.assertEqual(by_kind(docs, "Job"), [])  # embedded database: the service migrates at start
        self.assertEqual(by_kind(docs, "PodDisruptionBudget"), [])
        self.assertEqual(by_kind(docs, "HorizontalPodAutoscaler"), [])
        self.assertEqual(by_kind(docs, "Ingress"), [])
        secret = one(docs, "Secret")
        self.assertEqual(sorted(secret["data"]), ["GITEA_TOKEN", "MCP_BEARER_TOKEN"])
        self.assertEqual(env_refs(docs), {
            "GITEA_TOKEN": ("aegis-aegis-gitea-mcp", "GITEA_TOKEN"),
            "MCP_BEARER_TOKEN": ("aegis-aegis-gitea-mcp", "MCP_BEARER_TOKEN"),
        })
        policy = one(docs, "NetworkPolicy")
        self.assertEqual(policy["spec"]["policyTypes"], ["Ingress", "Egress"])
        egress = policy["spec"]["egress"]
        # Gitea and DNS only: no database or Redis configured.
        self.assertEqual([[p["port"] for p in rule["ports"]] for rule in egress], [[3000], [53, 53]])
        self.assertEqual(egress[0]["to"], [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "gitea"}}}])
        self.assertEqual(one(docs, "ConfigMap")["data"]["DATA_DIR"], "/data")

    def test_external_postgresql_and_redis(self):
        docs = render(values_path("external-db-redis"))
        job = one(docs, "Job")
        self.assertEqual(job["metadata"]["annotations"]["helm.sh/hook"], "pre-install,pre-upgrade")
        self.assertEqual(job["spec"]["template"]["spec"]["containers"][0]["command"], ["node", "dist/src/cli/migrate.js"])
        # At pre-install the chart's Secret does not exist yet: the Job reads a hook Secret of its own.
        hook_secret = one(docs, "Secret", "-migrate")
        self.assertEqual(hook_secret["metadata"]["annotations"]["helm.sh/hook-weight"], "-10")
        self.assertEqual(sorted(hook_secret["data"]), ["DATABASE_URL"])
        job_ref = job["spec"]["template"]["spec"]["containers"][0]["env"][0]["valueFrom"]["secretKeyRef"]
        self.assertEqual(job_ref, {"name": "aegis-aegis-gitea-mcp-migrate", "key": "DATABASE_URL"})
        egress = one(docs, "NetworkPolicy")["spec"]["egress"]
        self.assertEqual([[p["port"] for p in rule["ports"]] for rule in egress], [[443], [53, 53], [5432], [6379]])
        self.assertEqual(egress[0]["to"], [{"ipBlock": {"cidr": "203.0.113.10/32"}}])
        self.assertIn("DATABASE_URL", env_refs(docs))
        self.assertIn("REDIS_URL", env_refs(docs))

    def test_high_availability_with_three_replicas(self):
        docs = render(values_path("ha"))
        deployment = one(docs, "Deployment")
        self.assertEqual(deployment["spec"]["replicas"], 3)
        self.assertEqual(deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"], 0)
        self.assertEqual(one(docs, "PodDisruptionBudget")["spec"]["maxUnavailable"], 1)
        spread = deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]
        self.assertEqual([s["topologyKey"] for s in spread], ["kubernetes.io/hostname", "topology.kubernetes.io/zone"])
        monitor = one(docs, "ServiceMonitor")
        self.assertEqual(monitor["metadata"]["labels"]["release"], "kube-prometheus-stack")
        self.assertEqual(monitor["spec"]["endpoints"][0]["port"], "metrics")
        self.assertEqual(monitor["spec"]["endpoints"][0]["authorization"]["credentials"],
                         {"name": "aegis-aegis-gitea-mcp", "key": "METRICS_TOKEN"})
        # Grace period above SHUTDOWN_TIMEOUT_MS.
        self.assertEqual(one(docs, "ConfigMap")["data"]["SHUTDOWN_TIMEOUT_MS"], "20000")

    def test_autoscaling(self):
        docs = render(values_path("hpa"))
        self.assertNotIn("replicas", one(docs, "Deployment")["spec"])
        hpa = one(docs, "HorizontalPodAutoscaler")
        self.assertEqual((hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]), (2, 6))
        self.assertEqual([m["resource"]["name"] for m in hpa["spec"]["metrics"]], ["cpu", "memory"])
        self.assertEqual(len(by_kind(docs, "PodDisruptionBudget")), 1)

    def test_ingress_with_tls(self):
        docs = render(values_path("ingress-tls"))
        ingress = one(docs, "Ingress")
        self.assertEqual(ingress["spec"]["tls"], [{"hosts": ["mcp.example.com"], "secretName": "mcp-example-com-tls"}])
        self.assertEqual(ingress["spec"]["ingressClassName"], "nginx")
        backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
        self.assertEqual(backend, {"name": "aegis-aegis-gitea-mcp", "port": {"name": "http"}})
        # PUBLIC_URL from the TLS host: the OAuth issuer and redirect URL.
        self.assertEqual(one(docs, "ConfigMap")["data"]["PUBLIC_URL"], "https://mcp.example.com")
        # The embedded database on a kept PVC; one pod owns it at a time.
        pvc = one(docs, "PersistentVolumeClaim")
        self.assertEqual(pvc["metadata"]["annotations"]["helm.sh/resource-policy"], "keep")
        self.assertEqual(one(docs, "Deployment")["spec"]["strategy"], {"type": "Recreate"})
        ingress_rules = one(docs, "NetworkPolicy")["spec"]["ingress"]
        self.assertEqual(ingress_rules[0]["from"][0]["namespaceSelector"]["matchLabels"],
                         {"kubernetes.io/metadata.name": "ingress-nginx"})

    def test_existing_secret_everywhere(self):
        docs = render(values_path("existing-secret"))
        self.assertEqual(by_kind(docs, "Secret"), [])  # the chart creates none
        self.assertEqual(env_refs(docs), {
            "GITEA_TOKEN": ("aegis-gitea-mcp-credentials", "gitea-token"),
            "GITEA_OAUTH_CLIENT_SECRET": ("aegis-gitea-mcp-credentials", "oauth-client-secret"),
            "MCP_BEARER_TOKEN": ("aegis-gitea-mcp-credentials", "mcp-bearer-token"),
            "ENCRYPTION_KEY": ("aegis-gitea-mcp-credentials", "encryption-key"),
            "METRICS_TOKEN": ("aegis-gitea-mcp-credentials", "metrics-token"),
            "REDIS_URL": ("aegis-gitea-mcp-credentials", "redis-url"),
            "DATABASE_URL": ("aegis-db-app", "uri"),
        })
        job = one(docs, "Job")
        ref = job["spec"]["template"]["spec"]["containers"][0]["env"][0]["valueFrom"]["secretKeyRef"]
        self.assertEqual(ref, {"name": "aegis-db-app", "key": "uri"})
        self.assertEqual(one(docs, "ServiceMonitor")["spec"]["endpoints"][0]["authorization"]["credentials"],
                         {"name": "aegis-gitea-mcp-credentials", "key": "metrics-token"})

    def test_beside_the_official_gitea_chart(self):
        docs = render(os.path.join(HELM_DIR, "examples", "beside-official-gitea.yaml"))
        config = one(docs, "ConfigMap")["data"]
        self.assertEqual(config["GITEA_URL"], "http://gitea-http.gitea.svc.cluster.local:3000")
        egress = one(docs, "NetworkPolicy")["spec"]["egress"][0]
        self.assertEqual(egress["to"][0]["podSelector"]["matchLabels"]["app.kubernetes.io/name"], "gitea")

    def test_config_change_rolls_the_pods(self):
        a = one(render(values_path("minimal")), "Deployment")["spec"]["template"]["metadata"]["annotations"]
        b = one(render(values_path("minimal"), "--set", "config.LOG_LEVEL=debug"), "Deployment")
        self.assertNotEqual(a["checksum/config"], b["spec"]["template"]["metadata"]["annotations"]["checksum/config"])


class Contradictions(unittest.TestCase):
    """Each file in tests/invalid/ starts with `# expect: <text>`: rendering must fail with it."""

    CASES = sorted(glob.glob(os.path.join(HERE, "invalid", "*.yaml")))

    def test_there_is_one_case_per_contradiction(self):
        names = {os.path.basename(c)[:-5] for c in self.CASES}
        for expected in ["replicas-without-redis", "replicas-without-encryption-key", "replicas-without-database",
                         "autoscaling-without-redis", "oauth-without-public-url", "oauth-without-encryption-key",
                         "oauth-without-client-secret", "no-agent-authentication", "bearer-too-short",
                         "bearer-without-gitea-token", "secret-in-config", "unknown-config-variable",
                         "existing-keys-without-secret", "gitea-url-with-api-v1", "grace-shorter-than-shutdown",
                         "secret-given-twice", "oauth-with-http-public-url"]:
            self.assertIn(expected, names)

    def test_each_contradiction_fails_with_its_message(self):
        for case in self.CASES:
            with open(case) as handle:
                first = handle.readline()
            self.assertTrue(first.startswith("# expect: "), case)
            expected = first[len("# expect: "):].strip()
            with self.subTest(case=os.path.basename(case)):
                result = helm("template", RELEASE, CHART, "-f", case, check=False)
                self.assertNotEqual(result.returncode, 0, f"{case} rendered")
                self.assertIn(expected, result.stderr)


class ValuesSchema(unittest.TestCase):
    def test_every_secret_variable_has_a_value_and_an_existing_secret_key(self):
        with open(os.path.join(CHART, "values.schema.json")) as handle:
            schema = json.load(handle)
        secrets = schema["properties"]["secrets"]["properties"]
        self.assertEqual(sorted(secrets["values"]["properties"]), sorted(secrets["existingSecretKeys"]["properties"]))
        for name in ["GITEA_TOKEN", "GITEA_OAUTH_CLIENT_SECRET", "MCP_BEARER_TOKEN", "ENCRYPTION_KEY",
                     "DATABASE_URL", "REDIS_URL"]:
            self.assertIn(name, secrets["values"]["properties"])


if __name__ == "__main__":
    unittest.main()
